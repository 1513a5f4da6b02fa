package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_startable warns about a flow that nothing can start (W007): it has
// no trigger intents and no other flow links to it or calls it (a pattern's
// flow is started by soni itself). A flow
// that only links to or calls itself cannot start either. The check does
// not follow chains: a flow called only by an unstartable flow is not
// reported, since the warning on the caller already points at the fix.
// A flow whose trigger already has an error is not reported either.
func checkStartable(c *checker) {
	targeted := make(map[string]bool, len(c.p.Flows))
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if (s.Kind == ir.KindLink || s.Kind == ir.KindCall) && s.Target.Set && s.Target.V != f.Name.V {
				targeted[s.Target.V] = true
			}
		}
	}
	for _, f := range c.p.Flows {
		if len(f.Triggers) > 0 || targeted[f.Name.V] || c.p.Flow(f.Name.V) != f || brokenTrigger(*c.ds, f) || ir.IsPattern(f.Name.V) {
			continue
		}
		c.ds.Add(f.Name.Pos, diag.CodeUnstartableFlow, f.Path,
			"flow %q can never start: it has no trigger intents and no other flow links to it or calls it; add %q or link or call it from another flow",
			f.Name.V, "trigger: {intents: [...]}")
	}
}

// brokenTrigger reports whether an error was already reported inside the
// flow's trigger (an unknown key such as "intent", a list where the
// mapping belongs): the flow has a trigger the author means to work, and
// the error says how to fix it, so W007's "add a trigger" would mislead.
func brokenTrigger(ds diag.List, f *syntax.Flow) bool {
	prefix := f.Path + ".trigger"
	for _, d := range ds {
		if d.Severity != diag.Error || d.Pos.File != f.Pos.File || !strings.HasPrefix(d.Path, prefix) {
			continue
		}
		if rest := d.Path[len(prefix):]; rest == "" || rest[0] == '.' || rest[0] == '[' {
			return true
		}
	}
	return false
}
