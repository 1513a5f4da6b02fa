package compiler

import (
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// listNext is where control goes after s when it does not jump: the next
// entry of its while body (or back to the while after the last), else the
// next top-level step, else the end of the flow.
func flowListNext(f *syntax.Flow, s *syntax.Step) int {
	if w := s.Loop; w != nil {
		for i, e := range w.Do {
			if e.Step == s {
				if i+1 < len(w.Do) && w.Do[i+1].Step != nil {
					return w.Do[i+1].Step.Index
				}
				return w.Index
			}
		}
	}
	if !s.Inline && s.Index+1 < f.Main {
		return s.Index + 1
	}
	return ir.End
}

// next is the successor of a step that has run normally: its jump_to, or
// the next step in list order.
func flowNext(f *syntax.Flow, s *syntax.Step) int {
	if s.JumpTo.Set {
		return flowTarget(f, s.JumpTo.V)
	}
	return flowListNext(f, s)
}

// whileExit is where a while goes when its condition is false: exit_to,
// else jump_to, else the first top-level step after it that is not part of
// its body.
func flowWhileExit(f *syntax.Flow, w *syntax.Step) int {
	if w.ExitTo.Set {
		return flowTarget(f, w.ExitTo.V)
	}
	if w.JumpTo.Set {
		return flowTarget(f, w.JumpTo.V)
	}
	if w.Inline {
		return flowListNext(f, w)
	}
	for i := w.Index + 1; i < f.Main; i++ {
		if f.Steps[i].Loop != w {
			return i
		}
	}
	return ir.End
}

// whileBody is the first node of a while's body, or its exit when empty.
func flowWhileBody(f *syntax.Flow, w *syntax.Step) int {
	if len(w.Do) > 0 && w.Do[0].Step != nil {
		return w.Do[0].Step.Index
	}
	return flowWhileExit(f, w)
}

// optTarget resolves an optional target; ok is false when it is absent.
func flowOptTarget(f *syntax.Flow, s syntax.Str) (int, bool) {
	if !s.Set {
		return 0, false
	}
	return flowTarget(f, s.V), true
}

// successors lists every index control may reach from s within its flow,
// ir.End included. Unknown targets are left out.
func flowSuccessors(f *syntax.Flow, s *syntax.Step) []int {
	var out []int
	add := func(i int) {
		if i == unknownTarget {
			return
		}
		for _, j := range out {
			if j == i {
				return
			}
		}
		out = append(out, i)
	}
	orEnd := func(t syntax.Str) {
		if i, ok := flowOptTarget(f, t); ok {
			add(i)
		} else {
			add(ir.End)
		}
	}
	switch s.Kind {
	case ir.KindLink:
		add(ir.End)
	case ir.KindCollect:
		add(flowNext(f, s))
		orEnd(s.OnInvalid)
	case ir.KindBranch:
		hasDefault := false
		for _, c := range s.Cases {
			add(flowTarget(f, c.Target.V))
			if c.Pattern.V == "default" {
				hasDefault = true
			}
		}
		if !hasDefault {
			add(flowNext(f, s))
		}
	case ir.KindWhile:
		add(flowWhileBody(f, s))
		add(flowWhileExit(f, s))
	case ir.KindAction:
		add(flowNext(f, s))
		orEnd(s.OnError)
	case ir.KindConfirm:
		if i, ok := flowOptTarget(f, s.OnConfirm); ok {
			add(i)
		} else {
			add(flowNext(f, s))
		}
		orEnd(s.OnDeny)
	default:
		add(flowNext(f, s))
	}
	return out
}
