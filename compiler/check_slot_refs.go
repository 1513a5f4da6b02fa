package compiler

import (
	"fmt"
	"sort"
	"strings"

	"github.com/soni-dev/soni/ir"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/syntax"
)

// check_slot_refs reports slots used where the flow cannot see them (E032):
// in templates and expressions, as the slot of a branch or confirm step, as
// an action input that is no slot anywhere in the project, and as the
// target of a set or map_outputs that is not declared but is one or two
// edits away from a declared slot (a typo that would otherwise silently
// create a new implicit flow slot).
func checkSlotRefs(c *checker) {
	for _, u := range c.tmpls {
		for _, part := range u.Unknown {
			off := part.Offset + 1
			runes := []rune(u.Src.V)
			for off < len(runes) && (runes[off] == ' ' || runes[off] == '\t') {
				off++
			}
			line, col := runeLineCol(u.Src.V, off)
			where := "template"
			if u.Via != nil && u.Flow != nil {
				where = fmt.Sprintf("response %q, which flow %q says", u.Via.Name.V, u.Flow.Name.V)
			}
			d := c.ds.Add(u.Src.At(line, col), diag.CodeUnknownSlot, u.Src.Path,
				"unknown slot %q in %s: %s", part.Slot, where, c.unknownSlotHint(u.Flow, part.Slot))
			suggestInto(d, part.Slot, c.visibleNames(u.Flow))
		}
	}
	for _, u := range c.exprs {
		for _, n := range u.Unknown {
			hint := c.unknownSlotHint(u.Flow, n.Name)
			if n.Name == "value" {
				hint = `"value" is defined only in a slot's validation and a collect step's validator`
			}
			d := c.ds.Add(u.Src.At(n.Line, n.Col), diag.CodeUnknownSlot, u.Src.Path,
				"unknown slot %q in %s: %s", n.Name, exprWhat(u), hint)
			if lit, ok := pythonLiterals[n.Name]; ok && !c.visible(u.Flow, n.Name) {
				// Python's True, False and None.
				d.Suggestion = "did you mean " + quote(lit) + "?"
				continue
			}
			suggestInto(d, n.Name, c.visibleNames(u.Flow))
			if d.Suggestion == "" && n.Compared && hint == declareHint(u.Flow) {
				d.Suggestion = "to compare with the text " + n.Name + ", put it in quotes: '" + n.Name + "'"
			}
		}
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			switch s.Kind {
			case ir.KindBranch, ir.KindConfirm:
				if s.Slot.Set && !c.visible(f, s.Slot.V) {
					hint := c.unknownSlotHint(f, s.Slot.V)
					if s.Kind == ir.KindConfirm && hint == declareHint(f) && confirmLabel(s.Slot.V, c.visibleNames(f)) {
						// The Python framework's flows often name a slot for
						// the answer (transfer_confirmed), which nothing sets:
						// there it is only a label. A warning, and the VM
						// never treats it as a correction target.
						d := c.ds.Add(s.Slot.Pos, diag.CodeConfirmLabel, s.Slot.Path,
							"slot %q of this confirm is declared and set nowhere: the Python framework used it only as a label, and so does soni: the confirmation is asked, the slot never holds the answer and is never a correction target; name the slot the confirmation is about, or declare it", s.Slot.V)
						suggestInto(d, s.Slot.V, c.visibleNames(f))
						continue
					}
					if s.Kind == ir.KindConfirm && hint == declareHint(f) {
						hint = confirmSlotHint
					}
					d := c.ds.Add(s.Slot.Pos, diag.CodeUnknownSlot, s.Slot.Path,
						"unknown slot %q in %s: %s", s.Slot.V, s.Type.V, hint)
					suggestInto(d, s.Slot.V, c.visibleNames(f))
				}
			case ir.KindSet:
				for _, a := range s.Assign {
					c.slotTypo(f, a.Slot, "set")
				}
			case ir.KindAction:
				for _, m := range s.MapOutputs {
					c.slotTypo(f, m.Slot, "map_outputs")
				}
			}
		}
	}
	c.actionInputs()
}

// pythonLiterals are the literals a Python condition would use, with the
// expr literal that means the same.
var pythonLiterals = map[string]string{"True": "true", "TRUE": "true", "False": "false", "FALSE": "false", "None": "nil", "null": "nil", "NULL": "nil"}

