package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

// TestComparisonHints: the usual ways a comparison goes wrong in a flow
// written by hand (a yes/no slot compared with 'yes', a number with '3', a
// bare word for a text value) say how to write the comparison.
func TestComparisonHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, eval, code string
		want             []string
	}{
		{"boolean slot compared with a string", `vip == 'yes'`, diag.CodeExpression,
			[]string{`11:24 invalid evaluate expression: invalid operation: == (mismatched types bool and string) (a boolean slot is true or false: compare it with true or false, without quotes)`}},
		{"string compared with a boolean slot", `'yes' != vip`, diag.CodeExpression,
			[]string{`11:26 invalid evaluate expression: invalid operation: != (mismatched types string and bool) (a boolean slot is true or false: compare it with true or false, without quotes)`}},
		{"number slot compared with a string", `guests >= '3'`, diag.CodeExpression,
			[]string{`11:27 invalid evaluate expression: invalid operation: >= (mismatched types int and string) (a number slot compares with a number: write the number without quotes)`}},
		{"bare word compared with a text slot", `city == Madrid OR Paris == city`, diag.CodeUnknownSlot, []string{
			`11:28 unknown slot "Madrid" in evaluate expression: declare it in the top-level slots or the flow's slots, or fix its name (to compare with the text Madrid, put it in quotes: 'Madrid')`,
			`11:38 unknown slot "Paris" in evaluate expression: declare it in the top-level slots or the flow's slots, or fix its name (to compare with the text Paris, put it in quotes: 'Paris')`,
		}},
		{"a typo of a slot keeps its suggestion", `city == guets`, diag.CodeUnknownSlot, []string{
			`11:28 unknown slot "guets" in evaluate expression: declare it in the top-level slots or the flow's slots, or fix its name (did you mean "guests"?)`,
		}},
		{"a bare word not in a comparison", `Madrid`, diag.CodeUnknownSlot, []string{
			`11:20 unknown slot "Madrid" in evaluate expression: declare it in the top-level slots or the flow's slots, or fix its name`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    slots: [{name: vip, type: boolean}, {name: guests, type: integer}, {name: city, type: text}]
    steps:
      - {step: a, type: collect, slot: vip, message: "vip?"}
      - {step: b, type: collect, slot: guests, message: "guests?"}
      - {step: d, type: collect, slot: city, message: "city?"}
      - step: c
        type: branch
        evaluate: "` + tc.eval + `"
        cases: {"true": __end__}
`
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
}
