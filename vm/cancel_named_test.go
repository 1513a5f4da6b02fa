package vm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/ir"
)

// TestCancelNamedFlow: cancel_flow with a flow's name cancels that flow
// where it is on the stack, with the flow it called and the flow that
// called it; a digression started above it stays and asks again.
func TestCancelNamedFlow(t *testing.T) {
	p := program(nil, nil,
		flow("trip", []*ir.Slot{anySlot("to")}, collect("ask", "to", "Where to?"), call("c", "details"), say("done", "trip done")),
		flow("details", []*ir.Slot{anySlot("who")}, collect("ask", "who", "Who travels?"), say("done", "details done")),
		flow("room", []*ir.Slot{anySlot("city")}, collect("ask", "city", "Which city?"), say("done", "room in {city}")),
	)
	m := newMachine(t, p, Options{})
	cancelOf := func(flow string) Command { return Command{Kind: CmdCancelFlow, Flow: flow} }

	tests := []struct {
		name      string
		setup     []Command
		cmd       Command
		replies   []string
		stack     []string
		cancelled []string
	}{
		{
			name:      "a flow under a digression, with the flow it called",
			setup:     []Command{start("trip"), setSlot("to", "Rome"), start("room")},
			cmd:       cancelOf("trip"),
			replies:   []string{"Okay, I've cancelled that.", "Which city?"},
			stack:     []string{"room.ask"},
			cancelled: []string{"flow_cancelled details", "flow_cancelled trip"},
		},
		{
			name:      "the called flow named cancels its caller",
			setup:     []Command{start("trip"), setSlot("to", "Rome"), start("room")},
			cmd:       cancelOf("details"),
			replies:   []string{"Okay, I've cancelled that.", "Which city?"},
			stack:     []string{"room.ask"},
			cancelled: []string{"flow_cancelled details", "flow_cancelled trip"},
		},
		{
			name:      "the flow on top is cancelled as by a cancel_flow with no name",
			setup:     []Command{start("trip"), start("room")},
			cmd:       cancelOf("room"),
			replies:   []string{"Okay, I've cancelled that.", "Where to?"},
			stack:     []string{"trip.ask"},
			cancelled: []string{"flow_cancelled room"},
		},
		{
			name:    "a flow not on the stack is nothing to cancel: the question is asked again",
			setup:   []Command{start("room")},
			cmd:     cancelOf("trip"),
			replies: []string{"Which city?"},
			stack:   []string{"room.ask"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := m.NewState("s")
			for _, c := range tt.setup {
				st = do(t, m, st, c).State
			}
			res := do(t, m, st, tt.cmd)
			assert.Equal(t, tt.replies, res.Replies)
			assert.Equal(t, tt.stack, stackOf(res.State))
			var cancelled []string
			for _, e := range eventTypes(res) {
				if strings.HasPrefix(e, "flow_cancelled ") {
					cancelled = append(cancelled, e)
				}
			}
			assert.Equal(t, tt.cancelled, cancelled)
		})
	}
}
