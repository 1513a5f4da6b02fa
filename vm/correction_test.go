package vm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
)

// correctionFlow collects an amount, checks the funds with an action,
// decides with a branch, computes a fee with a set, and confirms. checks
// counts the funds checks.
func correctionFlow(t *testing.T, checks *int) *Machine {
	amount := &ir.Slot{Name: "amount", Type: ir.TypeNumber, Max: ptrF(100)}
	p := program([]*ir.Slot{{Name: "tier", Type: ir.TypeText}}, nil,
		flow("send", []*ir.Slot{{Name: "to", Type: ir.TypeText}, amount, {Name: "fee", Type: ir.TypeNumber}, {Name: "ok", Type: ir.TypeBoolean}},
			collect("ask_to", "to", "To whom?"),
			collect("ask_amount", "amount", "How much?"),
			action("check", "funds", "ok", "ok"),
			branch("decide", "ok", "false", "short"),
			set("fee", "fee", "=amount / 10"),
			confirm("confirm", "amount", "Send {amount} to {to}, fee {fee}?"),
			say("done", "Sent.").To(ir.EndStep),
			say("short", "Not enough money for {amount}."),
		))
	return newMachine(t, p, Options{Actions: ActionFunc(func(_ context.Context, req ActionRequest) (map[string]any, error) {
		*checks++
		a, _ := req.Inputs["amount"].(float64)
		return map[string]any{"ok": a <= 50}, nil
	})})
}

func ptrF(f float64) *float64 { return &f }

// TestCorrectionGoesBackToTheCollect pins language.md §11: a correction of
// a slot the top flow collected resumes the flow at that collect step, so
// actions run again, branches decide anew and sets recompute.
func TestCorrectionGoesBackToTheCollect(t *testing.T) {
	checks := 0
	m := correctionFlow(t, &checks)
	st := do(t, m, m.NewState("s"), start("send")).State
	st = do(t, m, st, setSlot("to", "Ana")).State
	res := do(t, m, st, setSlot("amount", 10))
	require.Equal(t, []string{"Send 10 to Ana, fee 1?"}, res.Replies)
	require.Equal(t, 1, checks)

	t.Run("the action runs again and the branch decides anew", func(t *testing.T) {
		checks = 1
		res := do(t, m, res.State, correct("amount", 80))
		assert.Equal(t, []string{"Not enough money for 80."}, res.Replies)
		assert.Equal(t, 2, checks, "the funds check ran again")
		assert.Contains(t, eventTypes(res), "flow_completed send")
	})
	t.Run("a set recomputes", func(t *testing.T) {
		checks = 1
		res := do(t, m, res.State, correct("amount", 20))
		assert.Equal(t, []string{"Send 20 to Ana, fee 2?"}, res.Replies)
		assert.Equal(t, 2, checks)
	})
	t.Run("an invalid correction changes nothing", func(t *testing.T) {
		checks = 1
		res := do(t, m, res.State, correct("amount", 500)) // max 100
		assert.Equal(t, []string{"Please give a number of at most 100.", "Send 10 to Ana, fee 1?"}, res.Replies)
		assert.Equal(t, 1, checks, "nothing ran again")
		v, _ := res.State.Stack[0].Slots["amount"].(float64)
		assert.Equal(t, 10.0, v)
	})
	t.Run("a correction to the same value changes nothing", func(t *testing.T) {
		checks = 1
		res := do(t, m, res.State, correct("amount", 10))
		assert.Equal(t, []string{"Send 10 to Ana, fee 1?"}, res.Replies)
		assert.Equal(t, 1, checks)
	})
	t.Run("a slot the flow does not collect is set and the question asked again", func(t *testing.T) {
		checks = 1
		res := do(t, m, res.State, correct("tier", "gold"))
		assert.Equal(t, []string{"Send 10 to Ana, fee 1?"}, res.Replies)
		assert.Equal(t, 1, checks)
		assert.Equal(t, "gold", res.State.Slots["tier"])
	})
	t.Run("an earlier slot goes back further", func(t *testing.T) {
		checks = 1
		res := do(t, m, res.State, correct("to", "Bob"))
		assert.Equal(t, []string{"Send 10 to Bob, fee 1?"}, res.Replies)
		assert.Equal(t, 2, checks, "every step after ask_to ran again")
	})
}

// TestCorrectionBeforeTheCollect: a correction of a slot whose collect the
// flow has not reached yet only sets it; the collect is then skipped.
func TestCorrectionBeforeTheCollect(t *testing.T) {
	checks := 0
	m := correctionFlow(t, &checks)
	st := do(t, m, m.NewState("s"), start("send")).State
	res := do(t, m, st, correct("amount", 30))
	assert.Equal(t, []string{"To whom?"}, res.Replies)
	res = do(t, m, res.State, setSlot("to", "Ana"))
	assert.Equal(t, []string{"Send 30 to Ana, fee 3?"}, res.Replies, "ask_amount was skipped")
}

// TestOnInvalidEndCompletes: on_invalid: __end__ ends the flow normally
// (flow_completed, no cancel message), as every other __end__ does.
func TestOnInvalidEndCompletes(t *testing.T) {
	ask := collect("ask", "n", "Number?")
	ask.N.MaxAttempts = 1
	ask.OnInvalid = ir.EndStep
	p := program(nil, nil, flow("f", []*ir.Slot{{Name: "n", Type: ir.TypeInteger}}, ask, say("ok", "ok")))
	m := newMachine(t, p, Options{})
	st := do(t, m, m.NewState("s"), start("f")).State
	res := do(t, m, st, setSlot("n", "many"))
	assert.Equal(t, []string{"Please give a whole number."}, res.Replies, "the invalid message, and no cancel message")
	assert.Contains(t, eventTypes(res), "flow_completed f")
	assert.NotContains(t, eventTypes(res), "flow_cancelled f")
}
