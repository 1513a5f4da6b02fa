package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckReservedNames(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"builtin as conversation slot", "slots:\n  count: {type: integer}\nflows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: collect, slot: count, message: \"?\"}\n",
			[]string{`2:3 slot name "count" is reserved in expressions (a built-in function or keyword): rename the slot, for example to "count_value"`}},
		{"implicit slot named len", "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: collect, slot: len, message: \"?\"}\n",
			[]string{`5:40 slot name "len" is reserved in expressions (a built-in function or keyword): rename the slot, for example to "len_value"`}},
		{"keyword value", "flows:\n  f:\n    trigger: {intents: [go]}\n    slots:\n      - {name: value, type: text}\n    steps:\n      - {step: a, type: collect, slot: value, message: \"?\"}\n",
			[]string{`5:16 slot name "value" is reserved in expressions (a built-in function or keyword): rename the slot, for example to "value_value"`}},
		{"ordinary names", "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: collect, slot: counter, message: \"?\"}\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeInvalidName))
		})
	}
}
