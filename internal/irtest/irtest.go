// Package irtest builds IR programs by hand for tests: steps, flows and
// programs with default settings, without the compiler.
package irtest

import (
	"fmt"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// Step builds one step of a test flow. Jump targets are step ids, resolved
// when the flow is built; "" means the default (the next step).
type Step struct {
	// N is the node being built.
	N *ir.Node
	// Jump is the step that follows (the next one when empty), and the
	// others the targets of the node's other edges, by step id.
	Jump, OnInvalid, OnError, OnConfirm, OnDeny, Exit, Body string
	// Cases are a branch's (pattern, target step) pairs.
	Cases [][2]string
}

func NewStep(id string, kind ir.Kind) *Step { return &Step{N: &ir.Node{ID: id, Kind: kind}} }

func Tpl(s string) *ir.Template { return &ir.Template{Src: s} }

func Ex(s string) *ir.Expr { return &ir.Expr{Src: s} }

func Say(id, msg string) *Step {
	s := NewStep(id, ir.KindSay)
	s.N.Message = Tpl(msg)
	return s
}

func Collect(id, slot, msg string) *Step {
	s := NewStep(id, ir.KindCollect)
	s.N.Slot, s.N.Message = slot, Tpl(msg)
	return s
}

func Confirm(id, slot, msg string) *Step {
	s := NewStep(id, ir.KindConfirm)
	s.N.Slot = slot
	if msg != "" {
		s.N.Message = Tpl(msg)
	}
	return s
}

// set builds a set step from slot/value pairs: a string starting with "="
// is an expression, a string with '{' a template, nil a clear, anything
// else a literal.
func Set(id string, pairs ...any) *Step {
	s := NewStep(id, ir.KindSet)
	for i := 0; i+1 < len(pairs); i += 2 {
		a := ir.Assign{Slot: pairs[i].(string)}
		switch v := pairs[i+1].(type) {
		case nil:
			a.Kind = ir.AssignClear
		case string:
			switch {
			case len(v) > 0 && v[0] == '=':
				a.Kind, a.Expr = ir.AssignExpr, Ex(v[1:])
			case containsBrace(v):
				a.Kind, a.Template = ir.AssignTemplate, Tpl(v)
			default:
				a.Kind, a.Value = ir.AssignLiteral, v
			}
		default:
			a.Kind, a.Value = ir.AssignLiteral, v
		}
		s.N.Assign = append(s.N.Assign, a)
	}
	return s
}

func containsBrace(s string) bool {
	for _, c := range s {
		if c == '{' {
			return true
		}
	}
	return false
}

func Branch(id, slot string, cases ...string) *Step {
	s := NewStep(id, ir.KindBranch)
	s.N.Slot = slot
	for i := 0; i+1 < len(cases); i += 2 {
		s.Cases = append(s.Cases, [2]string{cases[i], cases[i+1]})
	}
	return s
}

func While(id, cond, body, exit string) *Step {
	s := NewStep(id, ir.KindWhile)
	s.N.Condition = Ex(cond)
	s.Body, s.Exit = body, exit
	return s
}

func Action(id, name string, outputs ...string) *Step {
	s := NewStep(id, ir.KindAction)
	s.N.Action = name
	for i := 0; i+1 < len(outputs); i += 2 {
		s.N.MapOutputs = append(s.N.MapOutputs, ir.Mapping{Output: outputs[i], Slot: outputs[i+1]})
	}
	return s
}

func Link(id, target string) *Step {
	s := NewStep(id, ir.KindLink)
	s.N.Target = target
	return s
}

func Call(id, target string) *Step {
	s := NewStep(id, ir.KindCall)
	s.N.Target = target
	return s
}

func (s *Step) To(id string) *Step { s.Jump = id; return s }

func (s *Step) Cond(e string) *Step { s.N.Condition = Ex(e); return s }

func (s *Step) With(f func(n *ir.Node)) *Step { f(s.N); return s }

// flow builds a flow, resolving step ids to node indexes. A node's
// position is flows.yaml, line 10*i+1 of its flow's block.
func Flow(name string, slots []*ir.Slot, steps ...*Step) *ir.Flow {
	f := &ir.Flow{Name: name, Slots: slots, Pos: diag.Pos{File: "flows.yaml", Line: 1, Col: 3}}
	index := map[string]int{ir.EndStep: ir.End}
	for i, s := range steps {
		index[s.N.ID] = i
	}
	resolve := func(id string) int {
		i, ok := index[id]
		if !ok {
			panic(fmt.Sprintf("test flow %q: unknown step %q", name, id))
		}
		return i
	}
	ptr := func(id string) *int {
		if id == "" {
			return nil
		}
		i := resolve(id)
		return &i
	}
	for i, s := range steps {
		n := s.N
		n.Pos = diag.Pos{File: "flows.yaml", Line: 10*i + 2, Col: 7}
		n.Next = i + 1
		if i+1 == len(steps) {
			n.Next = ir.End
		}
		if s.Jump != "" {
			n.Next = resolve(s.Jump)
		}
		n.OnInvalid, n.OnError, n.OnConfirm, n.OnDeny = ptr(s.OnInvalid), ptr(s.OnError), ptr(s.OnConfirm), ptr(s.OnDeny)
		n.Body, n.Exit = ptr(s.Body), ptr(s.Exit)
		for _, c := range s.Cases {
			n.Cases = append(n.Cases, ir.Case{Pattern: c[0], Target: resolve(c[1])})
		}
		f.Nodes = append(f.Nodes, n)
	}
	return f
}

func AnySlot(name string) *ir.Slot { return &ir.Slot{Name: name, Type: ir.TypeAny} }

// program builds a program with default settings.
func Program(slots []*ir.Slot, actions []*ir.Action, flows ...*ir.Flow) *ir.Program {
	return &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Slots: slots, Actions: actions, Flows: flows}
}

// WithDefaultPatterns returns a copy of a program built by hand with
// soni's default patterns and their responses added, configured by its
// settings, as the compiler adds them to every program it makes; the VM
// runs no program without them. p is not changed.
func WithDefaultPatterns(p *ir.Program) *ir.Program {
	out := *p
	out.Flows = append([]*ir.Flow(nil), p.Flows...)
	out.Responses = append([]*ir.Response(nil), p.Responses...)
	compiler.AddDefaultPatterns(&out)
	return &out
}

// BookFlight is the reference flow of the speed targets
// (docs/performance.md): say Welcome, collect origin, destination and date,
// the search_flights action setting the integer price, and the result, with
// history_size 0.
func BookFlight() *ir.Program {
	p := Program(nil, []*ir.Action{{Name: "search_flights", Inputs: []string{"origin", "destination", "date"}, Outputs: []string{"price"}}},
		Flow("book_flight", []*ir.Slot{AnySlot("origin"), AnySlot("destination"), AnySlot("date"), {Name: "price", Type: ir.TypeInteger}},
			Say("welcome", "Welcome"),
			Collect("ask_origin", "origin", "Where from?"),
			Collect("ask_destination", "destination", "Where to?"),
			Collect("ask_date", "date", "What date?"),
			Action("search", "search_flights", "price", "price"),
			Say("found", "Found a flight from {origin} to {destination} on {date} for {price}"),
		))
	p.Settings.HistorySize = 0
	return p
}
