package compiler

import (
	"sort"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_step_ids reports a step id used twice in one flow (E021), inline
// while-body steps included. The first use in the source is kept and every
// later one is reported, citing the first.
func checkStepIds(c *checker) {
	for _, f := range c.p.Flows {
		byID := make(map[string][]*syntax.Step, len(f.Steps))
		var order []string
		for _, s := range f.Steps {
			if !s.ID.Set || s.ID.V == "" {
				continue
			}
			if _, ok := byID[s.ID.V]; !ok {
				order = append(order, s.ID.V)
			}
			byID[s.ID.V] = append(byID[s.ID.V], s)
		}
		for _, id := range order {
			steps := byID[id]
			if len(steps) < 2 {
				continue
			}
			// Inline body steps follow the top-level ones in f.Steps;
			// source order decides which one came first.
			sort.SliceStable(steps, func(i, j int) bool { return steps[i].ID.Pos.Before(steps[j].ID.Pos) })
			first := steps[0].ID.Pos
			for _, s := range steps[1:] {
				c.ds.Add(s.ID.Pos, diag.CodeDuplicateStep, s.ID.Path,
					"step id %q is already used in flow %q at %s: give every step of a flow its own id", id, f.Name.V, first)
			}
		}
	}
}
