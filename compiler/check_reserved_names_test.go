package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckReservedNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"builtin names are fine", "slots:\n  count: {type: integer}\n  date: {type: date}\nflows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: collect, slot: count, message: \"?\"}\n      - {step: b, type: collect, slot: date, message: \"?\"}\n      - {step: c, type: set, slots: {ok: {expr: \"count > 3 and date != ''\"}}}\n", nil},
		{"implicit slot named nil", "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: collect, slot: nil, message: \"?\"}\n",
			[]string{`5:40 slot name "nil" is reserved in expressions: rename the slot, for example to "nil_value"`}},
		{"keyword value", "flows:\n  f:\n    trigger: {intents: [go]}\n    slots:\n      - {name: value, type: text}\n    steps:\n      - {step: a, type: collect, slot: value, message: \"?\"}\n",
			[]string{`5:16 slot name "value" is reserved in expressions: rename the slot, for example to "value_value"`}},
		{"ordinary names", "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: collect, slot: counter, message: \"?\"}\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeInvalidName))
		})
	}
}
