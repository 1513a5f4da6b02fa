package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_recursion warns about call recursion (W009): flows that start each
// other in a cycle that contains at least one call step. A call keeps the
// caller on the stack, so such a cycle grows the stack on every round until
// max_stack_depth stops it. Links count as edges of the cycle too (a link
// starts its target where the linking flow was, so a link followed by a
// call back still nests), but a cycle made of links only replaces one flow
// with the next and never grows the stack, so it is not reported. Each
// cycle is reported once, at the target of its first call step in file
// order, with the whole cycle spelled out.
func checkRecursion(c *checker) {
	type edge struct {
		to   int
		step *syntax.Step
	}
	var flows []*syntax.Flow
	idx := map[string]int{}
	for _, f := range c.p.Flows {
		if c.p.Flow(f.Name.V) == f {
			idx[f.Name.V] = len(flows)
			flows = append(flows, f)
		}
	}
	edges := make([][]edge, len(flows))
	succ := make([][]int, len(flows))
	for i, f := range flows {
		for _, s := range f.Steps {
			if s.Kind != ir.KindCall && s.Kind != ir.KindLink {
				continue
			}
			if j, ok := idx[s.Target.V]; ok && s.Target.Set {
				edges[i] = append(edges[i], edge{j, s})
				succ[i] = append(succ[i], j)
			}
		}
	}
	get := func(i int) []int { return succ[i] }
	comp := make([]int, len(flows))
	for k, cc := range sccs(len(flows), get) {
		for _, i := range cc {
			comp[i] = k
		}
	}
	reported := map[int]bool{}
	for i := range flows {
		for _, e := range edges[i] {
			if e.step.Kind != ir.KindCall || comp[e.to] != comp[i] || reported[comp[i]] {
				continue
			}
			reported[comp[i]] = true
			// Find the way back from the callee to the caller inside
			// the component, breadth first so that it is the shortest.
			prev := map[int]edge{}
			queue := []int{e.to}
			seen := map[int]bool{e.to: true}
			for len(queue) > 0 && !seen[i] {
				u := queue[0]
				queue = queue[1:]
				for _, g := range edges[u] {
					if comp[g.to] == comp[i] && !seen[g.to] {
						seen[g.to] = true
						prev[g.to] = edge{u, g.step}
						queue = append(queue, g.to)
					}
				}
			}
			var back []edge // from the callee to the caller
			for v := i; v != e.to; v = prev[v].to {
				back = append(back, edge{v, prev[v].step})
			}
			var b strings.Builder
			b.WriteString("flow ")
			b.WriteString(quote(flows[i].Name.V))
			if e.to == i {
				b.WriteString(" calls itself")
			} else {
				b.WriteString(" calls ")
				b.WriteString(quote(flows[e.to].Name.V))
				for k := len(back) - 1; k >= 0; k-- {
					b.WriteString(" which ")
					if back[k].step.Kind == ir.KindCall {
						b.WriteString("calls ")
					} else {
						b.WriteString("links to ")
					}
					b.WriteString(quote(flows[back[k].to].Name.V))
				}
			}
			c.ds.Add(e.step.Target.Pos, diag.CodeCallRecursion, e.step.Target.Path,
				"%s: every round nests another call until max_stack_depth stops the conversation; break the cycle, for example with a link or by ending a flow instead of calling back",
				b.String())
		}
	}
}
