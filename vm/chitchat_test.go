package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

func chitchat(kind string) Command { return Command{Kind: CmdChitchat, SmallTalk: kind} }

// chitchatProgram has a flow that asks one question.
func chitchatProgram() *ir.Program {
	p := program(nil, nil, flow("ask", nil, collect("q", "x", "X?")))
	p.Settings = ir.DefaultSettings()
	return p
}

// TestDefaultChitchatAnswersEachKindOfSmallTalk: with no chitchat_message,
// soni's pattern_chitchat greets a greeting, says "you're welcome" to
// thanks, goodbye to a goodbye, "take your time" to a request for a
// moment and a short acknowledgement to an "ok"; small talk of no kind
// gets a neutral answer, never the fallback. While a question waits, the
// greeting and the goodbye are shorter, and the question is asked again.
func TestDefaultChitchatAnswersEachKindOfSmallTalk(t *testing.T) {
	m := newMachine(t, chitchatProgram(), Options{})
	for _, tc := range []struct {
		kind          string
		idle, pending string
		response      string
	}{
		{ir.SmallTalkGreet, "Hello! How can I help you?", "Hello!", "utter_greet"},
		{ir.SmallTalkThanks, "You're welcome!", "You're welcome!", "utter_you_are_welcome"},
		{ir.SmallTalkGoodbye, "Goodbye! Have a nice day.", "Goodbye! We can finish this whenever you come back.", "utter_goodbye"},
		{ir.SmallTalkWait, "Of course, take your time.", "Of course, take your time.", "utter_take_your_time"},
		{ir.SmallTalkAck, "Great!", "Great!", "utter_acknowledge"},
		{"", "I'm only a virtual assistant, but I'm happy to help with what I can do.", "I'm only a virtual assistant, but I'm happy to help with what I can do.", "utter_free_chitchat_response"},
	} {
		t.Run("kind "+tc.kind, func(t *testing.T) {
			res := do(t, m, m.NewState("s"), chitchat(tc.kind))
			assert.Equal(t, []string{tc.idle}, res.Replies, "nothing pending: the answer, and no idle message")
			assert.Equal(t, tc.response, res.Message(0).Response)
			assert.Contains(t, allEventTypes(res), "flow_started pattern_chitchat")

			res = do(t, m, m.NewState("s"), start("ask"))
			res = do(t, m, res.State, chitchat(tc.kind))
			assert.Equal(t, []string{tc.pending, "X?"}, res.Replies, "a question waits: the answer, then the question again")
			assert.Equal(t, []string{"ask.q"}, stackOf(res.State))
		})
	}
	// A kind soni does not know is small talk of no kind.
	res := do(t, m, m.NewState("s"), chitchat("weather"))
	assert.Equal(t, "utter_free_chitchat_response", res.Message(0).Response)
}

// TestChitchatAnswersInTheSessionsLanguage: the default answers to small
// talk and to a request for a person have a Spanish translation.
func TestChitchatAnswersInTheSessionsLanguage(t *testing.T) {
	m := newMachine(t, chitchatProgram(), Options{})
	for _, tc := range []struct {
		cmd  Command
		want string
	}{
		{chitchat(ir.SmallTalkThanks), "¡De nada!"},
		{chitchat(ir.SmallTalkGreet), "¡Hola! ¿En qué puedo ayudarte?"},
		{chitchat(""), "Solo soy un asistente virtual, pero te ayudo con gusto en lo que puedo hacer."},
		{Command{Kind: CmdHandoff}, "Lo siento, aquí no puedo pasarte con una persona, pero te ayudo con gusto en lo que puedo hacer."},
	} {
		res, err := m.Turn(t.Context(), m.NewState("s"), Input{Commands: []Command{tc.cmd}, Metadata: map[string]any{"language": "es"}})
		require.NoError(t, err)
		assert.Equal(t, []string{tc.want}, res.Replies)
	}
}

// TestChitchatOverrides: a project changes an answer by defining its
// response (here one that depends on the pattern's small_talk slot too),
// chitchat_message answers every kind of small talk, and an override of
// pattern_chitchat reads small_talk and question_pending.
func TestChitchatOverrides(t *testing.T) {
	p := chitchatProgram()
	p.Responses = []*ir.Response{{Name: ir.ResponseYouAreWelcome, Variations: []*ir.Variation{{Text: tx("Anytime!")}}}}
	m := newMachine(t, p, Options{})
	res := do(t, m, m.NewState("s"), chitchat(ir.SmallTalkThanks))
	assert.Equal(t, []string{"Anytime!"}, res.Replies)
	res = do(t, m, m.NewState("s"), chitchat(ir.SmallTalkGoodbye))
	assert.Equal(t, []string{"Goodbye! Have a nice day."}, res.Replies, "the other answers stay soni's")

	p = chitchatProgram()
	p.Settings.ChitchatMessage = "I'm just a bot."
	m = newMachine(t, p, Options{})
	for _, kind := range append([]string{""}, ir.SmallTalkKinds...) {
		res = do(t, m, m.NewState("s"), chitchat(kind))
		assert.Equal(t, []string{"I'm just a bot."}, res.Replies, "kind %q", kind)
	}

	p = chitchatProgram()
	// The compiler gives a pattern override its read-only slots.
	slots := []*ir.Slot{{Name: ir.ContextSlot, Type: ir.TypeAny}}
	for _, ps := range ir.PatternSlots[ir.PatternChitchat] {
		slots = append(slots, &ir.Slot{Name: ps.Name, Type: ps.Type})
	}
	p.Flows = append(p.Flows, flow(ir.PatternChitchat, slots, say("s", "{small_talk} {question_pending} {context.small_talk}")))
	m = newMachine(t, p, Options{})
	res = do(t, m, m.NewState("s"), start("ask"))
	res = do(t, m, res.State, chitchat(ir.SmallTalkWait))
	assert.Equal(t, []string{"wait true wait", "X?"}, res.Replies)
}

// TestDefaultHandoffWithoutASetting: with no handoff setting, a request
// for a person is told that no person can take it here, not that the
// message was not understood.
func TestDefaultHandoffWithoutASetting(t *testing.T) {
	m := newMachine(t, chitchatProgram(), Options{})
	res := do(t, m, m.NewState("s"), start("ask"))
	res = do(t, m, res.State, Command{Kind: CmdHandoff})
	assert.Equal(t, []string{"Sorry, I can't put you through to a person here, but I'm happy to help with what I can do.", "X?"}, res.Replies)
	assert.Equal(t, ir.ResponseHumanHandoff, res.Message(0).Response)
}
