package compiler

import (
	"fmt"
	"sort"

	exprast "github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/exprcompat"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// SymbolKind is what a name in a project stands for.
type SymbolKind string

// The kinds of names an editor can follow.
const (
	SymbolSlot     SymbolKind = "slot"
	SymbolFlow     SymbolKind = "flow"
	SymbolStep     SymbolKind = "step"
	SymbolResponse SymbolKind = "response"
	SymbolAction   SymbolKind = "action"
)

// SymbolID names one definition. Scope is the flow of a step or of a flow
// slot, and "" for every other kind (a conversation slot, a flow, a
// response, an action).
type SymbolID struct {
	Kind  SymbolKind
	Name  string
	Scope string
}

// String renders the ID as kind name, or kind scope.name.
func (id SymbolID) String() string {
	if id.Scope != "" {
		return fmt.Sprintf("%s %s.%s", id.Kind, id.Scope, id.Name)
	}
	return fmt.Sprintf("%s %s", id.Kind, id.Name)
}

// Occurrence is one place a name is written: its definition or a use.
type Occurrence struct {
	ID SymbolID
	// Pos is where the scalar holding the name starts (its quote, when it
	// is quoted), or for a name inside a template or an expression, its
	// first rune.
	Pos diag.Pos
	// Def is true for the definition.
	Def bool
	// Sets is true for a use that gives a slot a value: a collect, a set
	// step or an action's map_outputs.
	Sets bool
	// Flow and Step are the flow and step the use is in, when it is in one.
	Flow, Step string
}

// Definition is what the project says about one defined name, for hovers
// and completion.
type Definition struct {
	ID          SymbolID
	Pos         diag.Pos
	Description string
	// Type is a slot's type or a step's kind.
	Type string
	// Values are a categorical slot's values.
	Values []string
	// Min, Max, Pattern and Validation are a slot's constraints.
	Min, Max            *float64
	Pattern, Validation string
	// Implicit is true for a flow slot that a step creates by setting it.
	Implicit bool
	// Slots are a flow's own slots, Steps its step ids.
	Slots, Steps []string
	// Variations are a response's texts.
	Variations []string
	// Inputs and Outputs are an action's.
	Inputs, Outputs []string
}

// Symbols is the symbol index of a compiled project: every definition and
// every place a slot, flow, step, response or action is named, in the
// project's files. It is built from the compiler's own decoded project and
// analysed templates and expressions.
type Symbols struct {
	Defs []*Definition
	Occs []Occurrence
}

// CompileSourcesIndexed is CompileSources that also keeps what the
// project's symbol index is built from (Result.Symbols), for editors.
// Other compiles do not keep it: it costs memory that a program does not
// need.
func CompileSourcesIndexed(files []Source, opts Options) *Result {
	opts.symbols = true
	return CompileSources(files, opts)
}

// Symbols builds the project's symbol index, or returns nil when the
// result was not compiled by CompileSourcesIndexed. Each call builds it
// anew: callers keep it.
func (r *Result) Symbols() *Symbols {
	if r == nil || r.checked == nil {
		return nil
	}
	b := &symbolBuilder{c: r.checked, seen: map[occKey]bool{}}
	b.build()
	sort.SliceStable(b.out.Occs, func(i, j int) bool { return b.out.Occs[i].Pos.Before(b.out.Occs[j].Pos) })
	return &b.out
}

type occKey struct {
	id  SymbolID
	pos diag.Pos
}

type symbolBuilder struct {
	c    *checker
	out  Symbols
	seen map[occKey]bool
}

func (b *symbolBuilder) add(o Occurrence) {
	if !o.Pos.IsValid() || o.ID.Name == "" {
		return
	}
	k := occKey{o.ID, o.Pos}
	if b.seen[k] {
		return
	}
	b.seen[k] = true
	b.out.Occs = append(b.out.Occs, o)
}

// slotID resolves a slot name as flow f sees it (nil: the conversation's).
func (b *symbolBuilder) slotID(f *syntax.Flow, name string) (SymbolID, bool) {
	p := b.c.p
	if s := p.slots[name]; s != nil {
		return SymbolID{Kind: SymbolSlot, Name: name}, true
	}
	if f != nil && f.SlotsByName[name] != nil {
		return SymbolID{Kind: SymbolSlot, Name: name, Scope: f.Name.V}, true
	}
	return SymbolID{}, false
}

func (b *symbolBuilder) slotUse(f *syntax.Flow, st *syntax.Step, name syntax.Str, sets bool) {
	if !name.Set {
		return
	}
	id, ok := b.slotID(f, name.V)
	if !ok {
		return
	}
	b.add(Occurrence{ID: id, Pos: name.Pos, Sets: sets, Flow: flowName(f), Step: stepName(st)})
}

func flowName(f *syntax.Flow) string {
	if f == nil {
		return ""
	}
	return f.Name.V
}

func stepName(s *syntax.Step) string {
	if s == nil {
		return ""
	}
	return s.ID.V
}

func (b *symbolBuilder) slotDef(s *syntax.Slot, f *syntax.Flow) {
	id := SymbolID{Kind: SymbolSlot, Name: s.Name.V}
	if f != nil {
		id.Scope = f.Name.V
	}
	d := &Definition{ID: id, Pos: s.Name.Pos, Description: s.Description.V, Type: string(s.Resolved),
		Min: s.Min, Max: s.Max, Pattern: s.Pattern.V, Validation: s.Validation.V, Implicit: s.Implicit}
	if s.Type.Set {
		d.Type = s.Type.V
	}
	for _, v := range s.Values {
		d.Values = append(d.Values, v.Value)
	}
	if !s.Implicit {
		b.out.Defs = append(b.out.Defs, d)
		b.add(Occurrence{ID: id, Pos: s.Name.Pos, Def: true, Flow: flowName(f)})
		return
	}
	// An implicit slot is defined where a step first sets it.
	b.out.Defs = append(b.out.Defs, d)
}

func (b *symbolBuilder) build() {
	p := b.c.p
	for _, s := range p.Slots {
		if p.slots[s.Name.V] == s {
			b.slotDef(s, nil)
		}
	}
	for _, a := range p.Actions {
		if p.actions[a.Name.V] != a {
			continue
		}
		id := SymbolID{Kind: SymbolAction, Name: a.Name.V}
		d := &Definition{ID: id, Pos: a.Name.Pos, Description: a.Description.V}
		for _, in := range a.Inputs {
			d.Inputs = append(d.Inputs, in.V)
		}
		for _, out := range a.Outputs {
			d.Outputs = append(d.Outputs, out.V)
		}
		b.out.Defs = append(b.out.Defs, d)
		b.add(Occurrence{ID: id, Pos: a.Name.Pos, Def: true})
		for _, in := range a.Inputs {
			b.slotUse(nil, nil, in, false)
		}
	}
	for _, r := range p.Responses {
		if r.Builtin || p.responses[r.Name.V] != r {
			continue
		}
		id := SymbolID{Kind: SymbolResponse, Name: r.Name.V}
		d := &Definition{ID: id, Pos: r.Name.Pos}
		for _, v := range r.Variations {
			d.Variations = append(d.Variations, v.Text.V)
			for _, c := range v.Condition {
				b.slotUse(nil, nil, c.Name, false)
			}
		}
		b.out.Defs = append(b.out.Defs, d)
		b.add(Occurrence{ID: id, Pos: r.Name.Pos, Def: true})
	}
	for _, f := range p.Flows {
		if f.Builtin || p.flows[f.Name.V] != f {
			continue
		}
		b.flow(f)
	}
	for name, uses := range b.c.respUses {
		for _, u := range uses {
			if u.Implicit || p.responses[name] == nil {
				continue
			}
			b.add(Occurrence{ID: SymbolID{Kind: SymbolResponse, Name: name}, Pos: u.Name.Pos, Flow: flowName(u.Flow), Step: stepName(u.Step)})
		}
	}
	for _, u := range b.c.tmpls {
		if u.T == nil {
			continue
		}
		for _, part := range u.T.Parts {
			if part.Slot == "" {
				continue
			}
			f := u.Flow
			id, ok := b.slotID(f, part.Slot)
			if !ok && u.Setting {
				id, ok = b.anySlotID(part.Slot)
			}
			if ok {
				b.add(Occurrence{ID: id, Pos: tmplRefPos(u.Src, part.Offset), Flow: flowName(f), Step: stepName(u.Step)})
			}
		}
	}
	for _, u := range b.c.exprs {
		for _, n := range exprNames(u.Src) {
			if id, ok := b.slotID(u.Flow, n.name); ok {
				b.add(Occurrence{ID: id, Pos: n.pos, Flow: flowName(u.Flow), Step: stepName(u.Step)})
			}
		}
	}
}

// anySlotID resolves a name a message setting or an unused response reads:
// a conversation slot, else the first flow that has a slot by that name.
func (b *symbolBuilder) anySlotID(name string) (SymbolID, bool) {
	if id, ok := b.slotID(nil, name); ok {
		return id, true
	}
	for _, f := range b.c.p.Flows {
		if f.SlotsByName[name] != nil {
			return SymbolID{Kind: SymbolSlot, Name: name, Scope: f.Name.V}, true
		}
	}
	return SymbolID{}, false
}

func (b *symbolBuilder) flow(f *syntax.Flow) {
	p := b.c.p
	id := SymbolID{Kind: SymbolFlow, Name: f.Name.V}
	d := &Definition{ID: id, Pos: f.Name.Pos, Description: f.Description.V}
	for _, s := range f.Slots {
		if !s.Implicit {
			d.Slots = append(d.Slots, s.Name.V)
		}
		if f.SlotsByName[s.Name.V] == s && !s.ReadOnly {
			b.slotDef(s, f)
		}
	}
	d.Steps = stepIDs(f)
	b.out.Defs = append(b.out.Defs, d)
	b.add(Occurrence{ID: id, Pos: f.Name.Pos, Def: true})
	target := func(s *syntax.Step, t syntax.Str) {
		if t.Set && f.StepsByID[t.V] != nil {
			b.add(Occurrence{ID: SymbolID{Kind: SymbolStep, Name: t.V, Scope: f.Name.V}, Pos: t.Pos, Flow: f.Name.V, Step: s.ID.V})
		}
	}
	for _, s := range f.Steps {
		if s.ID.Set && f.StepsByID[s.ID.V] == s {
			sid := SymbolID{Kind: SymbolStep, Name: s.ID.V, Scope: f.Name.V}
			b.out.Defs = append(b.out.Defs, &Definition{ID: sid, Pos: s.ID.Pos, Type: s.Type.V})
			b.add(Occurrence{ID: sid, Pos: s.ID.Pos, Def: true, Flow: f.Name.V, Step: s.ID.V})
		}
		for _, t := range []syntax.Str{s.JumpTo, s.OnInvalid, s.ExitTo, s.OnError, s.OnConfirm, s.OnDeny} {
			target(s, t)
		}
		for _, c := range s.Cases {
			target(s, c.Target)
		}
		for _, e := range s.Do {
			if e.Step == nil || e.Ref.Set {
				target(s, e.Ref)
			}
		}
		switch s.Kind {
		case ir.KindCollect:
			b.slotUse(f, s, s.Slot, true)
		case ir.KindBranch, ir.KindConfirm:
			b.slotUse(f, s, s.Slot, false)
		case ir.KindSet:
			for _, a := range s.Assign {
				b.slotUse(f, s, a.Slot, true)
			}
		case ir.KindAction:
			for _, m := range s.MapOutputs {
				b.slotUse(f, s, m.Slot, true)
			}
		case ir.KindLink, ir.KindCall:
			if s.Target.Set && p.flows[s.Target.V] != nil {
				b.add(Occurrence{ID: SymbolID{Kind: SymbolFlow, Name: s.Target.V}, Pos: s.Target.Pos, Flow: f.Name.V, Step: s.ID.V})
			}
		}
		if c := s.Calls(); c.Set && p.actions[c.V] != nil {
			b.add(Occurrence{ID: SymbolID{Kind: SymbolAction, Name: c.V}, Pos: c.Pos, Flow: f.Name.V, Step: s.ID.V})
		}
	}
}

type exprName struct {
	name string
	pos  diag.Pos
}

// exprNames lists every name an expression reads (identifiers and the
// keys of slots["name"]), with its position in the file.
func exprNames(src syntax.Str) []exprName {
	code := exprcompat.Rewrite(src.V)
	tree, err := parser.Parse(code)
	if err != nil {
		return nil
	}
	v := &exprNameVisitor{src: src, runes: []rune(code), locals: map[string]bool{}}
	exprast.Walk(&tree.Node, v)
	return v.out
}

type exprNameVisitor struct {
	src    syntax.Str
	runes  []rune
	locals map[string]bool
	out    []exprName
}

func (v *exprNameVisitor) Visit(n *exprast.Node) {
	switch x := (*n).(type) {
	case *exprast.VariableDeclaratorNode:
		v.locals[x.Name] = true
	case *exprast.MemberNode:
		if id, ok := x.Node.(*exprast.IdentifierNode); ok && id.Value == "slots" {
			if prop, ok := x.Property.(*exprast.StringNode); ok {
				from := prop.Location().From
				if from < len(v.runes) && (v.runes[from] == '"' || v.runes[from] == '\'' || v.runes[from] == '`') {
					from++
				}
				v.out = append(v.out, exprName{prop.Value, v.src.At(runePos(v.runes, from))})
			}
		}
	case *exprast.IdentifierNode:
		if x.Value == "slots" || v.locals[x.Value] {
			return
		}
		v.out = append(v.out, exprName{x.Value, v.src.At(runePos(v.runes, x.Location().From))})
	}
}
