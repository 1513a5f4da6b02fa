package vm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

// guardProgram has three flows a message about booking could start; the
// lounge is for gold customers only (if: tier == "gold").
func guardProgram() *ir.Program {
	lounge := flow("lounge", nil, say("s", "Lounge booked."))
	lounge.Description = "Book the lounge"
	lounge.If = ex(`tier == "gold"`)
	room := flow("room", nil, say("s", "Room booked."))
	room.Description = "Book a room"
	suite := flow("suite", nil, say("s", "Suite booked."))
	suite.Description = "Book a suite"
	p := program([]*ir.Slot{{Name: "tier", Type: ir.TypeText}}, nil, lounge, room, suite)
	p.Settings = ir.DefaultSettings()
	return p
}

// TestGuardedFlowIsAbsentForTheUnderstanding: a flow whose guard does not
// hold is, for the understanding layer, as if it did not exist: the view
// says it cannot start (a model's prompt leaves it out), and a
// clarification the understanding asks for never offers it: with one
// flow left, that flow starts; with two, only they are offered. Before,
// "Did you mean Book the lounge or Book a room?" offered the lounge to a
// customer who could not book it.
func TestGuardedFlowIsAbsentForTheUnderstanding(t *testing.T) {
	var offer []string
	var seen View
	u := understandFunc(func(_ context.Context, _ string, v View) ([]Command, error) {
		seen = v
		return []Command{{Kind: CmdClarify, Flows: offer}}, nil
	})
	m := newMachine(t, guardProgram(), Options{Understander: u})
	turn := func(st *State) *Result {
		t.Helper()
		res, err := m.Turn(context.Background(), st, Input{Text: "I want to book"})
		require.NoError(t, err)
		return res
	}

	offer = []string{"lounge", "room"}
	res := turn(m.NewState("s"))
	require.NotNil(t, seen.CanStart)
	assert.False(t, seen.CanStart("lounge"), "the guard does not hold")
	assert.True(t, seen.CanStart("room"))
	assert.Equal(t, []string{"Room booked."}, res.Replies, "the only flow left starts")
	assert.NotContains(t, allEventTypes(res), "flow_started pattern_clarification")

	offer = []string{"lounge", "room", "suite"}
	res = turn(m.NewState("s"))
	assert.Equal(t, []string{"Did you mean Book a room or Book a suite?"}, res.Replies)
	assert.Equal(t, []string{"room", "suite"}, res.State.Clarify)

	offer = []string{"lounge", "lounge"}
	res = turn(m.NewState("s"))
	assert.Equal(t, []string{"How can I help?"}, res.Replies, "nothing left: not understood")

	// For a gold customer the lounge is there.
	st := m.NewState("s")
	st.Slots["tier"] = "gold"
	offer = []string{"lounge", "room"}
	res = turn(st)
	assert.True(t, seen.CanStart("lounge"))
	assert.Equal(t, []string{"Did you mean Book the lounge or Book a room?"}, res.Replies)
}
