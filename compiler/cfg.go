package compiler

import "github.com/soni-dev/soni/ir"

// listNext is where control goes after s when it does not jump: the next
// entry of its while body (or back to the while after the last), else the
// next top-level step, else the end of the flow.
func (f *flow) listNext(s *step) int {
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
func (f *flow) next(s *step) int {
	if s.JumpTo.Set {
		return f.target(s.JumpTo.V)
	}
	return f.listNext(s)
}

// whileExit is where a while goes when its condition is false: exit_to,
// else jump_to, else the first top-level step after it that is not part of
// its body.
func (f *flow) whileExit(w *step) int {
	if w.ExitTo.Set {
		return f.target(w.ExitTo.V)
	}
	if w.JumpTo.Set {
		return f.target(w.JumpTo.V)
	}
	if w.Inline {
		return f.listNext(w)
	}
	for i := w.Index + 1; i < f.Main; i++ {
		if f.Steps[i].Loop != w {
			return i
		}
	}
	return ir.End
}

// whileBody is the first node of a while's body, or its exit when empty.
func (f *flow) whileBody(w *step) int {
	if len(w.Do) > 0 && w.Do[0].Step != nil {
		return w.Do[0].Step.Index
	}
	return f.whileExit(w)
}

// optTarget resolves an optional target; ok is false when it is absent.
func (f *flow) optTarget(s posStr) (int, bool) {
	if !s.Set {
		return 0, false
	}
	return f.target(s.V), true
}

// successors lists every index control may reach from s within its flow,
// ir.End included. Unknown targets are left out.
func (f *flow) successors(s *step) []int {
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
	orEnd := func(t posStr) {
		if i, ok := f.optTarget(t); ok {
			add(i)
		} else {
			add(ir.End)
		}
	}
	switch s.Kind {
	case ir.KindLink:
		add(ir.End)
	case ir.KindCollect:
		add(f.next(s))
		orEnd(s.OnInvalid)
	case ir.KindBranch:
		hasDefault := false
		for _, c := range s.Cases {
			add(f.target(c.Target.V))
			if c.Pattern.V == "default" {
				hasDefault = true
			}
		}
		if !hasDefault {
			add(f.next(s))
		}
	case ir.KindWhile:
		add(f.whileBody(s))
		add(f.whileExit(s))
	case ir.KindAction:
		add(f.next(s))
		orEnd(s.OnError)
	case ir.KindConfirm:
		if i, ok := f.optTarget(s.OnConfirm); ok {
			add(i)
		} else {
			add(f.next(s))
		}
		orEnd(s.OnDeny)
	default:
		add(f.next(s))
	}
	return out
}
