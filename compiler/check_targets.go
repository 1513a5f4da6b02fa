package compiler

import (
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_targets reports jump targets that name no step of their flow
// (E030): jump_to, branch case targets, on_confirm, on_deny, exit_to,
// on_error, on_invalid, and the step ids a while's do list refers to. A
// jump may also go to __end__; a do entry may not. Fields are checked only
// on the step types that have them: the schema reports the others.
func checkTargets(c *checker) {
	for _, f := range c.p.Flows {
		var ids []string // built on the first error only
		candidates := func(end bool) []string {
			if ids == nil {
				ids = append(stepIDs(f), ir.EndStep)
			}
			if end {
				return ids
			}
			return ids[:len(ids)-1]
		}
		jump := func(t syntax.Str, field string) {
			if !t.Set || flowTarget(f, t.V) != unknownTarget {
				return
			}
			d := c.ds.Add(t.Pos, diag.CodeUnknownTarget, t.Path,
				"unknown jump target %q in %s: flow %q has no step with this id (use one of its step ids, or %q to end the flow)", t.V, field, f.Name.V, ir.EndStep)
			if strings.Trim(strings.ToLower(strings.TrimSpace(t.V)), "_") == "end" {
				// END, end, __END__: the flow's end is spelt __end__.
				d.Suggestion = "did you mean " + quote(ir.EndStep) + "?"
				return
			}
			suggestInto(d, t.V, candidates(true))
		}
		for _, s := range f.Steps {
			jump(s.JumpTo, "jump_to")
			switch s.Kind {
			case ir.KindCollect:
				jump(s.OnInvalid, "on_invalid")
			case ir.KindBranch:
				for _, cs := range s.Cases {
					jump(cs.Target, "the case "+quote(cs.Pattern.V))
				}
			case ir.KindWhile:
				jump(s.ExitTo, "exit_to")
				for _, e := range s.Do {
					if e.Step != nil || !e.Ref.Set {
						continue
					}
					d := c.ds.Add(e.Ref.Pos, diag.CodeUnknownTarget, e.Ref.Path,
						"unknown step %q in the do list of while %q: flow %q has no step with this id", e.Ref.V, s.ID.V, f.Name.V)
					suggestInto(d, e.Ref.V, candidates(false))
				}
			case ir.KindAction:
				jump(s.OnError, "on_error")
			case ir.KindConfirm:
				jump(s.OnConfirm, "on_confirm")
				jump(s.OnDeny, "on_deny")
			}
		}
	}
}
