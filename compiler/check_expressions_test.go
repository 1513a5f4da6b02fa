package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckExpressions(t *testing.T) {
	t.Parallel()
	const head = `slots:
  amount: {type: number}
  name: {type: text}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: amount, message: how much?}
`
	for _, tc := range []struct {
		name    string
		steps   string
		want    []string
		unknown []string // E032 expected for the same input
	}{
		{"syntax error", `      - {step: b, type: set, condition: "amount >", slots: {name: x}}
`, []string{`8:49 invalid condition: unexpected token EOF`}, nil},
		{"type error", `      - {step: b, type: set, condition: 'amount > "x"', slots: {name: x}}
`, []string{`8:49 invalid condition: invalid operation: > (mismatched types float64 and string) (a number slot compares with a number: write the number without quotes)`}, nil},
		{"non-boolean condition", `      - {step: b, type: while, condition: "amount + 1", do: [a]}
`, []string{`8:44 invalid condition: expected bool, but got float64`}, nil},
		{"evaluate must be boolean too", `      - {step: b, type: branch, evaluate: "name", cases: {"true": a}}
`, []string{`8:44 invalid evaluate expression: expected bool, but got string`}, nil},
		{"a set expression may have any type, but must type-check", `      - {step: b, type: set, slots: {name: {expr: "name + amount"}}}
`, []string{`8:57 invalid expression: invalid operation: + (mismatched types string and float64)`}, nil},
		{"validator on the second line of a block", `      - step: b
        type: collect
        slot: name
        message: name?
        validator: |
          len(value) > 2 and
            value startsWith
`, []string{`14:29 invalid validator: unexpected token EOF`}, nil},
		{"AND, OR, NOT and slots.x are accepted", `      - {step: b, type: set, condition: "amount > 1 AND NOT (name == 'x') OR slots.amount < 0", slots: {name: x}}
`, nil, nil},
		{"slots.nope is an unknown slot, not an expression error", `      - {step: b, type: set, condition: "slots.nope > 1", slots: {name: x}}
`, nil, []string{`8:48 unknown slot "nope" in condition: declare it in the top-level slots or the flow's slots, or fix its name (did you mean "name"?)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.steps
			assert.Equal(t, tc.want, codeDiags(t, src, diag.CodeExpression))
			assert.Equal(t, tc.unknown, codeDiags(t, src, diag.CodeUnknownSlot))
		})
	}
	t.Run("slot validation sees value", func(t *testing.T) {
		src := `slots:
  age: {type: integer, validation: 'value >= 18 and value < "old"'}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: age, message: age?}
`
		assert.Equal(t, []string{`2:59 invalid validation: invalid operation: < (mismatched types int and string) (a number slot compares with a number: write the number without quotes)`}, codeDiags(t, src, diag.CodeExpression))
	})
}
