package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/vm"
)

// TestSmallModelNoise: the forms small models write instead of the
// grammar, and the mistakes they make, are read as they were meant
// (issue 18, §3): name case, Rasa's older forms, comments, a flow one
// letter off (repaired, and said in the notes), placeholder values, set
// lines of a start that was dropped, set lines before their start, a yes
// or no to a yes/no question, and set slot of a set slot at a
// confirmation.
func TestSmallModelNoise(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{Actions: vm.ActionFunc(func(context.Context, vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"balance": 9000.0, "currency": "EUR", "reference": "R1"}, nil
	})})
	require.NoError(t, err)
	turn := func(st *vm.State, cmds ...vm.Command) *vm.State {
		res, err := m.Turn(context.Background(), st, vm.Input{Commands: cmds})
		require.NoError(t, err)
		return res.State
	}
	idle := m.NewState("s")
	asking := turn(idle, vm.Command{Kind: vm.CmdStartFlow, Flow: "transfer_funds"})
	confirming := turn(idle, vm.Command{Kind: vm.CmdStartFlow, Flow: "transfer_funds", Slots: []vm.SlotValue{{Slot: "recipient", Value: "Ana"}, {Slot: "amount", Value: 50}, {Slot: "account_type", Value: "checking"}}})
	require.Equal(t, vm.PendingConfirm, confirming.Pending.Kind)
	blocking := turn(turn(idle, vm.Command{Kind: vm.CmdStartFlow, Flow: "lost_card", Slots: []vm.SlotValue{{Slot: "card_last4", Value: "4821"}}}), vm.Command{Kind: vm.CmdAffirm})
	require.Equal(t, "wants_replacement", blocking.Pending.Slot)

	start := func(flow string, slots ...vm.SlotValue) vm.Command {
		return vm.Command{Kind: vm.CmdStartFlow, Flow: flow, Slots: slots}
	}
	tests := []struct {
		name   string
		st     *vm.State
		answer string
		want   []vm.Command
		note   string
	}{
		{"name case", idle, "start flow Transfer_Funds", []vm.Command{start("transfer_funds")}, ""},
		{"start_flow keyword", idle, "start_flow transfer_funds", []vm.Command{start("transfer_funds")}, ""},
		{"StartFlow call", idle, "StartFlow(transfer_funds)", []vm.Command{start("transfer_funds")}, ""},
		{"SetSlot call", asking, "SetSlot(recipient, Ana)", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, ""},
		{"CancelFlow call", asking, "CancelFlow()", []vm.Command{{Kind: vm.CmdCancelFlow}}, ""},
		{"a comment after a line", idle, "start flow check_balance  # the user asks for the balance", []vm.Command{start("check_balance")}, ""},
		{"a flow one letter off", idle, "start flow transfer_fund", []vm.Command{start("transfer_funds")}, `flow "transfer_fund" repaired to "transfer_funds"`},
		{"two flows one letter off", idle, "start flow xx", []vm.Command{{Kind: vm.CmdFallback}}, `unknown flow "xx"`},
		{"placeholder values mean no value", asking, "set slot recipient None\nset slot amount null", []vm.Command{{Kind: vm.CmdFallback}}, `value "None" is a placeholder`},
		{"placeholder in a start", idle, "start flow transfer_funds\nset slot recipient ?\nset slot amount 40", []vm.Command{start("transfer_funds", vm.SlotValue{Slot: "amount", Value: 40.0})}, "placeholder"},
		{"a dropped start drops its slots", asking, "start flow wire_money\nset slot amount 50", []vm.Command{{Kind: vm.CmdFallback}}, "its flow was not started"},
		{"set before start", idle, "set slot amount 50\nstart flow transfer_funds\nset slot recipient Bob", []vm.Command{start("transfer_funds", vm.SlotValue{Slot: "amount", Value: 50.0}, vm.SlotValue{Slot: "recipient", Value: "Bob"})}, ""},
		{"affirm at a yes/no question", blocking, "affirm", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "wants_replacement", Value: true}}, ""},
		{"deny at a yes/no question", blocking, "deny", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "wants_replacement", Value: false}}, ""},
		{"set slot of a set slot at a confirmation corrects it", confirming, "set slot amount 60", []vm.Command{{Kind: vm.CmdCorrectSlot, Slot: "amount", Value: 60.0}}, ""},
		{"help", idle, "help", []vm.Command{{Kind: vm.CmdHelp}}, ""},
		{"slot=value", asking, "set slot recipient=Ana", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, ""},
		{"slot: value", asking, "set_slot recipient: \"Ana Gómez\"", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana Gómez"}}, ""},
		{"keyword and colon", idle, "start flow: check_balance", []vm.Command{start("check_balance")}, ""},
		// Issue 27 §3: a slot name in another case, a remark after the
		// command, a slot name closest to one slot of the flow.
		{"slot name case", asking, "set slot Recipient Ana", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, `slot "Recipient" is, in its own case, "recipient"`},
		{"slot name upper case in a start", idle, "start flow transfer_funds\nset slot AMOUNT 40", []vm.Command{start("transfer_funds", vm.SlotValue{Slot: "amount", Value: 40.0})}, `"AMOUNT" is, in its own case, "amount"`},
		{"a remark in parentheses", asking, "set slot amount 50 (from the user's message)", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "amount", Value: 50.0}}, ""},
		{"a remark in parentheses after a start", idle, "start flow check_balance (the user asks about money)", []vm.Command{start("check_balance")}, ""},
		{"a remark after a dash", asking, "set slot recipient Ana - the user named her", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, ""},
		{"a remark after a long dash", idle, "start flow check_balance — the user wants the balance", []vm.Command{start("check_balance")}, ""},
		{"a hyphen inside a value stays", asking, "set slot recipient Jean-Luc", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Jean-Luc"}}, ""},
		{"a slot name closest to one slot of the flow", asking, "set slot transfer_amount 50", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "amount", Value: 50.0}}, `slot "transfer_amount" repaired, the one slot of flow "transfer_funds" that close, to "amount"`},
		{"a misspelt slot name", asking, "set slot recipent Ana", []vm.Command{{Kind: vm.CmdSetSlot, Slot: "recipient", Value: "Ana"}}, `repaired, the one slot of flow "transfer_funds" that close, to "recipient"`},
		{"a slot name close to one slot of the flow it starts", idle, "start flow transfer_funds\nset slot recipientName Bob", []vm.Command{start("transfer_funds", vm.SlotValue{Slot: "recipient", Value: "Bob"})}, `"recipientName" repaired`},
		// The noisy oracle (issue 27): a slot name in words, its value
		// after it; a value with its currency, a date in words.
		{"a slot name in words", confirming, "set slot account type savings", []vm.Command{{Kind: vm.CmdCorrectSlot, Slot: "account_type", Value: "savings"}}, `slot "account_type" written in words, value "savings"`},
		{"a slot name in words and in another case", idle, "start flow Transfer Funds\nset slot Account Type “checking”\nset slot amount 50 euros", []vm.Command{start("transfer_funds", vm.SlotValue{Slot: "account_type", Value: "checking"}, vm.SlotValue{Slot: "amount", Value: 50.0})}, `written in words`},
		{"a slot name in words, to its value", confirming, "set slot account type to savings", []vm.Command{{Kind: vm.CmdCorrectSlot, Slot: "account_type", Value: "savings"}}, `written in words`},
		{"words that name no slot", asking, "set slot weather is sunny", []vm.Command{{Kind: vm.CmdFallback}}, `slot "weather" is not one flow "transfer_funds" can see`},
		{"a slot name close to no slot", asking, "set slot weather sunny", []vm.Command{{Kind: vm.CmdFallback}}, `slot "weather" is not one flow "transfer_funds" can see`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raws, _ := ParseCommands(tt.answer)
			got, notes := Validate(raws, m.View(tt.st))
			assert.Equal(t, tt.want, got)
			if tt.note != "" {
				assert.Contains(t, strings.Join(notes, "\n"), tt.note)
			}
		})
	}

	// A set slot at a confirmation runs the checks a correction runs: the
	// bank's pattern_correction asks first, and on yes the flow goes back
	// to where the slot was collected and confirms again.
	raws, _ := ParseCommands("set slot amount 60")
	cmds, _ := Validate(raws, m.View(confirming))
	res, err := m.Turn(context.Background(), confirming, vm.Input{Commands: cmds})
	require.NoError(t, err)
	assert.Equal(t, []string{"Do you want to update the amount to 60?"}, res.Replies)
	raws, _ = ParseCommands("affirm")
	cmds, _ = Validate(raws, m.View(res.State))
	res, err = m.Turn(context.Background(), res.State, vm.Input{Commands: cmds})
	require.NoError(t, err)
	assert.Equal(t, []string{"Send 60 from your checking account to Ana?"}, res.Replies)
}
