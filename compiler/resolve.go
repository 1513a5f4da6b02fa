package compiler

import (
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// resolve builds the project's indexes (first definition wins; duplicates
// are reported by their check), the per-flow step and slot indexes,
// implicit flow slots, and while-body membership.
func (p *project) resolve() {
	p.slots = make(map[string]*syntax.Slot, len(p.Slots))
	for _, s := range p.Slots {
		if _, dup := p.slots[s.Name.V]; !dup {
			p.slots[s.Name.V] = s
		}
	}
	p.actions = make(map[string]*syntax.Action, len(p.Actions))
	for _, a := range p.Actions {
		if _, dup := p.actions[a.Name.V]; !dup {
			p.actions[a.Name.V] = a
		}
	}
	p.validators = make(map[string]*syntax.Action, len(p.Validators))
	for _, a := range p.Validators {
		if _, dup := p.validators[a.Name.V]; !dup {
			p.validators[a.Name.V] = a
		}
	}
	p.flows = make(map[string]*syntax.Flow, len(p.Flows))
	for _, f := range p.Flows {
		if _, dup := p.flows[f.Name.V]; !dup {
			p.flows[f.Name.V] = f
		}
	}
	p.responses = make(map[string]*syntax.Response, len(p.Responses))
	for _, r := range p.Responses {
		if _, dup := p.responses[r.Name.V]; !dup {
			p.responses[r.Name.V] = r
		}
	}
	for _, f := range p.Flows {
		resolveFlow(f, p)
	}
}

func resolveFlow(f *syntax.Flow, p *project) {
	for _, s := range f.Steps {
		if s.ID.Set {
			if _, dup := f.StepsByID[s.ID.V]; !dup {
				f.StepsByID[s.ID.V] = s
			}
		}
	}
	for _, s := range f.Slots {
		if _, dup := f.SlotsByName[s.Name.V]; !dup && s.Name.Set {
			f.SlotsByName[s.Name.V] = s
		}
	}
	if ir.IsPattern(f.Name.V) {
		// A pattern flow reads its context as read-only slots.
		add := func(name string, t ir.SlotType) {
			if p.Visible(f, name) != nil {
				return
			}
			s := &syntax.Slot{Name: syntax.Str{V: name, Pos: f.Pos, Set: true}, Resolved: t, Flow: f, Implicit: true, ReadOnly: true, Pos: f.Pos, Path: f.Path}
			f.SlotsByName[name] = s
			f.Slots = append(f.Slots, s)
		}
		add(ir.ContextSlot, ir.TypeAny)
		for _, ps := range ir.PatternSlots[f.Name.V] {
			add(ps.Name, ps.Type)
		}
	}
	implicit := func(name syntax.Str) {
		if !name.Set || name.V == "" || p.Visible(f, name.V) != nil {
			return
		}
		s := &syntax.Slot{Name: name, Resolved: ir.TypeAny, Flow: f, Implicit: true, Pos: name.Pos, Path: name.Path}
		f.SlotsByName[name.V] = s
		f.Slots = append(f.Slots, s)
	}
	for _, s := range f.Steps {
		switch s.Kind {
		case ir.KindCollect:
			implicit(s.Slot)
		case ir.KindSet:
			for _, a := range s.Assign {
				implicit(a.Slot)
			}
		case ir.KindAction:
			for _, m := range s.MapOutputs {
				implicit(m.Slot)
			}
		}
	}
	for _, s := range f.Steps {
		if s.Kind != ir.KindWhile {
			continue
		}
		for _, e := range s.Do {
			if e.Step == nil {
				e.Step = f.StepsByID[e.Ref.V]
			}
			if e.Step != nil && e.Step.Loop == nil && e.Step != s {
				e.Step.Loop = s
			}
		}
	}
}

// target resolves a jump target of a flow to a step index, ir.End for
// __end__, or -2 when unknown.
func flowTarget(f *syntax.Flow, name string) int {
	if name == ir.EndStep {
		return ir.End
	}
	if s := f.StepsByID[name]; s != nil {
		return s.Index
	}
	return -2
}

// Unknown is the index returned for an unresolvable target.
const unknownTarget = -2
