package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestUnusedSlots(t *testing.T) {
	t.Parallel()
	const flow = "flows:\n  f:\n    trigger:\n      intents: [go]\n    steps:\n"
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "an unused conversation slot and an unused flow slot",
			src: `slots:
  spare: {type: text}
flows:
  f:
    trigger:
      intents: [go]
    slots:
      - name: extra
        type: text
    steps:
      - step: a
        type: say
        message: hi
`,
			want: []string{
				`2:3 slot "spare" is declared but never used: collect, set or read it in a flow, or remove its declaration`,
				`8:15 slot "extra" of flow "f" is declared but never used: collect, set or read it in the flow, or remove its declaration`,
			},
		},
		{
			name: "a slot read only by its own validation and invalid message is unused",
			src: `slots:
  age:
    type: integer
    validation: "age > 0 && value < 200"
    invalid_message: "{age} is not an age"
` + flow + `      - step: a
        type: say
        message: hi
`,
			want: []string{`2:3 slot "age" is declared but never used: collect, set or read it in a flow, or remove its declaration`},
		},
		{
			name: "a flow slot hidden by a conversation slot",
			src: `slots:
  city: {type: text}
flows:
  f:
    trigger:
      intents: [go]
    slots:
      - name: city
    steps:
      - step: a
        type: collect
        slot: city
        message: city?
`,
			want: []string{`8:15 slot "city" of flow "f" can never be used: the conversation slot "city" hides it; rename it or remove its declaration`},
		},
		{
			name: "every kind of use",
			src: `slots:
  collected: {type: text}
  assigned: {type: text}
  mapped: {type: text}
  branched: {type: text}
  confirmed: {type: text}
  input: {type: text}
  in_template: {type: text}
  in_expr: {type: integer}
  in_validation: {type: integer}
  in_other_invalid: {type: text}
  checked:
    type: integer
    validation: "value > in_validation"
    invalid_message: "not {in_other_invalid}"
actions:
  lookup:
    inputs: [input]
    outputs: [out]
flows:
  f:
    trigger:
      intents: [go]
    slots:
      - name: local
        type: text
    steps:
      - step: a
        type: collect
        slot: collected
        message: "{in_template}"
      - step: b
        type: set
        condition: "in_expr > 1"
        slots:
          assigned: x
      - step: c
        type: action
        call: lookup
        map_outputs:
          out: mapped
      - step: d
        type: branch
        slot: branched
        cases:
          x: e
      - step: e
        type: confirm
        slot: confirmed
      - step: g
        type: collect
        slot: checked
        message: "{local}"
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, warnDiags(t, tc.src, diag.CodeUnusedSlot))
		})
	}
}
