package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_reachability warns about a step that no path from the flow's first
// step reaches (W001), following every edge of the control flow graph
// (cfg.go). Steps of unknown type are left to the schema error, and flows
// with an unknown jump target are skipped: the CFG lacks the edge the
// author meant, and the error on the target already says what to fix.
func checkReachability(c *checker) {
	for _, f := range c.p.Flows {
		if len(f.Steps) == 0 || hasUnknownTarget(f) {
			continue
		}
		seen := reachable(f)
		for i, s := range f.Steps {
			if seen[i] || s.Kind == "" {
				continue
			}
			c.ds.Add(s.Pos, diag.CodeUnreachable, s.Path,
				"%s can never run: no step jumps to it and no path through the steps before it leads to it; jump to it from another step or remove it",
				stepDesc(s))
		}
	}
}

// reachable marks the steps of a flow that some path from step 0 reaches.
func reachable(f *syntax.Flow) []bool {
	seen := make([]bool, len(f.Steps))
	if len(f.Steps) == 0 {
		return seen
	}
	seen[0] = true
	queue := []int{0}
	for len(queue) > 0 {
		s := f.Steps[queue[0]]
		queue = queue[1:]
		for _, j := range flowSuccessors(f, s) {
			if j >= 0 && j < len(seen) && !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return seen
}
