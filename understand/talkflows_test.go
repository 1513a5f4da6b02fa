package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// talkFlowsYAML is an imported assistant with its own flows for a
// greeting, a goodbye and a list of what it can do, described the way
// such projects describe them, and a flow whose description only
// mentions greetings.
const talkFlowsYAML = `version: "1.0"
flows:
  welcome:
    description: greet the user and ask how you can help
    steps: [{step: s, type: say, message: "Welcome to the travel desk!"}]
  goodbye:
    description: say goodbye to user
    steps: [{step: s, type: say, message: "See you!"}]
  list_skills:
    description: tell the user what i can do
    steps: [{step: s, type: say, message: "I book cars and hotels."}]
  out_of_scope:
    description: for requests we have no flow for; should not respond to greetings
    steps: [{step: s, type: say, message: "I can't do that."}]
  search_hotel:
    description: search for hotels
    trigger: {intents: ["search hotel"]}
    slots: [{name: city, type: text}]
    steps: [{step: ask, type: collect, slot: city, message: "In which city?"}]
`

// TestProjectFlowsWinOverSmallTalk: a project's own flows for a
// greeting, a goodbye and "what can you do" answer them, not soni's
// built-in small talk and help; a flow whose description only mentions
// greetings does not; thanks and other small talk stay built in.
func TestProjectFlowsWinOverSmallTalk(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("talk.yaml", []byte(talkFlowsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"hi", nil, "hi", "start_flow welcome", true},
		{"hello there", nil, "hello there", "start_flow welcome", true},
		{"bye", nil, "bye", "start_flow goodbye", true},
		{"thanks bye is a goodbye", nil, "ok thanks, bye", "start_flow goodbye", true},
		{"what can you do", nil, "what can you do?", "start_flow list_skills", true},
		{"help", nil, "help", "start_flow list_skills", true},
		{"thanks stays small talk", nil, "thanks!", "chitchat (thanks)", true},
		{"a joke stays small talk", nil, "tell me a joke", "chitchat", true},
		{"bye during a question", []string{"search hotel"}, "bye", "start_flow goodbye", false},
	})

	// Without such flows, the built-in small talk and help answer; two
	// flows that both say goodbye leave it to the built-in small talk.
	res = compiler.CompileSource("talk.yaml", []byte(`version: "1.0"
flows:
  farewell_user:
    description: say goodbye to the user
    steps: [{step: s, type: say, message: "Bye!"}]
  goodbye:
    description: end the chat
    steps: [{step: s, type: say, message: "See you!"}]
  search_hotel:
    description: search for hotels
    trigger: {intents: ["search hotel"]}
    steps: [{step: s, type: say, message: "Searching."}]
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"hi with no greeting flow", nil, "hi", "chitchat (greet)", true},
		{"help with no skills flow", nil, "what can you do?", "help", true},
		{"two goodbye flows", nil, "bye", "chitchat (goodbye)", true},
	})
}

// TestProjectHandoffFlowWins: a project's own flow for talking to a
// person, named so, answers a request for a person instead of the
// built-in handoff, before and during a question; a flow whose
// description only mentions a person does not.
func TestProjectHandoffFlowWins(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("handoff.yaml", []byte(`version: "1.0"
flows:
  flow_speak_with_human:
    description: This flow is used to speak with a representative
    steps: [{step: s, type: say, message: "Putting you through."}]
  send_payment:
    description: send a payment to another person
    trigger: {intents: ["send a payment"]}
    slots: [{name: payee, type: text}]
    steps: [{step: ask, type: collect, slot: payee, message: "Who gets it?"}]
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"speak to a human", nil, "let me speak to a human", "start_flow flow_speak_with_human", true},
		{"a real agent", nil, "can I talk to a real agent please", "start_flow flow_speak_with_human", true},
		{"a person during a question", []string{"send a payment"}, "let me talk to a person", "start_flow flow_speak_with_human", true},
	})

	res = compiler.CompileSource("handoff.yaml", []byte(`version: "1.0"
flows:
  send_payment:
    description: send a payment to another person
    trigger: {intents: ["send a payment"]}
    steps: [{step: s, type: say, message: "Sent."}]
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"no handoff flow", nil, "let me speak to a human", "human_handoff", true},
	})
}

// TestProjectBotFlowAnswersWhoIsThere: a question whether the user talks
// to a bot or a person starts the project's bot flow, named so, not its
// handoff flow; a request for a person still starts the handoff flow,
// and a question with such a lead about something else is no bot
// question.
func TestProjectBotFlowAnswersWhoIsThere(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("bot.yaml", []byte(`version: "1.0"
flows:
  bot_challenge:
    description: tell the user they talk to an assistant
    steps: [{step: s, type: say, message: "I'm a virtual assistant."}]
  speak_with_human:
    description: put the user through to the team
    steps: [{step: s, type: say, message: "Putting you through."}]
  open_account:
    description: open a savings account
    trigger: {intents: ["open an account"]}
    slots: [{name: owner, type: text}]
    steps: [{step: ask, type: collect, slot: owner, message: "Whose account is it?"}]
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"a real person?", nil, "is this a real person?", "start_flow bot_challenge", true},
		{"a bot?", nil, "am I chatting with a bot?", "start_flow bot_challenge", true},
		{"during a question", []string{"open an account"}, "are you a robot?", "start_flow bot_challenge", false},
		{"a person, asked for", nil, "let me talk to a person", "start_flow speak_with_human", true},
	})
}
