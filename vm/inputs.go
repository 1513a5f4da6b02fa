package vm

import (
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/soni-dev/soni/internal/exprcompat"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
)

// Decisions follow their inputs (language.md §11). A flow records, in its
// frame (Frame.Uses), each conversation slot one of its steps read to
// decide something, with the value it saw; its own writes keep that value
// up to date. Another flow (a digression, a called flow, a pattern) may
// change such a slot while the flow waits below it. When the flow is on
// top again and about to go on, each slot whose value differs is a
// correction, as if the user had given the new value: the old value is
// put back, and pattern_correction proposes the new one. When it is
// applied, the flow goes back to the first step that read the slot, so
// that no decision made on the old value stands.

// decisionReads returns the conversation slots a node reads to decide
// something: a collect's slot (the answer it took or found), a confirm's
// slot and the slots its question shows (what the user agreed to), a
// branch's slot or expression, a while's and a set's condition, a set's
// values, and an action's declared inputs. Messages of say steps decide
// nothing.
func (m *Machine) decisionReads(nr *nodeRT) []string {
	var out []string
	add := func(name string) {
		if _, ok := m.conv[name]; ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	addExpr := func(e *ir.Expr) {
		if e != nil {
			for _, name := range exprRefs(e.Src) {
				add(name)
			}
		}
	}
	addTmpl := func(t *tmpl.Template) {
		if t != nil {
			for _, name := range t.Refs() {
				add(name)
			}
		}
	}
	n := nr.n
	switch n.Kind {
	case ir.KindCollect:
		add(n.Slot)
	case ir.KindConfirm:
		add(n.Slot)
		if nr.msg != nil {
			addTmpl(nr.msg.t)
			if nr.msg.resp != nil {
				for _, v := range nr.msg.resp.vars {
					addTmpl(v.text)
				}
			}
		}
	case ir.KindBranch:
		add(n.Slot)
		addExpr(n.Evaluate)
	case ir.KindWhile:
		addExpr(n.Condition)
	case ir.KindSet:
		addExpr(n.Condition)
		for i := range nr.assigns {
			a := &nr.assigns[i]
			addTmpl(a.tmpl)
			if a.a.Expr != nil {
				addExpr(a.a.Expr)
			}
		}
	case ir.KindAction:
		if d := m.prog.Action(n.Action); d != nil {
			for _, in := range d.Inputs {
				add(in)
			}
		}
	}
	return out
}

// exprRefs returns the names an expression reads: its identifiers (slots
// by name) and the keys of slots["name"]. A name it cannot parse gives
// nothing; the machine compiled the expression already.
func exprRefs(src string) []string {
	tree, err := parser.Parse(exprcompat.Rewrite(src))
	if err != nil {
		return nil
	}
	v := &refVisitor{}
	ast.Walk(&tree.Node, v)
	return v.names
}

type refVisitor struct{ names []string }

func (v *refVisitor) Visit(n *ast.Node) {
	switch x := (*n).(type) {
	case *ast.MemberNode:
		if id, ok := x.Node.(*ast.IdentifierNode); ok && (id.Value == "slots" || id.Value == "$env") {
			if p, ok := x.Property.(*ast.StringNode); ok {
				v.names = append(v.names, p.Value)
			}
		}
	case *ast.IdentifierNode:
		v.names = append(v.names, x.Value)
	}
}

// recordUses notes, before node nr of frame fi runs, the conversation
// slots it reads that the frame has not read before, with their values.
func (t *turn) recordUses(fi int, nr *nodeRT) {
	if len(nr.reads) == 0 || nr.flow.pattern {
		return
	}
	f := &t.st.Stack[fi]
	for _, name := range nr.reads {
		if useIndex(f, name) >= 0 {
			continue
		}
		f.Uses = append(f.Uses, Use{Slot: name, Step: nr.n.ID, Value: t.st.Slots[name]})
	}
}

// useIndex returns the index of slot's entry in f.Uses, or -1.
func useIndex(f *Frame, slot string) int {
	for i := range f.Uses {
		if f.Uses[i].Slot == slot {
			return i
		}
	}
	return -1
}

// noteWrite keeps frame fi's record of a conversation slot it read up to
// date when the frame itself (or a correction applied to it) writes the
// slot: only a change made by another writer is a correction.
func (t *turn) noteWrite(fi int, slot string, v any) {
	if fi < 0 || fi >= len(t.st.Stack) {
		return
	}
	f := &t.st.Stack[fi]
	if i := useIndex(f, slot); i >= 0 {
		f.Uses[i].Value = v
	}
}

// inputsChanged runs when the flow of frame fi (on top, not a pattern) is
// about to go on. Each conversation slot one of its past steps read that
// now holds another value (another flow, a pattern or a command changed it
// while this flow waited) is a correction: the old value is put back and
// pattern_correction starts with the new one, exactly as for a correction
// by the user. It reports whether it started the pattern.
func (t *turn) inputsChanged(fi int) (bool, error) {
	f := &t.st.Stack[fi]
	var changed []correction
	for i := range f.Uses {
		u := &f.Uses[i]
		cur := t.st.Slots[u.Slot]
		if sameInput(u.Value, cur) || t.m.conv[u.Slot] == nil {
			continue // (a hand-built state may name any slot)
		}
		if u.Value == nil {
			// The slot was unset when the flow read it (a collect that
			// waits for it, say): a value given since fills it, and
			// corrects nothing.
			u.Value = cur
			continue
		}
		changed = append(changed, correction{frame: fi, flow: f.Flow, slot: u.Slot, old: u.Value, hadOld: u.Value != nil, new: cur})
	}
	if len(changed) == 0 {
		return false, nil
	}
	for _, c := range changed {
		t.trace("flow " + f.Flow + ": slot " + c.slot + " changed from " + quoteShort(c.old) + " to " + quoteShort(c.new) +
			" while the flow waited, and its step " + f.Uses[useIndex(f, c.slot)].Step + " read it: a correction")
		t.storeIn(fi, t.m.conv[c.slot], c.old)
	}
	t.corrections = changed
	ctx := t.correctionContext()
	t.corrections = nil
	if err := t.pushPattern(ir.PatternCorrection, ctx); err != nil {
		return false, err
	}
	return true, nil
}

// sameInput reports whether a slot's value is the one a flow saw (nil:
// unset).
func sameInput(saw, now any) bool {
	if saw == nil || now == nil {
		return saw == nil && now == nil
	}
	return sameValue(saw, now)
}

// rewindTo moves frame f back to node target of its flow fr, to run again
// from there, and forgets the reads of the steps it will run again: the
// entries from target's own on, or, when target read nothing, those of
// steps at or after it.
func rewindTo(f *Frame, fr *flowRT, target int) {
	id := fr.nodes[target].n.ID
	f.Step = id
	for i := range f.Uses {
		if f.Uses[i].Step == id {
			f.Uses = trimUses(f.Uses, i)
			return
		}
	}
	kept := f.Uses[:0]
	for _, u := range f.Uses {
		if i, ok := fr.index[u.Step]; ok && i < target {
			kept = append(kept, u)
		}
	}
	f.Uses = trimUses(kept, len(kept))
}

// trimUses cuts uses to n entries; none is nil.
func trimUses(uses []Use, n int) []Use {
	if n == 0 {
		return nil
	}
	clear(uses[n:])
	return uses[:n]
}

// readBefore reports whether a past step of frame fi (a flow, not a
// pattern) read the conversation slot while it held a value: a new value
// for it is then a correction.
func (t *turn) readBefore(fi int, slot string) bool {
	if fi < 0 || fi >= len(t.st.Stack) {
		return false
	}
	f := &t.st.Stack[fi]
	if t.isPatternFrame(f) {
		return false
	}
	i := useIndex(f, slot)
	return i >= 0 && f.Uses[i].Value != nil
}
