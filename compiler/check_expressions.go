package compiler

import (
	"regexp"
	"strings"

	"github.com/soni-dev/soni/diag"
)

// check_expressions reports expressions that do not parse or do not
// type-check against the slot types (E033), at the position expr gives,
// mapped into the YAML file. Unknown names are E032 (check_slot_refs): an
// expression with an unknown name is not type-checked, so the two never
// report the same expression.
func init() {
	register("expressions", func(c *checker) {
		for _, u := range c.exprs {
			if u.Err == nil {
				continue
			}
			d := c.ds.Add(u.Src.At(u.Err.Line, u.Err.Column), diag.CodeExpression, u.Src.Path,
				"invalid %s: %s", exprWhat(u), u.Err.Message)
			d.Suggestion = exprHint(u.Src.V, u.Err.Message)
		}
	})
}

// templateRef finds a template-style {slot} reference in an expression.
var templateRef = regexp.MustCompile(`\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}`)

// exprHint suggests the fix of a common mistake in an expression: "=" for
// "==", or a slot written {slot} as in a template.
func exprHint(src, msg string) string {
	if m := templateRef.FindStringSubmatch(src); m != nil && strings.Contains(msg, "unexpected token") {
		return "in an expression a slot is a variable: write " + m[1] + ", not {" + m[1] + "}"
	}
	if strings.Contains(msg, `unexpected token Operator("=")`) {
		return `compare with "==", not "="`
	}
	return ""
}
