package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

// tripMachine runs a flow whose first step branches on the conversation
// slot city; the project's pattern_chitchat sets the city (a pattern as a
// writer).
func tripMachine(t *testing.T) *Machine {
	p := program([]*ir.Slot{{Name: "city", Type: ir.TypeText}}, nil,
		flow("trip", []*ir.Slot{{Name: "nights", Type: ir.TypeInteger}},
			branch("pick", "city", "Oslo", "cold", "default", "mild"),
			say("cold", "Cold in {city}.").To("ask"),
			say("mild", "Mild in {city}."),
			collect("ask", "nights", "Nights?"),
			say("done", "{nights} nights in {city}."),
		),
		flow(ir.PatternChitchat, nil,
			set("move", "city", "Lima"),
			say("hi", "Hi."),
		),
	)
	return newMachine(t, p, Options{})
}

// TestDecisionsFollowTheirInputs pins language.md §6.10: a flow records
// the conversation slots its decisions read, and a change made while it
// waits, or a correction, sends it back to the first step that read the
// slot.
func TestDecisionsFollowTheirInputs(t *testing.T) {
	m := tripMachine(t)
	st := do(t, m, m.NewState("s"), setSlot("city", "Oslo")).State
	res := do(t, m, st, start("trip"))
	require.Equal(t, []string{"Cold in Oslo.", "Nights?"}, res.Replies)
	require.Equal(t, []Use{{Slot: "city", Step: "pick", Value: "Oslo"}}, res.State.Stack[0].Uses)
	waiting := res.State

	t.Run("a correction of a slot the flow only read goes back to the read", func(t *testing.T) {
		res := do(t, m, waiting, correct("city", "Rome"))
		assert.Equal(t, []string{"Mild in Rome.", "Nights?"}, res.Replies)
		assert.Equal(t, []Use{{Slot: "city", Step: "pick", Value: "Rome"}}, res.State.Stack[0].Uses, "the reads of the steps run again are new")
	})
	t.Run("a set_slot of a slot the flow read is a correction", func(t *testing.T) {
		res := do(t, m, waiting, setSlot("city", "Rome"))
		assert.Equal(t, []string{"Mild in Rome.", "Nights?"}, res.Replies)
		assert.Contains(t, allEventTypes(res), "flow_started pattern_correction")
	})
	t.Run("a pattern that changes the slot is a writer", func(t *testing.T) {
		res := do(t, m, waiting, Command{Kind: CmdChitchat})
		assert.Equal(t, []string{"Hi.", "Mild in Lima.", "Nights?"}, res.Replies)
		assert.Contains(t, allEventTypes(res), "flow_started pattern_correction")
		assert.Contains(t, res.Trace, `flow trip: slot city changed from "Oslo" to "Lima" while the flow waited, and its step pick read it: a correction`)
		assert.Equal(t, "Lima", res.State.Slots["city"])
	})
	t.Run("the flow's own write is no correction", func(t *testing.T) {
		res := do(t, m, waiting, setSlot("nights", 2))
		assert.Equal(t, []string{"2 nights in Oslo."}, res.Replies)
		assert.NotContains(t, allEventTypes(res), "flow_started pattern_correction")
	})
	t.Run("a hand-built state's uses of unknown slots and steps are harmless", func(t *testing.T) {
		st := waiting.Clone()
		st.Stack[0].Uses = append(st.Stack[0].Uses, Use{Slot: "nights", Step: "nowhere", Value: int64(1)}, Use{Slot: "ghost", Step: "pick", Value: "x"})
		res := do(t, m, st, correct("city", "Rome"))
		assert.Equal(t, []string{"Mild in Rome.", "Nights?"}, res.Replies)
	})
	t.Run("a slot unset when read is filled, not corrected", func(t *testing.T) {
		st := waiting.Clone()
		st.Stack[0].Uses[0].Value = nil
		res := do(t, m, st, Command{Kind: CmdChitchat})
		assert.Equal(t, []string{"Hi.", "Nights?"}, res.Replies)
		assert.Equal(t, "Lima", res.State.Stack[0].Uses[0].Value)
	})
}