// confirmSlotHint says what a confirm's slot is, for a confirm of a slot
// nothing defines.
// unknownSlotHint says how to fix a reference from flow f (nil: a
// conversation slot's own template or validation) to a slot it cannot see.
// A slot of other flows is private to them, which is not obvious to an
// author who sees it declared or collected a few lines away; the hint names
// the flow and says how to share it.
func (c *checker) unknownSlotHint(f *syntax.Flow, name string) string {
	var owners []string
	for _, g := range c.p.Flows {
		if g != f && g.SlotsByName[name] != nil && c.p.Flow(g.Name.V) == g {
			owners = append(owners, quote(g.Name.V))
		}
	}
	switch len(owners) {
	case 0:
		return declareHint(f)
	case 1:
		return fmt.Sprintf("it is a slot of flow %s, and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows", owners[0])
	}
	return fmt.Sprintf("it is a slot of flows %s, and a flow slot is seen only by its own flow: declare it in the top-level slots to share it between flows", strings.Join(owners, ", "))
}

func declareHint(f *syntax.Flow) string {
	if f == nil {
		return "declare it in the top-level slots, or fix its name"
	}
	return "declare it in the top-level slots or the flow's slots, or fix its name"
}

// slotTypo reports a set or map_outputs target that made an implicit flow
// slot and is at most two edits away from a declared slot the flow sees,
// and at most one edit per three letters of the name, so that short
// distinct words such as count and amount are not taken for typos.
func (c *checker) slotTypo(f *syntax.Flow, name syntax.Str, where string) {
	if !name.Set || !isIdentName(name.V, false) {
		return
	}
	s := c.p.Visible(f, name.V)
	if s == nil || !s.Implicit {
		return
	}
	best, bestD := "", 3
	consider := func(cand *syntax.Slot) {
		if cand.Implicit || !cand.Name.Set {
			return
		}
		n := cand.Name.V
		// At most two edits, and few for the name's length: "amout" for
		// "amount" is a typo, "count" for "amount" is another word.
		d := suggest.Levenshtein(name.V, n)
		if d == 0 || d > 2 || 3*d > len(name.V) {
			return
		}
		if d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	for _, cand := range c.p.Slots {
		consider(cand)
	}
	for _, cand := range f.Slots {
		if c.p.Slot(cand.Name.V) == nil {
			consider(cand)
		}
	}
	if best == "" {
		return
	}
	d := c.ds.Add(name.Pos, diag.CodeUnknownSlot, name.Path,
		"unknown slot %q in %s: to create a new flow slot, declare it in the flow's slots", name.V, where)
	d.Suggestion = "did you mean " + quote(best) + "?"
}

// actionInputs reports an action input that is no conversation slot and no
// slot of any flow. An action that no step calls can never run: its
// unknown inputs are a warning (W005, with the unused action), as the
// Python framework, which never checked them, let such files load.
func (c *checker) actionInputs() {
	var all map[string]bool
	var names []string
	called := map[string]bool{}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			if a := s.Calls(); a.Set {
				called[a.V] = true
			}
		}
	}
	for _, a := range c.p.Actions {
		for _, in := range a.Inputs {
			if !in.Set || c.p.Slot(in.V) != nil {
				continue
			}
			if all == nil {
				all = map[string]bool{}
				for _, s := range c.p.Slots {
					all[s.Name.V] = true
				}
				for _, f := range c.p.Flows {
					for _, s := range f.Slots {
						all[s.Name.V] = true
					}
				}
				for n := range all {
					names = append(names, n)
				}
				sort.Strings(names)
			}
			if all[in.V] {
				continue
			}
			if !called[a.Name.V] {
				d := c.ds.Add(in.Pos, diag.CodeUnusedAction, in.Path,
					"unknown slot %q in the inputs of action %q, which no step calls: declare the slot or fix its name before calling the action, or remove the declaration", in.V, a.Name.V)
				suggestInto(d, in.V, names)
				continue
			}
			d := c.ds.Add(in.Pos, diag.CodeUnknownSlot, in.Path,
				"unknown slot %q in the inputs of action %q: no conversation slot or flow slot has this name", in.V, a.Name.V)
			suggestInto(d, in.V, names)
		}
	}
}

const confirmSlotHint = "a confirm asks the user to check a value the flow already has and does not store the answer: name a slot that is collected, set or mapped from an action before it, or fix its name"

// confirmLabel reports whether the unknown slot of a confirm is a label for
// the answer, as the Python framework's flows write them
// (transfer_confirmed), rather than a typo of a slot the flow has: its name
// says confirmed or confirmation, or no visible slot is within two edits
// of it.
func confirmLabel(name string, visible []string) bool {
	l := strings.ToLower(name)
	if strings.HasSuffix(l, "confirmed") || strings.HasSuffix(l, "confirmation") {
		return true
	}
	for _, v := range visible {
		if suggest.Levenshtein(l, strings.ToLower(v)) <= 2 {
			return false
		}
	}
	return true
}
