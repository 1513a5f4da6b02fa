package vm

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

// TestAskAction checks a collect whose question an action asks
// (ask_action): the action runs each time the question is asked (first,
// after an invalid answer, when the flow comes back to it), what it says
// is the question, and when it fails the collect's message asks instead,
// or, without one, the flow ends as for a failing action step.
func TestAskAction(t *testing.T) {
	lo := 1.0
	asks := 0
	reg := &Registry{}
	reg.Register("ask_qty", func(_ context.Context, req ActionRequest) (map[string]any, error) {
		asks++
		req.Say(ActionMessage{Text: fmt.Sprintf("How many? (%d)", asks), Buttons: []ir.Button{{Title: "One", Payload: "1"}}})
		return map[string]any{"ignored": true}, nil
	})
	reg.Register("ask_by_name", func(_ context.Context, req ActionRequest) (map[string]any, error) {
		req.Say(ActionMessage{Response: "utter_qty"})
		return nil, nil
	})
	reg.Register("ask_fails", func(context.Context, ActionRequest) (map[string]any, error) {
		return nil, errors.New("backend down")
	})
	mk := func(ask *sb, more ...*ir.Flow) *Machine {
		p := program(nil, nil, append([]*ir.Flow{flow("f", []*ir.Slot{{Name: "qty", Type: ir.TypeInteger, Min: &lo}},
			ask, say("done", "{qty} it is"))}, more...)...)
		p.Responses = []*ir.Response{{Name: "utter_qty", Variations: []*ir.Variation{{Text: tpl("How many, {name}?")}}}}
		p.Slots = []*ir.Slot{{Name: "name", Type: ir.TypeText, Initial: "Ana"}}
		return newMachine(t, p, Options{Actions: reg})
	}
	asking := func(action, msg string) *sb {
		s := collect("ask", "qty", msg).With(func(n *ir.Node) { n.AskAction = action })
		if msg == "" {
			s.N.Message = nil
		}
		return s
	}

	t.Run("the action asks, and again after an invalid answer", func(t *testing.T) {
		asks = 0
		m := mk(asking("ask_qty", ""))
		res := do(t, m, m.NewState("s"), start("f"))
		assert.Equal(t, []string{"How many? (1)"}, res.Replies)
		assert.Equal(t, []ir.Button{{Title: "One", Payload: "1"}}, res.Messages[0].Buttons)
		assert.Equal(t, []string{"flow_started f", "action_executed f/ask_qty"}, eventTypes(res))
		require.NotNil(t, res.State.Pending)
		assert.Equal(t, "How many? (1)", res.State.Pending.Prompt)
		assert.Empty(t, res.State.Stack[0].Slots, "the ask action's outputs set nothing")

		res = do(t, m, res.State, setSlot("qty", "none"))
		assert.Equal(t, []string{"Please give a whole number of at least 1.", "How many? (2)"}, res.Replies)
		assert.Equal(t, "How many? (2)", res.State.Pending.Prompt)
		res = do(t, m, res.State, setSlot("qty", "3"))
		assert.Equal(t, []string{"3 it is"}, res.Replies)
		assert.Equal(t, 2, asks)
	})

	t.Run("it asks again when the flow comes back to the question", func(t *testing.T) {
		asks = 0
		m := mk(asking("ask_qty", ""), flow("g", nil, say("hi", "Hello!")))
		res := do(t, m, m.NewState("s"), start("f"))
		res = do(t, m, res.State, start("g"))
		assert.Equal(t, []string{"Hello!", "How many? (2)"}, res.Replies)
	})

	t.Run("a slot that holds a valid value is not asked for", func(t *testing.T) {
		asks = 0
		m := mk(asking("ask_qty", ""))
		res := do(t, m, m.NewState("s"), start("f", SlotValue{Slot: "qty", Value: 2}))
		assert.Equal(t, []string{"2 it is"}, res.Replies)
		assert.Zero(t, asks)
	})

	t.Run("the action says a response", func(t *testing.T) {
		m := mk(asking("ask_by_name", ""))
		res := do(t, m, m.NewState("s"), start("f"))
		assert.Equal(t, []string{"How many, Ana?"}, res.Replies)
		assert.Equal(t, "utter_qty", res.Messages[0].Response)
	})

	t.Run("a failing action: the collect's message asks", func(t *testing.T) {
		m := mk(asking("ask_fails", "How many then?"))
		res := do(t, m, m.NewState("s"), start("f"))
		assert.Equal(t, []string{"How many then?"}, res.Replies)
		assert.Equal(t, []string{"flow_started f", "action_failed f/ask_fails"}, eventTypes(res))
		require.NotNil(t, res.State.Pending)
		res = do(t, m, res.State, setSlot("qty", "0"))
		assert.Equal(t, []string{"Please give a whole number of at least 1.", "How many then?"}, res.Replies)
	})

	t.Run("a failing action and no message: the flow ends as for a failing action step", func(t *testing.T) {
		m := mk(asking("ask_fails", ""))
		res := do(t, m, m.NewState("s"), start("f"))
		assert.Equal(t, []string{"Sorry, something went wrong while trying to do that."}, res.Replies)
		assert.Equal(t, []string{"flow_started f", "action_failed f/ask_fails", "flow_cancelled f"}, eventTypes(res))
		assert.Nil(t, res.State.Pending)
		assert.Empty(t, res.State.Stack)
	})

	t.Run("no runner: the same", func(t *testing.T) {
		p := program(nil, nil, flow("f", []*ir.Slot{anySlot("qty")}, asking("ask_qty", "")))
		m := newMachine(t, p, Options{})
		res := do(t, m, m.NewState("s"), start("f"))
		assert.Equal(t, []string{"flow_started f", "action_failed f/ask_qty", "flow_cancelled f"}, eventTypes(res))
	})
}

// TestAskActionOnlyOnCollect checks that New refuses an ask_action on
// another step, and a collect with neither a message nor an ask_action.
func TestAskActionOnlyOnCollect(t *testing.T) {
	s := say("hi", "Hello").With(func(n *ir.Node) { n.AskAction = "ask" })
	_, err := New(program(nil, nil, flow("f", nil, s)), Options{})
	require.ErrorContains(t, err, "say step has an ask_action: only a collect asks with an action")
	c := collect("ask", "x", "")
	c.N.Message = nil
	_, err = New(program(nil, nil, flow("f", []*ir.Slot{anySlot("x")}, c)), Options{})
	require.ErrorContains(t, err, "collect step needs a slot and a message or an ask_action")
}
