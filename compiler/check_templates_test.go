package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestCheckTemplates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"unclosed, unmatched, empty and invalid references", `slots:
  name: {type: text}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: name, message: "Hi {name"}
      - {step: b, type: say, message: "Bye name}"}
      - {step: c, type: say, message: "Hi {} and {first name}"}
      - {step: d, type: set, slots: {name: "{name!}"}}
`, []string{
			`6:59 unclosed '{' in template: write '{{' for a literal brace`,
			`7:48 unmatched '}' in template: write '}}' for a literal brace`,
			`8:43 empty '{}' in template: name a slot, or write '{{}}' for literal braces`,
			`9:45 invalid reference "name!" in template: use {slot} or {slot.field}`,
		}},
		{"second line of a block", `flows:
  main:
    steps:
      - step: a
        type: say
        message: |
          Hello,
            you owe {amount.
`, []string{`8:21 unclosed '{' in template: write '{{' for a literal brace`}},
		{"slot invalid_message", `slots:
  age: {type: integer, invalid_message: "not an age}"}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: age, message: age?, validation_error_message: "{age"}
`, []string{
			`2:52 unmatched '}' in template: write '}}' for a literal brace`,
			`6:87 unclosed '{' in template: write '{{' for a literal brace`,
		}},
		{"format specs", `slots:
  amount: {type: number}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: amount, message: "{amount:,.2f} or {amount:>10} or {amount:x}"}
`, []string{
			`6:99 format spec "x" of {amount} is not supported: the type "x" is not; soni supports [[fill]align][sign][0][width][,|_][.precision][type] with type s, d, f, F, e, E or %, as in {amount:,.2f} or {name:>10}`,
		}},
		{"valid templates", `slots:
  name: {type: text}
flows:
  main:
    steps:
      - {step: a, type: collect, slot: name, message: "{{literal}} and { name } and {name.first}"}
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, codeDiags(t, tc.src, diag.CodeTemplate))
		})
	}
}
