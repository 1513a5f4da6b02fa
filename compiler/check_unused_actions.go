package compiler

import (
	"github.com/soni-dev/soni/diag"
)

// check_unused_actions warns about a declared action that no action step
// calls and no collect asks with (W005). Only the first of duplicate declarations is considered;
// the others are already errors.
func checkUnusedActions(c *checker) {
	if len(c.p.Actions) == 0 {
		return
	}
	called := make(map[string]bool, len(c.p.Actions))
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if a := s.Calls(); a.Set {
				called[a.V] = true
			}
		}
	}
	for _, a := range c.p.Actions {
		if called[a.Name.V] || c.p.Action(a.Name.V) != a {
			continue
		}
		c.ds.Add(a.Name.Pos, diag.CodeUnusedAction, a.Path,
			"action %q is declared but no step calls it: call it from an action step or remove its declaration", a.Name.V)
	}
}
