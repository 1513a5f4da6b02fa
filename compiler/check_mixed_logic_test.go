package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

// TestMixedLogic: an expression that mixes and and or at one level of
// parentheses is W016, with soni's reading and the Python framework's
// (left to right); parentheses, strings and other levels are fine.
func TestMixedLogic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cond string
		want       []string
	}{
		{"or then and", `a OR b AND c`, []string{
			`9:28 "a OR b AND c" mixes and and or without parentheses: soni reads it as "a OR (b AND c)", the Python framework read it as "(a OR b) AND c"; add parentheses to say which you mean`}},
		{"and then or", `a and b or c`, []string{
			`9:29 "a and b or c" mixes and and or without parentheses: soni reads it as "(a and b) or c", as the Python framework did ("(a and b) or c"), but the reading is easy to get wrong; add parentheses`}},
		{"symbols", `a || b && c`, []string{
			`9:28 "a || b && c" mixes and and or without parentheses: soni reads it as "a || (b && c)", the Python framework read it as "(a || b) && c"; add parentheses to say which you mean`}},
		{"longer", `a and b or c and d`, []string{
			`9:29 "a and b or c and d" mixes and and or without parentheses: soni reads it as "(a and b) or (c and d)", the Python framework read it as "((a and b) or c) and d"; add parentheses to say which you mean`}},
		{"inside parentheses", `(a or b and c) == true`, []string{
			`9:29 "a or b and c" mixes and and or without parentheses: soni reads it as "a or (b and c)", the Python framework read it as "(a or b) and c"; add parentheses to say which you mean`}},
		{"parenthesised", `(a OR b) AND c`, nil},
		{"one kind", `a and b and c`, nil},
		{"in strings", `a == "x or y" and b`, nil},
		{"field named or", `slots.or_value and a`, nil},
		{"call arguments", `len("a") > 0 and a or b`, []string{
			`9:40 "len(\"a\") > 0 and a or b" mixes and and or without parentheses: soni reads it as "(len(\"a\") > 0 and a) or b", as the Python framework did ("(len(\"a\") > 0 and a) or b"), but the reading is easy to get wrong; add parentheses`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    slots: [{name: a, type: boolean}, {name: b, type: boolean}, {name: c, type: boolean}, {name: d, type: boolean}]
    steps:
      - {step: s1, type: set, slots: {a: true, b: true, c: true, d: true}}
      - step: s2
        type: set
        condition: '` + tt.cond + `'
        slots: {a: false}
`
			assert.Equal(t, tt.want, codeDiags(t, src, diag.CodeMixedLogic))
		})
	}
}
