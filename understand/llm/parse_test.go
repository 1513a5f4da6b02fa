package llm

import (
	"fmt"
	"testing"

	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCommands(t *testing.T) {
	tests := []struct {
		answer  string
		want    []Raw
		skipped []string
	}{
		{"start flow transfer_funds", []Raw{{Kind: "start_flow", Flow: "transfer_funds", Line: 1}}, nil},
		{"1. Start Flow transfer_funds\n2. set slot amount 100\n- SET SLOT recipient \"John Smith\"", []Raw{
			{Kind: "start_flow", Flow: "transfer_funds", Line: 1},
			{Kind: "set_slot", Slot: "amount", Value: "100", Line: 2},
			{Kind: "set_slot", Slot: "recipient", Value: "John Smith", Line: 3},
		}, nil},
		{"Sure! Here are the commands:\n* correct slot recipient Maria\n* affirm.\nHope this helps", []Raw{
			{Kind: "correct_slot", Slot: "recipient", Value: "Maria", Line: 2},
			{Kind: "affirm", Line: 3},
		}, []string{"Sure! Here are the commands:", "Hope this helps"}},
		{"```\ncancel flow\n```", []Raw{{Kind: "cancel_flow", Line: 2}}, nil},
		{"cancel flow book_flight\nCancelFlow(book_hotel)", []Raw{{Kind: "cancel_flow", Flow: "book_flight", Line: 1}, {Kind: "cancel_flow", Flow: "book_hotel", Line: 2}}, nil},
		{"clarify check_balance transfer_funds\nhuman handoff\nchitchat\nfallback\ndeny", []Raw{
			{Kind: "clarify", Flows: []string{"check_balance", "transfer_funds"}, Line: 1},
			{Kind: "human_handoff", Line: 2}, {Kind: "chitchat", Line: 3}, {Kind: "fallback", Line: 4}, {Kind: "deny", Line: 5},
		}, nil},
		// A remark after a command: in parentheses, or after a dash.
		{"set slot amount 50 (from the user's message)\nstart flow transfer_funds - the user wants to send money\nSetSlot(amount, 50) (as said)\nset slot recipient \"Ana (my sister)\"", []Raw{
			{Kind: "set_slot", Slot: "amount", Value: "50", Line: 1},
			{Kind: "start_flow", Flow: "transfer_funds", Line: 2},
			{Kind: "set_slot", Slot: "amount", Value: "50", Line: 3},
			{Kind: "set_slot", Slot: "recipient", Value: "Ana (my sister)", Line: 4},
		}, nil},
		{"set slot amount -50\nset slot recipient (Ana)", []Raw{
			{Kind: "set_slot", Slot: "amount", Value: "-50", Line: 1},
			{Kind: "set_slot", Slot: "recipient", Value: "(Ana)", Line: 2},
		}, nil},
		{"start flow ../../etc/passwd\nset slot a;drop x\nstart flow", nil, []string{"start flow ../../etc/passwd", "set slot a;drop x", "start flow"}},
		// Small-model noise (issue 27, the noisy oracle): punctuation at
		// the end, a label before the command, names in words, values in
		// typographic quotes or backticks.
		{"start flow check_balance;\naffirm (from the user's message).\ncancel flow,", []Raw{
			{Kind: "start_flow", Flow: "check_balance", Line: 1},
			{Kind: "affirm", Line: 2},
			{Kind: "cancel_flow", Line: 3},
		}, nil},
		{"Answer: start flow lost_card\nOutput: 1. set slot amount 60\nAnswer: - deny\nCommands:\nNote: nothing else was said.", []Raw{
			{Kind: "start_flow", Flow: "lost_card", Line: 1},
			{Kind: "set_slot", Slot: "amount", Value: "60", Line: 2},
			{Kind: "deny", Line: 3},
		}, []string{"Commands:", "Note: nothing else was said."}},
		{"start flow Transfer Funds\ncancel flow book flight", []Raw{
			{Kind: "start_flow", Flow: "Transfer_Funds", Line: 1},
			{Kind: "cancel_flow", Flow: "book_flight", Line: 2},
		}, nil},
		{"set slot recipient “Ana Gómez”\nset slot description `printer offline`\nset slot note ‘it’s late’\nset slot city «Basel»", []Raw{
			{Kind: "set_slot", Slot: "recipient", Value: "Ana Gómez", Line: 1},
			{Kind: "set_slot", Slot: "description", Value: "printer offline", Line: 2},
			{Kind: "set_slot", Slot: "note", Value: "it’s late", Line: 3},
			{Kind: "set_slot", Slot: "city", Value: "Basel", Line: 4},
		}, nil},
		// "to" before a value, and several commands on one line.
		{"set slot amount to 50\ncorrect slot recipient to \"Ana Gómez\"\nset slot note \"to be honest\"", []Raw{
			{Kind: "set_slot", Slot: "amount", Value: "50", Line: 1},
			{Kind: "correct_slot", Slot: "recipient", Value: "Ana Gómez", Line: 2},
			{Kind: "set_slot", Slot: "note", Value: "to be honest", Line: 3},
		}, nil},
		{"start flow transfer_funds; set slot amount 50, set slot recipient “Ana, my sister”\nCommands: start flow book_flight, set slot origin Madrid\nset slot address 1 Main St, Springfield", []Raw{
			{Kind: "start_flow", Flow: "transfer_funds", Line: 1},
			{Kind: "set_slot", Slot: "amount", Value: "50", Line: 1},
			{Kind: "set_slot", Slot: "recipient", Value: "Ana, my sister", Line: 1},
			{Kind: "start_flow", Flow: "book_flight", Line: 2},
			{Kind: "set_slot", Slot: "origin", Value: "Madrid", Line: 2},
			{Kind: "set_slot", Slot: "address", Value: "1 Main St, Springfield", Line: 3},
		}, nil},
		{"Answer: the user is happy\nstart flow transfer funds please!", nil, []string{"Answer: the user is happy", "start flow transfer funds please!"}},
	}
	for _, tt := range tests {
		got, skipped := ParseCommands(tt.answer)
		assert.Equal(t, tt.want, got, tt.answer)
		if tt.skipped != nil {
			assert.Equal(t, tt.skipped, skipped, tt.answer)
		}
	}
}

// FuzzParseCommands: any answer parses without panicking, and every
// command it yields has a known kind and well-formed names.
func FuzzParseCommands(f *testing.F) {
	for _, s := range []string{"start flow a\nset slot b 1", "clarify a b c", "- affirm", "\"", "set slot x \"unclosed", "1) deny\r\n2) fallback"} {
		f.Add(s)
	}
	kinds := map[string]bool{"start_flow": true, "set_slot": true, "correct_slot": true, "cancel_flow": true, "affirm": true, "deny": true, "clarify": true, "chitchat": true, "human_handoff": true, "fallback": true}
	f.Fuzz(func(t *testing.T, answer string) {
		cmds, _ := ParseCommands(answer)
		for _, c := range cmds {
			if !kinds[c.Kind] {
				t.Fatalf("unknown kind %q", c.Kind)
			}
			for _, n := range append([]string{c.Flow, c.Slot}, c.Flows...) {
				if n != "" && !nameRE().MatchString(n) {
					t.Fatalf("bad name %q", n)
				}
			}
		}
	})
}

// TestFormatRoundTrip: what FormatCommands writes, ParseCommands reads
// back as the same commands.
func TestFormatRoundTrip(t *testing.T) {
	cmds := []vm.Command{
		{Kind: vm.CmdStartFlow, Flow: "transfer_funds", Slots: []vm.SlotValue{{Slot: "amount", Value: 100.0}, {Slot: "recipient", Value: "Ana María"}}},
		{Kind: vm.CmdSetSlot, Slot: "description", Value: `it says "error 42".`},
		{Kind: vm.CmdCorrectSlot, Slot: "recipient", Value: "it's Bob"},
		{Kind: vm.CmdSetSlot, Slot: "note", Value: "a `tick`"},
		{Kind: vm.CmdCancelFlow}, {Kind: vm.CmdAffirm}, {Kind: vm.CmdDeny}, {Kind: vm.CmdChitchat},
		{Kind: vm.CmdHandoff}, {Kind: vm.CmdFallback},
		{Kind: vm.CmdClarify, Flows: []string{"a", "b"}},
		{Kind: vm.CmdRepeat}, {Kind: vm.CmdSkipQuestion},
	}
	text := FormatCommands(cmds)
	raws, skipped := ParseCommands(text)
	require.Empty(t, skipped, text)
	want := []string{
		"start_flow transfer_funds", "set_slot amount 100", "set_slot recipient Ana María",
		`set_slot description it says "error 42".`, "correct_slot recipient it's Bob", "set_slot note a `tick`",
		"cancel_flow", "affirm", "deny", "chitchat", "human_handoff", "fallback", "clarify [a b]",
		"repeat_bot_messages", "skip_question",
	}
	var got []string
	for _, r := range raws {
		s := r.Kind
		switch {
		case r.Flow != "":
			s += " " + r.Flow
		case r.Slot != "":
			s += " " + r.Slot + " " + r.Value
		case r.Flows != nil:
			s += fmt.Sprint(" ", r.Flows)
		}
		got = append(got, s)
	}
	assert.Equal(t, want, got)
}
