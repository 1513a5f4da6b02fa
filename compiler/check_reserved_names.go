package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_reserved_names: slots are variables in expressions, so a slot may
// not take the name of an expression keyword (in, and, nil, the Python
// framework's None, is...) or of the
// names soni gives meaning there (value, slots). Names of expr's built-in
// functions (count, date, max...) are fine: in an expression a bare name is
// always the variable.
func checkReservedNames(c *checker) {
	check := func(s *syntax.Slot) {
		if s.Name.Set && reservedNames[s.Name.V] {
			c.ds.Add(s.Name.Pos, diag.CodeInvalidName, s.Name.Path, "slot name %q is reserved in expressions: rename the slot, for example to %q", s.Name.V, s.Name.V+"_value")
		}
	}
	for _, s := range c.p.Slots {
		check(s)
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Slots {
			check(s)
		}
	}
}

// reservedNames are expr's keywords and the names soni itself gives
// meaning in expressions.
var reservedNames = map[string]bool{
	"in": true, "not": true, "and": true, "or": true, "matches": true, "contains": true,
	"startsWith": true, "endsWith": true, "let": true, "if": true, "else": true,
	"nil": true, "true": true, "false": true, "slots": true, "value": true,
	// The Python framework's literals and operators, which soni reads as
	// such (internal/exprcompat).
	"AND": true, "OR": true, "NOT": true, "None": true, "none": true, "null": true,
	"True": true, "False": true, "is": true,
}
