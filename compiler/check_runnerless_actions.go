package compiler

import (
	"github.com/soni-dev/soni/diag"
)

// check_runnerless_actions warns about a declared action that a flow calls
// (a step, or a collect's ask_action) but that nothing runs (W020): it has
// no run block, and no conversation test of the project stubs it. Such a
// project validates, and soni chat fails at the action. A Go program that
// registers the action (Engine.Register) may acknowledge the warning with
// # soni:ignore W020.
func checkRunnerlessActions(c *checker) {
	type site struct{ flow, step string }
	called := map[string]site{}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if a := s.Calls(); a.Set && a.V != "" {
				if _, seen := called[a.V]; !seen {
					called[a.V] = site{f.Name.V, s.ID.V}
				}
			}
		}
	}
	for _, a := range c.p.Actions {
		at, ok := called[a.Name.V]
		if !ok || a.Run != nil || c.p.stubbed[a.Name.V] {
			continue
		}
		c.ds.Add(a.Name.Pos, diag.CodeRunnerlessAction, a.Path,
			"action %q has no runner: flow %q calls it at step %q, but it has no run: block and no conversation test of the project stubs it, so soni chat fails there; add run: exec, http or rasa, register a Go function for it, or stub it in the project's tests",
			a.Name.V, at.flow, at.step)
	}
}
