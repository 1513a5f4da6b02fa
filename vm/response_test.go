package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

// respProgram says the response "r" from flow f.
func respProgram(vars ...*ir.Variation) *ir.Program {
	p := program([]*ir.Slot{{Name: "tier", Type: ir.TypeText}, {Name: "language", Type: ir.TypeText}}, nil,
		flow("f", nil, step("s", ir.KindSay).With(func(n *ir.Node) { n.Message = &ir.Template{Response: "r"} })))
	p.Responses = []*ir.Response{{Name: "r", Variations: vars}}
	return p
}

func tx(s string) *ir.Template { return &ir.Template{Src: s} }

// TestVariationsAreChosenByTheSessionAndRevision: among variations with
// no condition, the hash of the session and the revision picks one, the
// same one every time; different sessions see different ones.
func TestVariationsAreChosenByTheSessionAndRevision(t *testing.T) {
	m := newMachine(t, respProgram(&ir.Variation{Text: tx("one")}, &ir.Variation{Text: tx("two")}, &ir.Variation{Text: tx("three")}), Options{})
	seen := map[string]bool{}
	for _, session := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		first := do(t, m, m.NewState(session), start("f"))
		again := do(t, m, m.NewState(session), start("f"))
		require.Len(t, first.Replies, 1)
		assert.Equal(t, first.Replies, again.Replies, "session %s", session)
		assert.Equal(t, "r", first.Message(0).Response)
		seen[first.Replies[0]] = true
	}
	assert.Greater(t, len(seen), 1, "eight sessions all got the same variation")
}

// TestVariationConditionsChannelsAndTranslations: the first variation
// whose condition holds wins; a channel's variations are preferred on
// that channel; the session's language picks a translation; a response
// whose variations all have conditions that fail says nothing.
func TestVariationConditionsChannelsAndTranslations(t *testing.T) {
	m := newMachine(t, respProgram(
		&ir.Variation{Text: tx("gold {tier}"), Condition: []ir.SlotCondition{{Slot: "tier", Value: "gold"}}},
		&ir.Variation{Text: tx("no tier"), Condition: []ir.SlotCondition{{Slot: "tier", Value: nil}}},
		&ir.Variation{Text: tx("hello"), Translation: map[string]*ir.Template{"es": tx("hola")}, Buttons: []ir.Button{{Title: "Hi", Payload: "/greet"}}},
		&ir.Variation{Text: tx("widget hello"), Channel: "widget", Custom: map[string]any{"x": 1.0}},
	), Options{})
	st := m.NewState("s")
	res := do(t, m, st, start("f"))
	assert.Equal(t, []string{"no tier"}, res.Replies)

	st = m.NewState("s")
	st.Slots["tier"] = "gold"
	res = do(t, m, st, start("f"))
	assert.Equal(t, []string{"gold gold"}, res.Replies)

	st = m.NewState("s")
	st.Slots["tier"] = "basic"
	res = do(t, m, st, start("f"))
	assert.Equal(t, []Utterance{{Text: "hello", Response: "r", Buttons: []ir.Button{{Title: "Hi", Payload: "/greet"}}}}, res.Messages)

	st.Slots["language"] = "es-MX"
	res = do(t, m, st, start("f"))
	assert.Equal(t, []string{"hola"}, res.Replies, "es-MX falls back to es")

	res, err := m.Turn(t.Context(), st, Input{Commands: []Command{start("f")}, Channel: "widget"})
	require.NoError(t, err)
	assert.Equal(t, []Utterance{{Text: "widget hello", Response: "r", Custom: map[string]any{"x": 1.0}}}, res.Messages)

	only := newMachine(t, respProgram(&ir.Variation{Text: tx("gold"), Condition: []ir.SlotCondition{{Slot: "tier", Value: "gold"}}}), Options{})
	res = do(t, only, only.NewState("s"), start("f"))
	assert.Equal(t, []string{"How can I help?"}, res.Replies, "nothing fits: the response says nothing, and the idle message follows")
	assert.Contains(t, res.Trace, "f.s: response r: no variation fits this turn (its conditions or channels), so nothing is said")
}

// TestSessionLanguage: the session's language is the language slot when
// it holds text, else the message metadata's language, else the
// project's language setting; a language with no translation says the
// text as written.
func TestSessionLanguage(t *testing.T) {
	p := respProgram(&ir.Variation{Text: tx("hello"), Translation: map[string]*ir.Template{"es": tx("hola"), "fr": tx("bonjour")}})
	p.Settings.Language = "es"
	m := newMachine(t, p, Options{})
	turn := func(slot string, meta map[string]any) []string {
		t.Helper()
		st := m.NewState("s")
		if slot != "" {
			st.Slots["language"] = slot
		}
		res, err := m.Turn(t.Context(), st, Input{Commands: []Command{start("f")}, Metadata: meta})
		require.NoError(t, err)
		return res.Replies
	}
	assert.Equal(t, []string{"hola"}, turn("", nil), "the project's default")
	assert.Equal(t, []string{"bonjour"}, turn("", map[string]any{"language": "fr"}), "the metadata over the default")
	assert.Equal(t, []string{"hello"}, turn("en", map[string]any{"language": "fr"}), "the slot over the metadata; no translation into en")
	assert.Equal(t, []string{"hola"}, turn("es-ES", nil))
}

// TestRefusedValueIsShownSafely: {value} shows the refused input with its
// control characters escaped, cut to 80 bytes, never read as a template.
func TestRefusedValueIsShownSafely(t *testing.T) {
	assert.Equal(t, "{amount}", refused("{amount}"))
	assert.Equal(t, `a b\x00c`, refused("a\nb\x00c"))
	long := refused(string(make([]byte, 0)) + "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890")
	assert.Equal(t, "01234567890123456789012345678901234567890123456789012345678901234567890123456789…", long)
}

// TestAPatternReadsTheSlotsOfTheFlowItInterrupted: a message setting may
// name a flow's slot; said by a pattern on top of that flow, it shows the
// flow's value.
func TestAPatternReadsTheSlotsOfTheFlowItInterrupted(t *testing.T) {
	p := program(nil, nil, flow("trip", []*ir.Slot{{Name: "city", Type: ir.TypeText}, {Name: "day", Type: ir.TypeText}},
		collect("c", "city", "Where to?"), collect("d", "day", "When?")))
	p.Settings.FallbackMessage = "Sorry, I didn't get the day of your trip to {city}."
	m := newMachine(t, p, Options{})
	st := do(t, m, m.NewState("s"), start("trip"), setSlot("city", "Rome")).State
	res := do(t, m, st, fallback)
	assert.Equal(t, []string{"Sorry, I didn't get the day of your trip to Rome.", "When?"}, res.Replies)
}
