package vm

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/soni-dev/soni/ir"
)

// override is a project's flow for a pattern, with the read-only slots
// the compiler gives it, saying msg.
func override(pattern, msg string, more ...*sb) *ir.Flow {
	slots := []*ir.Slot{{Name: ir.ContextSlot, Type: ir.TypeAny}}
	for _, ps := range ir.PatternSlots[pattern] {
		slots = append(slots, &ir.Slot{Name: ps.Name, Type: ps.Type})
	}
	return flow(pattern, slots, append([]*sb{say("say", msg)}, more...)...)
}

// TestPatternContextSlots: the VM gives each pattern what it needs as
// read-only slots, by Rasa's names: pattern_correction the corrected
// slots with their old and new values, pattern_continue_interrupted the
// interrupted flow, pattern_internal_error the failed action and its
// error's class, pattern_clarification the candidate flows.
func TestPatternContextSlots(t *testing.T) {
	num := &ir.Slot{Name: "amount", Type: ir.TypeNumber}
	transfer := flow("transfer", []*ir.Slot{anySlot("who"), num},
		collect("w", "who", "Who?"), collect("a", "amount", "How much?"), confirm("c", "amount", "Send {amount} to {who}?"))
	balance := flow("balance", nil, say("b", "100."))
	balance.Description = "Check the balance"
	transfer.Description = "Send money"
	failing := func(name string) *ir.Flow {
		return flow("run_"+name, []*ir.Slot{num}, action("act", name, "amount", "amount"))
	}
	p := program(nil, []*ir.Action{{Name: "fails", Description: "Pay the bill; fails when the bank is down."}, {Name: "slow"}, {Name: "bad", Outputs: []string{"amount"}}, {Name: "missing"}},
		transfer, balance, failing("fails"), failing("slow"), failing("bad"), failing("missing"),
		override(ir.PatternCorrection, "{corrected_slot}: {old_value} to {new_value}; {corrected_slots}; {previous_slot_values}; {new_slot_values}; {corrected_slot_names}",
			action("apply", ir.ActionCorrectFlowSlot)),
		override(ir.PatternContinueInterrupted, "{previous_flow} ({previous_flow_name}) after {interrupting_flow}"),
		override(ir.PatternInternalError, "{action_name} ({action}): {error_type}"),
		override(ir.PatternClarification, "{flows}; {names}; {clarification_options}", action("offer", ir.ActionClarifyFlows)))
	reg := &Registry{}
	reg.Register("fails", func(context.Context, ActionRequest) (map[string]any, error) { return nil, errors.New("backend down") })
	reg.Register("slow", func(ctx context.Context, _ ActionRequest) (map[string]any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	reg.Register("bad", func(context.Context, ActionRequest) (map[string]any, error) {
		return map[string]any{"amount": math.NaN()}, nil
	})
	m := newMachine(t, p, Options{Actions: reg})
	// Only the action that waits for its context meets the timeout: on a
	// machine with one, an action that fails at once could still be
	// scheduled after the millisecond and be read as timed out.
	timed := newMachine(t, p, Options{Actions: reg, ActionTimeout: time.Millisecond})

	st := do(t, m, m.NewState("s"), start("transfer"), setSlot("who", "Ana"), setSlot("amount", 50)).State
	res := do(t, m, st, correct("amount", 60))
	assert.Equal(t, []string{"amount: 50 to 60; amount: 60; amount: 50; 60; amount", "Send 60 to Ana?"}, res.Replies)

	res = do(t, m, res.State, start("balance"))
	assert.Equal(t, []string{"100.", "transfer (transfer) after balance", "Send 60 to Ana?"}, res.Replies)

	// action is the task in words (the first clause of the description,
	// or "do that"), action_name the action.
	for action, class := range map[string]string{"fails": "action_failed", "slow": "action_timeout", "bad": "action_bad_output", "missing": "action_missing"} {
		on := m
		if action == "slow" {
			on = timed
		}
		task := "do that"
		if action == "fails" {
			task = "pay the bill"
		}
		res = do(t, on, on.NewState("s"), start("run_"+action))
		assert.Equal(t, []string{action + " (" + task + "): " + class}, res.Replies)
	}

	res = do(t, m, m.NewState("s"), Command{Kind: CmdClarify, Flows: []string{"transfer", "balance"}})
	assert.Equal(t, []string{"transfer, balance; transfer, balance; Send money or Check the balance"}, res.Replies)
}

// TestMessageSettingsConfigureTheDefaultPatterns: the message settings
// are shorthand for what soni's default patterns say: clarify_message
// for pattern_clarification, action_error_message for
// pattern_internal_error (language.md §17).
func TestMessageSettingsConfigureTheDefaultPatterns(t *testing.T) {
	balance := flow("balance", nil, say("b", "100."))
	balance.Description = "Check the balance"
	pay := flow("pay", nil, action("act", "fails"))
	pay.Description = "Pay a bill"
	p := program(nil, []*ir.Action{{Name: "fails", Description: "OTP check of a payment"}}, balance, pay)
	p.Settings.ClarifyMessage = "Which one: {options}?"
	p.Settings.ActionErrorMessage = "Could not {action}."
	reg := &Registry{}
	reg.Register("fails", func(context.Context, ActionRequest) (map[string]any, error) { return nil, errors.New("backend down") })
	m := newMachine(t, p, Options{Actions: reg})

	res := do(t, m, m.NewState("s"), Command{Kind: CmdClarify, Flows: []string{"balance", "pay"}})
	assert.Equal(t, []string{"Which one: Check the balance or Pay a bill?"}, res.Replies)
	assert.Contains(t, allEventTypes(res), "flow_started pattern_clarification")
	assert.Equal(t, ir.ResponseClarification, res.Message(0).Response)

	res = do(t, m, m.NewState("s"), start("pay"))
	assert.Equal(t, []string{"Could not OTP check of a payment."}, res.Replies, "an acronym keeps its capitals")
	assert.Contains(t, allEventTypes(res), "flow_started pattern_internal_error")
}
