package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_undeclared_actions warns about an action step that calls an action
// not declared under actions (W006). The Python framework bound actions by
// name in code, so this is allowed, but at run time the action must come
// from the embedding Go program, a test stub or a declaration. A declared
// action with a close name is offered as a suggestion.
func checkUndeclaredActions(c *checker) {
	var names []string
	for _, a := range c.p.Actions {
		names = append(names, a.Name.V)
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if s.Kind != ir.KindAction || !s.Call.Set || s.Call.V == "" || c.p.Action(s.Call.V) != nil || ir.IsBuiltinAction(s.Call.V) {
				continue
			}
			d := c.ds.Add(s.Call.Pos, diag.CodeUndeclaredAction, s.Call.Path,
				"action %q is not declared: at run time it must be provided by Go code or a test stub; declare it under %q to run it from the CLI",
				s.Call.V, "actions")
			d.Suggestion = didYouMean(s.Call.V, names)
		}
	}
}
