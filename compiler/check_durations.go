package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_durations: the timeouts and backoff of an action's run block must
// be positive durations, so a typo fails at validate time, not at the
// first call.
func checkDurations(c *checker) {
	for _, g := range []struct {
		kind  string
		decls []*Action
	}{{"action", c.p.Actions}, {"validator", c.p.Validators}} {
		kind := g.kind
		for _, a := range g.decls {
			for _, d := range a.Durations {
				if _, err := ir.ParseDuration(d.V); err != nil {
					c.ds.Add(d.Pos, diag.CodeInvalidValue, d.Path, "%s %q: %s", kind, a.Name.V, err)
				}
			}
		}
	}
}
