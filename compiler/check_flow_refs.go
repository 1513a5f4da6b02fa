package compiler

import (
	"sort"

	"github.com/soni-dev/soni/ir"

	"github.com/soni-dev/soni/diag"
)

// check_flow_refs reports a link or call step whose target is no flow of
// the project (E031), suggesting the nearest flow name.
func checkFlowRefs(c *checker) {
	var names []string // built on the first error only
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if (s.Kind != ir.KindLink && s.Kind != ir.KindCall) || !s.Target.Set || c.p.Flow(s.Target.V) != nil || ir.IsPattern(s.Target.V) {
				continue
			}
			d := c.ds.Add(s.Target.Pos, diag.CodeUnknownFlow, s.Target.Path,
				"unknown flow %q in %s: no flow of the project has this name", s.Target.V, s.Type.V)
			if names == nil {
				names = make([]string, 0, len(c.p.flows))
				for name := range c.p.flows {
					names = append(names, name)
				}
				sort.Strings(names)
			}
			suggestInto(d, s.Target.V, names)
		}
	}
}
