package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_replaces reports a step's replaces: list (the ids it had in
// earlier versions of the flow) that would make a paused session's step
// ambiguous (E021): an id that is still the id of a step of the flow, or
// that two steps of the flow both replace. An id a step replaces may be
// any former id; it need not be a valid name today.
func checkReplaces(c *checker) {
	for _, f := range c.p.Flows {
		ids := make(map[string]bool, len(f.Steps))
		for _, s := range f.Steps {
			if s.ID.Set {
				ids[s.ID.V] = true
			}
		}
		replaced := map[string]syntax.Str{}
		for _, s := range f.Steps {
			for _, r := range s.Replaces {
				if r.V == "" {
					continue
				}
				if ids[r.V] {
					c.ds.Add(r.Pos, diag.CodeDuplicateStep, r.Path,
						"step %q replaces %q, which is still a step of flow %q: a session paused there could resume at either; remove it from replaces or rename the other step", s.ID.V, r.V, f.Name.V)
					continue
				}
				if first, dup := replaced[r.V]; dup {
					c.ds.Add(r.Pos, diag.CodeDuplicateStep, r.Path,
						"step %q replaces %q, which a step already replaces at %s: a former id resumes at one step; keep one", s.ID.V, r.V, first.Pos)
					continue
				}
				replaced[r.V] = r
			}
		}
	}
}
