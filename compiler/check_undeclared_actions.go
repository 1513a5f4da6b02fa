package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_undeclared_actions warns about an action step that calls an action
// not declared under actions, or a collect that asks with one (W006). The
// Python framework bound actions by name in code, so this is allowed, but
// at run time the action must come from the embedding Go program, a test
// stub or a declaration. A declared action with a close name is offered as
// a suggestion.
func checkUndeclaredActions(c *checker) {
	var names []string
	for _, a := range c.p.Actions {
		names = append(names, a.Name.V)
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			a := s.Calls()
			if !a.Set || a.V == "" || c.p.Action(a.V) != nil {
				continue
			}
			if ir.IsBuiltinAction(a.V) {
				continue // check_ask_actions refuses one as an ask_action
			}
			d := c.ds.Add(a.Pos, diag.CodeUndeclaredAction, a.Path,
				"action %q is not declared: at run time it must be provided by Go code or a test stub; declare it under %q to run it from the CLI",
				a.V, "actions")
			d.Suggestion = didYouMean(a.V, names)
		}
	}
}
