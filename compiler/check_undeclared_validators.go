package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_undeclared_validators warns about a collect step whose validator
// names neither a built-in nor a validator declared under validators
// (W015). The Python framework registered validators by name in code, so
// this is allowed, like an undeclared action, but at run time the
// validator must come from the embedding Go program
// (Engine.RegisterValidator) or a test stub. A close built-in or declared
// name is offered as a suggestion.
func checkUndeclaredValidators(c *checker) {
	names := append([]string(nil), ir.BuiltinValidators...)
	for _, a := range c.p.Validators {
		names = append(names, a.Name.V)
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			v := s.Validator
			if s.Kind != ir.KindCollect || !v.Set || ir.IsBuiltinValidator(v.V) || c.p.Validator(v.V) != nil || !c.p.namedValidator(f, v.V) {
				continue
			}
			d := c.ds.Add(v.Pos, diag.CodeUndeclaredValidator, v.Path,
				"validator %q is neither built in nor declared: at run time it must be provided by Go code (Engine.RegisterValidator) or a test stub (stub_validators); declare it under %q to run it from the CLI, or use a built-in (%s)",
				v.V, "validators", strings.Join(ir.BuiltinValidators, ", "))
			d.Suggestion = didYouMean(v.V, names)
		}
	}
}
