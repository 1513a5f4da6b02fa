package compiler

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/diag"
)

// check_expressions reports expressions that do not parse or do not
// type-check against the slot types (E033), at the position expr gives,
// mapped into the YAML file. Unknown names are E032 (check_slot_refs): an
// expression with an unknown name is not type-checked, so the two never
// report the same expression.
func checkExpressions(c *checker) {
	for _, u := range c.exprs {
		if u.Err == nil {
			continue
		}
		d := c.ds.Add(u.Src.At(u.Err.Line, u.Err.Column), diag.CodeExpression, u.Src.Path,
			"invalid %s: %s", exprWhat(u), u.Err.Message)
		d.Suggestion = exprHint(u.Src.V, u.Err.Message)
	}
}

// templateRef finds a template-style {slot} reference in an expression.
var templateRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}`) })

// exprHint suggests the fix of a common mistake in an expression: "=" for
// "==", a slot written {slot} as in a template, or a boolean or number slot
// compared with a quoted value.
func exprHint(src, msg string) string {
	if m := templateRef().FindStringSubmatch(src); m != nil && strings.Contains(msg, "unexpected token") {
		return "in an expression a slot is a variable: write " + m[1] + ", not {" + m[1] + "}"
	}
	if strings.Contains(msg, `unexpected token Operator("=")`) {
		return `compare with "==", not "="`
	}
	if m := mismatch().FindStringSubmatch(msg); m != nil {
		other := m[2]
		if m[2] == "string" {
			other = m[1]
		} else if m[1] != "string" {
			return ""
		}
		switch other {
		case "bool":
			return "a boolean slot is true or false: compare it with true or false, without quotes"
		case "int", "float64":
			return "a number slot compares with a number: write the number without quotes"
		}
	}
	return ""
}

// mismatch matches expr's type error for a comparison of a string with
// another type.
var mismatch = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`invalid operation: (?:==|!=|<|>|<=|>=) \(mismatched types (\w+) and (\w+)\)`)
})
