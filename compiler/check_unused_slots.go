package compiler

import (
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// check_unused_slots warns about a declared slot that is never used (W004):
// a conversation slot or a flow slot from a flow's slots list (implicit flow
// slots exist only because they are used). A slot is used when a step
// collects, sets, maps, branches on or confirms it, when an action lists it
// as an input, or when a template or expression reads it, including other
// slots' validations and invalid messages (a slot's own validation and
// invalid message do not count), and a message setting such as
// action_error_message that reads it by name. A flow slot hidden by a conversation slot
// of the same name can never be used, and the warning says so. Only the
// first of duplicate declarations is considered; the others are errors.
func checkUnusedSlots(c *checker) {
	used := map[*syntax.Slot]bool{}
	mark := func(f *syntax.Flow, name string) {
		if s := c.p.Visible(f, name); s != nil {
			used[s] = true
		}
	}
	markStr := func(f *syntax.Flow, s syntax.Str) {
		if s.Set {
			mark(f, s.V)
		}
	}
	for _, a := range c.p.Actions {
		for _, in := range a.Inputs {
			mark(nil, in.V)
		}
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Steps {
			switch s.Kind {
			case ir.KindCollect, ir.KindBranch, ir.KindConfirm:
				markStr(f, s.Slot)
			case ir.KindSet:
				for _, a := range s.Assign {
					markStr(f, a.Slot)
				}
			case ir.KindAction:
				for _, m := range s.MapOutputs {
					markStr(f, m.Slot)
				}
				if a := c.p.Action(s.Call.V); a != nil {
					for _, in := range a.Inputs {
						mark(f, in.V)
					}
				}
			}
		}
	}
	// Templates and expressions. A slot's own invalid message and
	// validation are found by position and do not count as uses.
	owner := map[diag.Pos]*syntax.Slot{}
	own := func(s *syntax.Slot) {
		if s.Invalid.Set {
			owner[s.Invalid.Pos] = s
		}
	}
	for _, s := range c.p.Slots {
		own(s)
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Slots {
			own(s)
		}
	}
	for _, u := range c.tmpls {
		if u.Setting {
			// A message setting reads the slot of that name in
			// whatever flow is running.
			for _, name := range u.Refs {
				if s := c.p.Slot(name); s != nil {
					used[s] = true
				}
				for _, f := range c.p.Flows {
					if s := f.SlotsByName[name]; s != nil {
						used[s] = true
					}
				}
			}
			continue
		}
		self := (*syntax.Slot)(nil)
		if u.Step == nil {
			self = owner[u.Src.Pos]
		}
		for _, name := range u.Refs {
			if s := c.p.Visible(u.Flow, name); s != nil && s != self {
				used[s] = true
			}
		}
	}
	for _, u := range c.exprs {
		self := (*syntax.Slot)(nil)
		if u.Step == nil {
			self = u.Value
		}
		for _, name := range u.Refs {
			if s := c.p.Visible(u.Flow, name); s != nil && s != self {
				used[s] = true
			}
		}
	}
	for _, s := range c.p.Slots {
		if used[s] || c.p.Slot(s.Name.V) != s || s.Name.V == ir.LanguageSlot {
			// The language slot is the session's language, which the
			// responses' translations read.
			continue
		}
		c.ds.Add(s.Name.Pos, diag.CodeUnusedSlot, s.Path,
			"slot %q is declared but never used: collect, set or read it in a flow, or remove its declaration", s.Name.V)
	}
	for _, f := range c.p.Flows {
		for _, s := range f.Slots {
			if s.Implicit || !s.Name.Set || used[s] || f.SlotsByName[s.Name.V] != s {
				continue
			}
			if c.p.Slot(s.Name.V) != nil {
				c.ds.Add(s.Name.Pos, diag.CodeUnusedSlot, s.Path,
					"slot %q of flow %q can never be used: the conversation slot %q hides it; rename it or remove its declaration",
					s.Name.V, f.Name.V, s.Name.V)
				continue
			}
			c.ds.Add(s.Name.Pos, diag.CodeUnusedSlot, s.Path,
				"slot %q of flow %q is declared but never used: collect, set or read it in the flow, or remove its declaration", s.Name.V, f.Name.V)
		}
	}
}
