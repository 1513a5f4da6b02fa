package compiler

import (
	"strings"

	"github.com/soni-dev/soni/ir"

	"github.com/soni-dev/soni/diag"
)

// check_outputs reports a map_outputs key that is not among the outputs of
// the declared action the step calls (E036). Steps calling an undeclared
// action are left alone: that is a warning of its own.
func checkOutputs(c *checker) {
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if s.Kind != ir.KindAction || len(s.MapOutputs) == 0 {
				continue
			}
			a := c.p.Action(s.Call.V)
			if a == nil {
				continue
			}
			var outs []string
			for _, o := range a.Outputs {
				outs = append(outs, o.V)
			}
			for _, m := range s.MapOutputs {
				if !m.Output.Set || hasString(outs, m.Output.V) {
					continue
				}
				if len(outs) == 0 {
					c.ds.Add(m.Output.Pos, diag.CodeUnknownOutput, m.Output.Path,
						"action %q declares no outputs, so map_outputs cannot read %q: add it to the action's outputs", a.Name.V, m.Output.V)
					continue
				}
				quoted := make([]string, len(outs))
				for i, o := range outs {
					quoted[i] = quote(o)
				}
				d := c.ds.Add(m.Output.Pos, diag.CodeUnknownOutput, m.Output.Path,
					"action %q has no output %q: use one of its outputs %s, or declare it", a.Name.V, m.Output.V, strings.Join(quoted, ", "))
				suggestInto(d, m.Output.V, outs)
			}
		}
	}
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
