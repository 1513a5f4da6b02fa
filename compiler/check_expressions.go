package compiler

import "github.com/soni-dev/soni/diag"

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
			c.ds.Add(u.Src.At(u.Err.Line, u.Err.Column), diag.CodeExpression, u.Src.Path,
				"invalid %s: %s", exprWhat(u), u.Err.Message)
		}
	})
}
