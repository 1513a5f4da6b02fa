package actions

import (
	"testing"

	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
)

// TestRasaLatestMessageAsRasaSendsIt: with no NLU intent classifier,
// Rasa's message processor fills a message's parse data with the text, an
// intent of no name and confidence 0.0, no entities and the commands the
// generator gave (an empty list when none); its commands are the
// dictionaries of Rasa's command classes ("correct slot" carries
// corrected_slots, a start with slots is a start and set slots).
func TestRasaLatestMessageAsRasaSendsIt(t *testing.T) {
	for name, tc := range map[string]struct {
		commands []vm.Command
		want     []any
	}{
		"no commands": {nil, []any{}},
		"set slot": {[]vm.Command{{Kind: vm.CmdSetSlot, Slot: "colour", Value: "red"}},
			[]any{map[string]any{"command": "set slot", "name": "colour", "value": "red"}}},
		"correct slot": {[]vm.Command{{Kind: vm.CmdCorrectSlot, Slot: "amount", Value: "50"}},
			[]any{map[string]any{"command": "correct slot", "corrected_slots": []any{map[string]any{"name": "amount", "value": "50"}}}}},
		"start with slots": {[]vm.Command{{Kind: vm.CmdStartFlow, Flow: "transfer", Slots: []vm.SlotValue{{Slot: "recipient", Value: "Ana"}}}},
			[]any{map[string]any{"command": "start flow", "flow": "transfer"}, map[string]any{"command": "set slot", "name": "recipient", "value": "Ana"}}},
		"cancel, skip, repeat, not understood": {[]vm.Command{{Kind: vm.CmdCancelFlow}, {Kind: vm.CmdSkipQuestion}, {Kind: vm.CmdRepeat}, {Kind: vm.CmdFallback}},
			[]any{map[string]any{"command": "cancel flow"}, map[string]any{"command": "skip question"}, map[string]any{"command": "repeat"}, map[string]any{"command": "cannot handle"}}},
		"clarify": {[]vm.Command{{Kind: vm.CmdClarify, Flows: []string{"a", "b"}}},
			[]any{map[string]any{"command": "clarify", "options": []string{"a", "b"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			got := rasaLatestMessage(vm.ActionConversation{Message: "hi", Commands: tc.commands})
			assert.Equal(t, map[string]any{
				"text":     "hi",
				"intent":   map[string]any{"name": nil, "confidence": 0.0},
				"entities": []any{},
				"commands": tc.want,
			}, got)
		})
	}
}
