package compiler

import (
	"fmt"
	"sort"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_loops warns about a cycle of steps that never waits for the user
// (W002): such a turn spins until max_steps_per_turn stops it. Each flow's
// graph is split into strongly connected components; a component that
// holds a cycle is reported once, at its first step in the file, unless
// some step in it waits or the loop may end by itself:
//
//   - a confirm always waits;
//   - a collect waits when it has force: true, or when a set step of the
//     same cycle clears its slot; otherwise the slot is filled after the
//     first round and the collect is skipped;
//   - a call or link waits when the flow it starts (or a flow that one
//     calls or links to) has a collect or confirm;
//   - the loop may end by itself when a while condition or branch in it
//     that can leave the cycle reads a slot that a step of the cycle sets
//     or maps (a counter, a polled action result), as the catalogue's help
//     ("give it a condition that becomes false") says.
func checkLoops(c *checker) {
	waits := flowsThatWait(c.p)
	exprs, _ := stepUses(c)
	for _, f := range c.p.Flows {
		if len(f.Steps) == 0 {
			continue
		}
		succ := make([][]int, len(f.Steps))
		for i, s := range f.Steps {
			succ[i] = flowSuccessors(f, s)
		}
		get := func(i int) []int { return succ[i] }
		inComp := make([]bool, len(f.Steps))
		for _, comp := range sccs(len(f.Steps), get) {
			if !isCycle(comp, get) {
				continue
			}
			for _, i := range comp {
				inComp[i] = true
			}
			if !loopWaits(f, comp, waits) && !loopMayEnd(f, comp, succ, inComp, exprs) {
				reportLoop(c, f, comp)
			}
			for _, i := range comp {
				inComp[i] = false
			}
		}
	}
}

// flowsThatWait lists the flows that contain a collect or confirm, or that
// call or link to such a flow.
func flowsThatWait(p *project) map[string]bool {
	waits := map[string]bool{}
	callers := map[string][]string{}
	var queue []string
	for _, f := range p.Flows {
		direct := false
		for _, s := range f.Steps {
			switch s.Kind {
			case ir.KindCollect, ir.KindConfirm:
				direct = true
			case ir.KindCall, ir.KindLink:
				callers[s.Target.V] = append(callers[s.Target.V], f.Name.V)
			}
		}
		if direct && !waits[f.Name.V] {
			waits[f.Name.V] = true
			queue = append(queue, f.Name.V)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, caller := range callers[name] {
			if !waits[caller] {
				waits[caller] = true
				queue = append(queue, caller)
			}
		}
	}
	return waits
}

// loopWaits reports whether some step of a cycle waits for the user.
func loopWaits(f *syntax.Flow, comp []int, waits map[string]bool) bool {
	cleared := map[string]bool{}
	for _, i := range comp {
		s := f.Steps[i]
		if s.Kind == ir.KindSet {
			for _, a := range s.Assign {
				if a.Kind == ir.AssignClear {
					cleared[a.Slot.V] = true
				}
			}
		}
	}
	for _, i := range comp {
		s := f.Steps[i]
		switch s.Kind {
		case ir.KindConfirm:
			return true
		case ir.KindCollect:
			if s.Force || cleared[s.Slot.V] {
				return true
			}
		case ir.KindCall, ir.KindLink:
			if waits[s.Target.V] {
				return true
			}
		}
	}
	return false
}

// loopMayEnd reports whether a cycle has a way out that depends on a slot
// the cycle itself changes: a while or branch with an edge leaving the
// cycle, whose condition, evaluate expression or slot reads a slot that a
// set or action step of the cycle writes.
func loopMayEnd(f *syntax.Flow, comp []int, succ [][]int, inComp []bool, exprs map[*syntax.Step][]*exprUse) bool {
	written := map[string]bool{}
	for _, i := range comp {
		s := f.Steps[i]
		switch s.Kind {
		case ir.KindSet:
			for _, a := range s.Assign {
				written[a.Slot.V] = true
			}
		case ir.KindAction:
			for _, m := range s.MapOutputs {
				written[m.Slot.V] = true
			}
		}
	}
	if len(written) == 0 {
		return false
	}
	exits := map[*syntax.Step]bool{}
	for _, i := range comp {
		s := f.Steps[i]
		if s.Kind != ir.KindWhile && s.Kind != ir.KindBranch {
			continue
		}
		for _, j := range succ[i] {
			if j < 0 || !inComp[j] {
				exits[s] = true
				break
			}
		}
		if exits[s] && s.Kind == ir.KindBranch && s.Slot.Set && written[s.Slot.V] {
			return true
		}
	}
	if len(exits) == 0 {
		return false
	}
	for s := range exits {
		for _, u := range exprs[s] {
			if u.Src.Pos != s.Condition.Pos && u.Src.Pos != s.Evaluate.Pos {
				continue
			}
			for _, name := range u.Refs {
				if written[name] {
					return true
				}
			}
		}
	}
	return false
}

// reportLoop reports a cycle at its first step in the file, naming its
// steps in file order.
func reportLoop(c *checker, f *syntax.Flow, comp []int) {
	steps := make([]*syntax.Step, len(comp))
	for k, i := range comp {
		steps[k] = f.Steps[i]
	}
	sort.SliceStable(steps, func(a, b int) bool { return steps[a].Pos.Before(steps[b].Pos) })
	first := steps[0]
	if len(steps) == 1 {
		c.ds.Add(first.Pos, diag.CodeInputlessLoop, first.Path,
			"%s runs itself again without ever waiting for the user, so a turn may loop forever: add a collect or confirm to the loop, or make a condition in it depend on a slot the loop changes",
			stepDesc(first))
		return
	}
	names := make([]string, len(steps))
	for k, s := range steps {
		names[k] = s.ID.V
	}
	d := c.ds.Add(first.Pos, diag.CodeInputlessLoop, first.Path,
		"steps %s of flow %q form a loop that never waits for the user, so a turn may loop forever: add a collect or confirm to the loop, or make a condition in it depend on a slot the loop changes",
		quoteList(names), f.Name.V)
	// A collect in the loop does not wait once its slot holds a value: the
	// usual fix of a menu that jumps back to its question.
	for _, s := range steps {
		if s.Kind == ir.KindCollect && s.Slot.Set {
			d.Suggestion = fmt.Sprintf("collect %q asks only while %q is unset: give it force: true, or clear the slot with a set of %s: null in the loop", s.ID.V, s.Slot.V, s.Slot.V)
			break
		}
	}
}
