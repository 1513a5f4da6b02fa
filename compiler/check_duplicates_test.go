package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckDuplicates(t *testing.T) {
	t.Parallel()
	a := `settings:
  idle_message: hi
slots:
  amount: {type: number}
actions:
  pay: {outputs: [receipt]}
flows:
  main:
    steps:
      - {step: a, type: say, message: hi}
`
	b := `settings:
  idle_message: hello
  history_size: 5
slots:
  name: {type: text}
  amount: {type: integer}
actions:
  pay: {}
flows:
  other:
    steps:
      - {step: a, type: say, message: hi}
  main:
    steps:
      - {step: a, type: say, message: hi}
`
	two := []input{{name: "a.yaml", src: []byte(a)}, {name: "b.yaml", src: []byte(b)}}
	assert.Equal(t, []string{
		`b.yaml:6:3 slot "amount" is already defined at a.yaml:4:3: rename or remove one of the two`,
		`b.yaml:8:3 action "pay" is already defined at a.yaml:6:3: rename or remove one of the two`,
		`b.yaml:13:3 flow "main" is already defined at a.yaml:8:3: rename or remove one of the two`,
	}, inputsDiags(t, two, diag.CodeDuplicateName))
	assert.Equal(t, []string{
		`b.yaml:2:3 setting "idle_message" is already given at a.yaml:2:3: keep each setting in one file only`,
	}, inputsDiags(t, two, diag.CodeDuplicateSetting))

	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"flow slot declared twice", `flows:
  main:
    slots:
      - {name: size, type: integer}
      - {name: color}
      - name: size
        type: text
    steps:
      - {step: a, type: collect, slot: size, message: how big?}
`, []string{`6:15 slot "size" is already declared in flow "main" at t.yaml:4:16: remove one of the two`}},
		{"same flow slot name in two flows is fine", `flows:
  main:
    slots: [{name: size}]
    steps:
      - {step: a, type: collect, slot: size, message: how big?}
  other:
    slots: [{name: size}]
    steps:
      - {step: a, type: collect, slot: size, message: how big?}
`, nil},
		{"flow slot shadowing a conversation slot is not a duplicate", `slots:
  size: {type: integer}
flows:
  main:
    slots: [{name: size}]
    steps:
      - {step: a, type: collect, slot: size, message: how big?}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeDuplicateName))
		})
	}

	t.Run("distinct definitions across files", func(t *testing.T) {
		c := []input{{name: "a.yaml", src: []byte(a)}, {name: "c.yaml", src: []byte("settings: {history_size: 3}\nflows:\n  third:\n    steps: [{step: a, type: say, message: hi}]\n")}}
		assert.Empty(t, inputsDiags(t, c, diag.CodeDuplicateName))
		assert.Empty(t, inputsDiags(t, c, diag.CodeDuplicateSetting))
	})
}
