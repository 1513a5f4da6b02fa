package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_endless_patterns warns about a project flow that overrides a
// pattern and has no path from its first step to its end (W019): the VM
// starts a pattern in the middle of a conversation and resumes the flow
// below it when the pattern ends, so a pattern that never ends would hold
// the conversation forever. A link ends the flow that links.
func checkEndlessPatterns(c *checker) {
	for _, f := range c.p.Flows {
		if !ir.IsPattern(f.Name.V) || f.Builtin || c.p.Flow(f.Name.V) != f || f.Main == 0 || hasUnknownTarget(f) {
			continue
		}
		seen := make([]bool, len(f.Steps))
		work := []int{0}
		seen[0] = true
		ends := false
		for len(work) > 0 && !ends {
			i := work[len(work)-1]
			work = work[:len(work)-1]
			for _, j := range flowSuccessors(f, f.Steps[i]) {
				if j == ir.End {
					ends = true
					break
				}
				if j >= 0 && j < len(seen) && !seen[j] {
					seen[j] = true
					work = append(work, j)
				}
			}
		}
		if !ends {
			c.ds.Add(f.Name.Pos, diag.CodeEndlessPattern, f.Path,
				"pattern flow %q can never end: no path from its first step reaches its end, so the conversation it repairs would never go on; end it with its last step or __end__", f.Name.V)
		}
	}
}
