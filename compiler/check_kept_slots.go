package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// check_kept_slots warns about a conversation (top-level) slot that a flow
// collects and never clears (W017). A conversation slot keeps its value
// when the flow ends, so the next run of the flow skips the question and
// uses the old value: a second transfer goes straight to confirming the
// first one's recipient and amount. The Python framework dropped
// top-level slots, so files migrated from it meet this often. The fix is
// to declare the slot in the flow (cleared when the flow ends) or to
// clear it (set it to null); a slot meant to outlive the flow, such as the
// customer's account, is acknowledged with "# soni:ignore W017". A collect
// with force: true asks every time and is not reported.
func checkKeptSlots(c *checker) {
	for _, f := range c.p.Flows {
		cleared := map[string]bool{}
		for _, s := range f.Steps {
			if s.Kind != ir.KindSet {
				continue
			}
			for _, a := range s.Assign {
				if a.Kind == ir.AssignClear {
					cleared[a.Slot.V] = true
				}
			}
		}
		reported := map[string]bool{}
		for _, s := range f.Steps {
			if s.Kind != ir.KindCollect || !s.Slot.Set || s.Force || reported[s.Slot.V] || cleared[s.Slot.V] {
				continue
			}
			if f.SlotsByName[s.Slot.V] != nil || c.p.Slot(s.Slot.V) == nil {
				continue // a flow slot, or unknown (reported elsewhere)
			}
			reported[s.Slot.V] = true
			c.ds.Add(s.Slot.Pos, diag.CodeKeptSlot, s.Slot.Path,
				"conversation slot %q keeps its value when flow %q ends, so the next run skips this question and reuses the old answer: declare the slot in the flow's slots, or clear it at the end (set %s: null); if it should outlive the flow, add # soni:ignore W017",
				s.Slot.V, f.Name.V, s.Slot.V)
		}
	}
}
