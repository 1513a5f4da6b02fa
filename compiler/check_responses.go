package compiler

import (
	"slices"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/payload"
	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/values"
)

// check_responses checks the responses themselves: a response nothing
// says (W018); a variation condition on a slot no flow has (E032; the
// read-only slots of the patterns count: utter_greet may depend on
// pattern_chitchat's question_pending); and a
// button whose payload is malformed or names a slot, a value or a flow
// the project does not have (E041).
func checkResponses(c *checker) {
	for _, r := range c.p.Responses {
		if c.p.responses[r.Name.V] != r {
			continue
		}
		if len(c.respUses[r.Name.V]) == 0 && !slices.Contains(ir.DefaultResponses, r.Name.V) {
			c.ds.Add(r.Name.Pos, diag.CodeUnusedResponse, r.Path,
				"response %q is never said: say it from a step with response: %s, or remove it", r.Name.V, r.Name.V)
		}
		for _, v := range r.Variations {
			for _, cond := range v.Condition {
				if cond.Name.Set && c.slotAnywhere(cond.Name.V) == nil && !isPatternSlotName(cond.Name.V) {
					d := c.ds.Add(cond.Name.Pos, diag.CodeUnknownSlot, cond.Name.Path,
						"unknown slot %q in a condition of response %q: no flow has this slot", cond.Name.V, r.Name.V)
					suggestInto(d, cond.Name.V, c.allSlotNames())
				}
			}
			for _, b := range v.Buttons {
				if b.Payload.Set {
					c.payload(b.Payload)
				}
			}
		}
	}
}

// isPatternSlotName reports whether name is a read-only slot of some
// pattern: context, reason, question_pending...
func isPatternSlotName(name string) bool {
	for _, p := range ir.Patterns {
		if ir.IsPatternSlot(p, name) {
			return true
		}
	}
	return false
}

// payload checks a button's payload.
func (c *checker) payload(ps syntax.Str) {
	p, err := payload.Parse(ps.V)
	if err != nil {
		c.ds.Add(ps.Pos, diag.CodeBadPayload, ps.Path, "%v", err)
		return
	}
	switch p.Kind {
	case payload.Command:
		if p.Name == "start" && c.p.Flow(p.Flow) == nil {
			d := c.ds.Add(ps.Pos, diag.CodeBadPayload, ps.Path, "payload %q starts flow %q, which the project does not have", ps.V, p.Flow)
			suggestInto(d, p.Flow, sortedKeys(c.p.flows))
			return
		}
	case payload.Intent:
		if len(p.Slots) == 0 && c.p.Flow(p.Name) == nil && !c.triggerNamed(p.Name) {
			d := c.ds.Add(ps.Pos, diag.CodeBadPayload, ps.Path,
				"payload %q names intent %q, which is no flow's name or trigger, and sets no slot: it would not be understood", ps.V, p.Name)
			suggestInto(d, p.Name, sortedKeys(c.p.flows))
			return
		}
	}
	for _, sv := range p.Slots {
		def := c.slotAnywhere(sv.Name)
		if def == nil {
			d := c.ds.Add(ps.Pos, diag.CodeBadPayload, ps.Path, "payload %q sets slot %q, which no flow has", ps.V, sv.Name)
			suggestInto(d, sv.Name, c.allSlotNames())
			continue
		}
		if sv.Value == nil {
			continue
		}
		if _, err := values.Convert(lowerSlot(def), sv.Value); err != nil {
			c.ds.Add(ps.Pos, diag.CodeBadPayload, ps.Path, "payload %q sets slot %q to %v, which it cannot hold: %v", ps.V, sv.Name, sv.Value, err)
		}
	}
}

// triggerNamed reports whether some flow lists name as a trigger phrase.
func (c *checker) triggerNamed(name string) bool {
	for _, f := range c.p.Flows {
		for _, t := range f.Triggers {
			if t.V == name {
				return true
			}
		}
	}
	return false
}

// slotAnywhere returns the conversation slot of that name, else the first
// flow slot of that name in flow order, else nil.
func (c *checker) slotAnywhere(name string) *syntax.Slot {
	if s := c.p.slots[name]; s != nil {
		return s
	}
	for _, f := range c.p.Flows {
		if s := f.SlotsByName[name]; s != nil {
			return s
		}
	}
	return nil
}

// allSlotNames returns every slot name of the project, sorted, for
// suggestions.
func (c *checker) allSlotNames() []string {
	seen := map[string]bool{}
	for name := range c.p.slots {
		seen[name] = true
	}
	for _, f := range c.p.Flows {
		for name := range f.SlotsByName {
			seen[name] = true
		}
	}
	return sortedKeys(seen)
}
