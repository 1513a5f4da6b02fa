package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_read_only_slots reports a pattern flow that collects, sets or maps
// an action output into one of the read-only slots the VM gives it when
// it starts (E042): its context and the context's keys.
func checkReadOnlySlots(c *checker) {
	for _, f := range c.p.Flows {
		if !ir.IsPattern(f.Name.V) {
			continue
		}
		report := func(name syntax.Str, how string) {
			if s := f.SlotsByName[name.V]; s != nil && s.ReadOnly && c.p.slots[name.V] == nil {
				c.ds.Add(name.Pos, diag.CodeReadOnlySlot, name.Path,
					"%s %q: it is a read-only slot of %s, filled by soni when the pattern starts: use another slot name", how, name.V, f.Name.V)
			}
		}
		for _, s := range f.Steps {
			switch s.Kind {
			case ir.KindCollect:
				report(s.Slot, "collect of slot")
			case ir.KindSet:
				for _, a := range s.Assign {
					report(a.Slot, "set of slot")
				}
			case ir.KindAction:
				for _, m := range s.MapOutputs {
					report(m.Slot, "map_outputs into slot")
				}
			}
		}
	}
}
