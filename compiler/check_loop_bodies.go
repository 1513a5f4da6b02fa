package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_loop_bodies reports while bodies that overlap (E039): a step listed
// in the do lists of two while steps, or twice in one, a while that lists
// itself, and a while nested inside its own body through other whiles. A
// step written inline belongs to the while it is written in, so the
// reference by id is the one reported.
func checkLoopBodies(c *checker) {
	for _, f := range c.p.Flows {
		var whiles []*syntax.Step
		owner := map[*syntax.Step]*syntax.Step{}
		for _, s := range f.Steps {
			if s.Kind != ir.KindWhile {
				continue
			}
			whiles = append(whiles, s)
			for _, e := range s.Do {
				if isInlineDef(e) {
					owner[e.Step] = s
				}
			}
		}
		if len(whiles) == 0 {
			continue
		}
		for _, w := range whiles {
			for _, e := range w.Do {
				st := e.Step
				if st == nil || isInlineDef(e) {
					continue
				}
				switch prev := owner[st]; {
				case st == w:
					c.ds.Add(e.Ref.Pos, diag.CodeLoopBody, e.Ref.Path,
						"while %q lists itself in its do: remove it, a while repeats its body by itself", w.ID.V)
				case prev == w:
					c.ds.Add(e.Ref.Pos, diag.CodeLoopBody, e.Ref.Path,
						"step %q is listed twice in the body of while %q: list each step once", st.ID.V, w.ID.V)
				case prev != nil:
					c.ds.Add(e.Ref.Pos, diag.CodeLoopBody, e.Ref.Path,
						"step %q is already in the body of while %q at %s: list each step in at most one do", st.ID.V, prev.ID.V, prev.ID.Pos)
				default:
					owner[st] = w
				}
			}
		}
		// A while inside its own body through other whiles: follow the
		// owners up from each while; coming back to it is a cycle.
		for _, w := range whiles {
			up := owner[w]
			for i := 0; up != nil && up != w && i < len(whiles); i++ {
				up = owner[up]
			}
			if up == w {
				c.ds.Add(w.ID.Pos, diag.CodeLoopBody, w.ID.Path,
					"while %q is inside its own body through while %q: a loop body cannot hold its own loop", w.ID.V, owner[w].ID.V)
			}
		}
	}
}

// isInlineDef reports whether a do entry is the definition of an inline
// body step rather than a reference to a step by id.
func isInlineDef(e *syntax.DoEntry) bool {
	return e.Step != nil && e.Step.Inline && e.Ref == e.Step.ID
}
