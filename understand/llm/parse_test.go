package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
		{"clarify check_balance transfer_funds\nhuman handoff\nchitchat\nfallback\ndeny", []Raw{
			{Kind: "clarify", Flows: []string{"check_balance", "transfer_funds"}, Line: 1},
			{Kind: "human_handoff", Line: 2}, {Kind: "chitchat", Line: 3}, {Kind: "fallback", Line: 4}, {Kind: "deny", Line: 5},
		}, nil},
		{"start flow ../../etc/passwd\nset slot a;drop x\nstart flow", nil, []string{"start flow ../../etc/passwd", "set slot a;drop x", "start flow"}},
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
				if n != "" && !nameRE.MatchString(n) {
					t.Fatalf("bad name %q", n)
				}
			}
		}
	})
}
