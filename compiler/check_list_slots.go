package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_list_slots reports list slot declarations that cannot work
// (language.md §4.2), each an invalid value (E014):
//
//   - min_items or max_items on a slot that is not a list: the bound
//     would be ignored;
//   - min_items greater than max_items: no list could ever be stored;
//   - an empty values list or map on a list slot: no item could ever be
//     stored (a list slot without values takes any items of text);
//   - min or max on a list slot, which bound numbers, not items.
func checkListSlots(c *checker) {
	for _, s := range c.p.declaredSlots() {
		if s.Resolved != ir.TypeList {
			for _, b := range []struct {
				key string
				n   syntax.Count
			}{{"min_items", s.MinItems}, {"max_items", s.MaxItems}} {
				if b.n.Set {
					c.ds.Add(b.n.Pos, diag.CodeInvalidValue, syntax.Join(s.Path, b.key),
						"%s of slot %q is ignored: only a list slot counts items, and %q is of type %s; write type: list or remove %s",
						b.key, s.Name.V, s.Name.V, s.Resolved, b.key)
				}
			}
			continue
		}
		if s.MinItems.Set && s.MaxItems.Set && s.MinItems.V > s.MaxItems.V {
			c.ds.Add(s.MinItems.Pos, diag.CodeInvalidValue, syntax.Join(s.Path, "min_items"),
				"list slot %q has min_items %d greater than max_items %d, so no list can ever be stored: swap them or fix one",
				s.Name.V, s.MinItems.V, s.MaxItems.V)
		}
		if s.ValuesSet && len(s.Values) == 0 {
			c.ds.Add(s.Pos, diag.CodeInvalidValue, syntax.Join(s.Path, "values"),
				"list slot %q has empty values, so no item can ever be stored: list its values, or remove values to take any items", s.Name.V)
		}
		if s.Min != nil || s.Max != nil {
			c.ds.Add(s.Pos, diag.CodeInvalidValue, s.Path,
				"list slot %q has min or max, which bound numbers: write min_items or max_items to bound its number of items", s.Name.V)
		}
	}
}
