package compiler

import (
	"fmt"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_durations: the timeouts and backoff of an action's run block must
// be positive durations, so a typo fails at validate time, not at the
// first call; so must the session_expiration setting.
func checkDurations(c *checker) {
	for _, st := range c.p.Settings {
		if st.Key.V != "session_expiration" {
			continue
		}
		if d, ok := settingDuration(st.Value); !ok || d <= 0 {
			c.ds.Add(st.Pos, diag.CodeInvalidValue, st.Key.Path, "session_expiration %q is not a positive duration: write 60m, 2h or a number of minutes", fmt.Sprint(st.Value))
		}
	}
	for _, g := range []struct {
		kind  string
		decls []*syntax.Action
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
