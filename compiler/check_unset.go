package compiler

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	exprast "github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	exprvm "github.com/expr-lang/expr/vm"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/exprcompat"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/values"
)

// check_unset warns where a step may read a slot before it is set on some
// path (W003): a template, a condition or evaluate expression, a set
// step's {expr: ...}, a branch slot or a confirm slot (the confirm question
// shows the value). At run time such a read gives the empty string or a
// false condition, which is rarely what the author meant.
//
// It is a forward "must be set" dataflow analysis over each flow's control
// flow graph: the state at a step is the intersection of the states on
// every edge into it, iterated to a fixpoint, with one bit per slot the
// flow touches. At the first step only conversation slots with an initial
// value are set. A collect sets its slot on its normal edge but not on its
// on_invalid edge; an action sets its mapped slots on its normal edge but
// not on its on_error edge; a set step assigns on every edge (nothing when
// it has a condition, since it may not run) and a null assignment clears.
// A call sets the conversation slots that the called flow sets on every
// way it can complete (its summary; a cancelled flow cancels its callers,
// and recursion gives an empty summary); so does a link, for the flow that
// resumes below when the linked flow completes. Conversation slots that
// another flow filled earlier in the conversation are not assumed: the
// warning says the read may see an unset slot on some path. Slot
// validations, collect validators and action inputs are not reads, nor
// is a test for nil (slots.x != nil, x == nil, the left of ??) or a read
// such a test guards (the right of "x != nil and ..."): the author handles
// the unset slot there. A branch whose evaluate tests a slot for nil (or
// compares it with a literal) sets it on the cases that need it set: the
// true case of "slots.x != nil", the false case of "slots.x == nil".
// Unreachable steps are not looked at (W001 covers them). A while whose
// condition is certainly true when it is first reached (a set step just
// before it gives the slots it reads literal values, as in "set another:
// true" then "while another == true") runs its body at least once, so the
// slots its body sets are set after the loop.
func checkUnset(c *checker) {
	exprs, tmpls := stepUses(c)
	a := &unsetAnalysis{c: c, exprs: exprs, tmpls: tmpls, facts: map[*syntax.Flow]*flowFacts{}}
	for _, f := range c.p.Flows {
		a.report(a.analyse(f))
	}
}

type unsetAnalysis struct {
	c     *checker
	exprs map[*syntax.Step][]*exprUse
	tmpls map[*syntax.Step][]*tmplUse
	facts map[*syntax.Flow]*flowFacts
}

// flowFacts is what the analysis found for one flow.
type flowFacts struct {
	f     *syntax.Flow
	bit   map[string]int
	names []string
	// in is the must-set state at the entry of each step; reached says
	// whether any path from the first step gets there.
	in      []bitset
	reached []bool
	// summary lists the conversation slots set on every way the flow ends.
	summary map[string]bool
	busy    bool
}

type unsetEdge struct {
	to  int
	gen bitset
	// cancel marks the edge of a flow that ends as cancelled (no
	// on_invalid, on_error or on_deny): its callers are cancelled too
	// (docs/language.md, call), so it does not count for the summary.
	cancel bool
}

// analyse computes (once) the facts of a flow, analysing the flows it
// calls or links to first so that their summaries are known. It builds the
// flow's graph (one transfer function per step kind, see edgesOf), gives
// certainly-entered whiles their own first-test node, and runs the
// must-set fixpoint.
func (a *unsetAnalysis) analyse(f *syntax.Flow) *flowFacts {
	if ff := a.facts[f]; ff != nil {
		return ff
	}
	ff := &flowFacts{f: f, bit: map[string]int{}, busy: true}
	a.facts[f] = ff
	g := &unsetGraph{a: a, ff: ff, callee: a.calleeSummaries(f)}
	g.assignBits()
	g.edges = make([][]unsetEdge, len(f.Steps))
	g.kills = make([]bitset, len(f.Steps))
	for i, s := range f.Steps {
		g.edges[i] = g.edgesOf(i, s)
	}
	entries := g.splitFirstTests()
	g.fixpoint(entries)
	ff.busy = false
	return ff
}

// unsetGraph is the graph of one flow while it is analysed: a node per
// step (and per split while test), the edges with what each sets, and what
// each step clears.
type unsetGraph struct {
	a      *unsetAnalysis
	ff     *flowFacts
	callee []map[string]bool
	words  int
	edges  [][]unsetEdge
	kills  []bitset
}

// calleeSummaries returns, per step, the summary of the flow a call or
// link starts: the slots set on every way it ends.
func (a *unsetAnalysis) calleeSummaries(f *syntax.Flow) []map[string]bool {
	callee := make([]map[string]bool, len(f.Steps))
	for i, s := range f.Steps {
		if s.Kind != ir.KindCall && s.Kind != ir.KindLink {
			continue
		}
		if g := a.c.p.Flow(s.Target.V); g != nil && s.Target.Set {
			if gf := a.analyse(g); !gf.busy {
				callee[i] = gf.summary
			}
		}
	}
	return callee
}

// assignBits gives every slot the flow can see and mentions a bit.
func (g *unsetGraph) assignBits() {
	ff, p := g.ff, g.a.c.p
	add := func(name string) {
		if _, ok := ff.bit[name]; !ok && name != "" && p.Visible(ff.f, name) != nil {
			ff.bit[name] = len(ff.names)
			ff.names = append(ff.names, name)
		}
	}
	addStr := func(s syntax.Str) {
		if s.Set {
			add(s.V)
		}
	}
	for i, s := range ff.f.Steps {
		for _, u := range g.a.exprs[s] {
			for _, n := range u.Refs {
				add(n)
			}
		}
		for _, u := range g.a.tmpls[s] {
			for _, n := range u.Refs {
				add(n)
			}
		}
		addStr(s.Slot)
		for _, as := range s.Assign {
			addStr(as.Slot)
		}
		for _, m := range s.MapOutputs {
			addStr(m.Slot)
		}
		for _, name := range slices.Sorted(maps.Keys(g.callee[i])) {
			add(name)
		}
	}
	g.words = (len(ff.names) + 63) / 64
}

// one returns the bitset of the named slots.
func (g *unsetGraph) one(names ...string) bitset {
	b := make(bitset, g.words)
	for _, n := range names {
		if i, ok := g.ff.bit[n]; ok {
			b.set(i)
		}
	}
	return b
}

// edgesOf is the transfer function of step i: its edges, each with the
// slots it sets, and (in g.kills) the slots the step clears.
func (g *unsetGraph) edgesOf(i int, s *syntax.Step) []unsetEdge {
	f := g.ff.f
	var out []unsetEdge
	edge := func(to int, gen bitset) {
		if to != unknownTarget {
			out = append(out, unsetEdge{to: to, gen: gen})
		}
	}
	// orEnd follows an optional target; without one the flow ends
	// cancelled.
	orEnd := func(t syntax.Str) {
		if j, ok := flowOptTarget(f, t); ok {
			edge(j, nil)
		} else {
			out = append(out, unsetEdge{to: ir.End, cancel: true})
		}
	}
	switch s.Kind {
	case ir.KindCollect:
		edge(flowNext(f, s), g.one(s.Slot.V))
		orEnd(s.OnInvalid)
	case ir.KindSet:
		gen, kill := setEffects(s)
		g.kills[i] = g.one(kill...)
		edge(flowNext(f, s), g.one(gen...))
	case ir.KindBranch:
		// An evaluate that tests slots for nil sets them on the edges it
		// can only take when they are set: the true case of
		// "slots.x != nil", the false case of "slots.x == nil".
		var whenTrue, whenFalse bitset
		if s.Evaluate.Set {
			t, f := nilFacts(s.Evaluate.V)
			whenTrue, whenFalse = g.one(t...), g.one(f...)
		}
		left := boolOutcomes{true, true}
		hasDefault := false
		for _, cs := range s.Cases {
			took, ok := left.take(cs.Pattern.V)
			edge(flowTarget(f, cs.Target.V), took.facts(ok, whenTrue, whenFalse))
			hasDefault = hasDefault || cs.Pattern.V == "default"
		}
		if !hasDefault {
			edge(flowNext(f, s), left.facts(true, whenTrue, whenFalse))
		}
	case ir.KindWhile:
		edge(flowWhileBody(f, s), nil)
		edge(flowWhileExit(f, s), nil)
	case ir.KindAction:
		var outs []string
		for _, m := range s.MapOutputs {
			outs = append(outs, m.Slot.V)
		}
		edge(flowNext(f, s), g.one(outs...))
		orEnd(s.OnError)
	case ir.KindConfirm:
		if j, ok := flowOptTarget(f, s.OnConfirm); ok {
			edge(j, nil)
		} else {
			edge(flowNext(f, s), nil)
		}
		orEnd(s.OnDeny)
	case ir.KindLink:
		edge(ir.End, g.one(slices.Sorted(maps.Keys(g.callee[i]))...))
	case ir.KindCall:
		edge(flowNext(f, s), g.one(slices.Sorted(maps.Keys(g.callee[i]))...))
	default:
		edge(flowNext(f, s), nil)
	}
	return out
}

// setEffects returns the slots a set step certainly sets (none when it has
// a condition) and those it clears, each slot by its last assignment.
func setEffects(s *syntax.Step) (gen, kill []string) {
	last := map[string]bool{}
	var order []string
	for _, as := range s.Assign {
		if _, seen := last[as.Slot.V]; !seen {
			order = append(order, as.Slot.V)
		}
		last[as.Slot.V] = as.Kind != ir.AssignClear
	}
	for _, n := range order {
		if last[n] {
			gen = append(gen, n)
		} else {
			kill = append(kill, n)
		}
	}
	if s.Condition.Set {
		gen = nil
	}
	return gen, kill
}

// splitFirstTests gives each while whose condition is certainly true when
// control first comes to it from outside its body a node of its own for
// that first test (after the steps), whose only edge is the body; the
// while's own node keeps the tests after each round. It returns the new
// node of each such while.
func (g *unsetGraph) splitFirstTests() map[int]int {
	f := g.ff.f
	n := len(f.Steps)
	entries := map[int]int{}
	for i, s := range f.Steps {
		if s.Kind != ir.KindWhile || !g.a.firstTestTrue(f, s, g.edges) {
			continue
		}
		v := len(g.edges)
		entries[i] = v
		g.edges = append(g.edges, []unsetEdge{{to: flowWhileBody(f, s)}})
		g.kills = append(g.kills, nil)
		for p := 0; p < n; p++ {
			if inBody(f.Steps[p], s) {
				continue
			}
			for e := range g.edges[p] {
				if g.edges[p][e].to == i {
					g.edges[p][e].to = v
				}
			}
		}
	}
	return entries
}

// fixpoint runs the must-set analysis: states start full (the meet's
// identity) and only shrink. It fills in the facts' states and summary.
func (g *unsetGraph) fixpoint(entries map[int]int) {
	ff, p := g.ff, g.a.c.p
	k, words := len(ff.names), g.words
	n := len(ff.f.Steps)
	nodes := len(g.edges)
	ff.in = make([]bitset, nodes)
	ff.reached = make([]bool, nodes)
	for i := range ff.in {
		ff.in[i] = newFullBitset(k)
	}
	end := newFullBitset(k)
	endReached := false
	ff.summary = map[string]bool{}
	if n > 0 {
		entry := make(bitset, words)
		for name, i := range ff.bit {
			if s := p.Slot(name); s != nil && s.HasInitial && s.Initial != nil {
				entry.set(i)
			}
			if s := ff.f.SlotsByName[name]; s != nil && s.ReadOnly && p.Slot(name) == nil {
				// A pattern's context is set when soni starts it.
				entry.set(i)
			}
		}
		ff.in[0] = entry
		ff.reached[0] = true
		queue := []int{0}
		queued := make([]bool, nodes)
		queued[0] = true
		tmp := make(bitset, words)
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			queued[i] = false
			for _, e := range g.edges[i] {
				copy(tmp, ff.in[i])
				if g.kills[i] != nil {
					tmp.andNot(g.kills[i])
				}
				if e.gen != nil {
					tmp.or(e.gen)
				}
				if e.to == ir.End {
					if !e.cancel {
						end.and(tmp)
						endReached = true
					}
					continue
				}
				if e.to < 0 || e.to >= nodes {
					continue
				}
				changed := ff.in[e.to].and(tmp)
				if !ff.reached[e.to] {
					ff.reached[e.to] = true
					changed = true
				}
				if changed && !queued[e.to] {
					queued[e.to] = true
					queue = append(queue, e.to)
				}
			}
		}
	}
	// A while's condition is read at its first test too: its state is the
	// meet of both nodes.
	for i, v := range entries {
		switch {
		case !ff.reached[v]:
		case !ff.reached[i]:
			ff.in[i], ff.reached[i] = ff.in[v], true
		default:
			ff.in[i].and(ff.in[v])
		}
	}
	ff.in, ff.reached = ff.in[:n], ff.reached[:n]
	if endReached {
		for name, i := range ff.bit {
			if end.has(i) && p.Slot(name) != nil {
				ff.summary[name] = true
			}
		}
	}
}

// report warns about every read of a slot that may be unset.
func (a *unsetAnalysis) report(ff *flowFacts) {
	f := ff.f
	for i, s := range f.Steps {
		if !ff.reached[i] || s.Kind == "" {
			continue
		}
		state := ff.in[i]
		warn := func(name string, pos diag.Pos, path string) {
			b, ok := ff.bit[name]
			if !ok || state.has(b) {
				return
			}
			d := a.c.ds.Add(pos, diag.CodeMaybeUnset, path,
				"slot %q may be unset here: no step sets it on every path to step %q", name, s.ID.V)
			if a.c.p.Slot(name) != nil {
				d.Suggestion = "collect or set it on every path before this step, or give it an \"initial\" value"
			} else {
				d.Suggestion = "collect or set it on every path before this step"
			}
		}
		readTmpl := func(u *tmplUse) {
			if u.T == nil {
				return
			}
			seen := map[string]bool{}
			for _, part := range u.T.Parts {
				if part.Slot == "" || seen[part.Slot] {
					continue
				}
				seen[part.Slot] = true
				if b, ok := ff.bit[part.Slot]; ok && !state.has(b) {
					warn(part.Slot, tmplRefPos(u.Src, part.Offset), u.Src.Path)
				}
			}
		}
		readExpr := func(u *exprUse) {
			if u.Value != nil || (s.Validator.Set && u.Src.Pos == s.Validator.Pos) {
				return // a validator: reads the answer, not the state
			}
			var pos map[string]diag.Pos
			var tested map[string]bool
			for _, name := range u.Refs {
				if b, ok := ff.bit[name]; !ok || state.has(b) {
					continue
				}
				if tested == nil {
					tested = nilTestedOnly(u.Src.V)
				}
				if tested[name] {
					continue // only tested for nil: the author handles unset
				}
				if pos == nil {
					pos = exprRefPos(u.Src)
				}
				at, ok := pos[name]
				if !ok {
					at = u.Src.Pos
				}
				warn(name, at, u.Src.Path)
			}
		}
		switch s.Kind {
		case ir.KindBranch:
			if s.Slot.Set && !s.Evaluate.Set {
				warn(s.Slot.V, s.Slot.Pos, s.Slot.Path)
			}
		case ir.KindConfirm:
			if s.Slot.Set {
				warn(s.Slot.V, s.Slot.Pos, s.Slot.Path)
			}
		}
		if s.Kind != ir.KindSet {
			for _, u := range a.tmpls[s] {
				readTmpl(u)
			}
			for _, u := range a.exprs[s] {
				readExpr(u)
			}
			continue
		}
		// A set step: the condition reads the entry state; each value sees
		// the assignments before it.
		byPos := map[diag.Pos]int{}
		for k, as := range s.Assign {
			if as.Src.Set {
				byPos[as.Src.Pos] = k
			}
		}
		vals := make([][]func(), len(s.Assign))
		for _, u := range a.exprs[s] {
			if k, ok := byPos[u.Src.Pos]; ok && u.Src.Pos != s.Condition.Pos {
				vals[k] = append(vals[k], func() { readExpr(u) })
				continue
			}
			readExpr(u)
		}
		for _, u := range a.tmpls[s] {
			if k, ok := byPos[u.Src.Pos]; ok {
				vals[k] = append(vals[k], func() { readTmpl(u) })
				continue
			}
			readTmpl(u)
		}
		state = append(bitset(nil), state...)
		for k, as := range s.Assign {
			for _, read := range vals[k] {
				read()
			}
			if b, ok := ff.bit[as.Slot.V]; ok {
				if as.Kind == ir.AssignClear {
					state.clear(b)
				} else {
					state.set(b)
				}
			}
		}
	}
}

// inBody reports whether step s is in the body of while w, directly or in
// a nested while.
func inBody(s, w *syntax.Step) bool {
	// Bounded: whiles that list each other (E039) make a cycle of Loops.
	for l, n := s.Loop, 0; l != nil && n <= len(s.Flow.Steps); l, n = l.Loop, n+1 {
		if l == w {
			return true
		}
	}
	return false
}

// firstTestTrue reports whether a while's condition is certainly true
// when control first comes to it from outside its body: every step that
// leads there from outside is a set step without a condition that gives
// every slot the condition reads a literal value, and the condition is
// true with those values (the documented idiom: set another: true, then
// while another == true). The flow's first step is never such a while.
func (a *unsetAnalysis) firstTestTrue(f *syntax.Flow, w *syntax.Step, edges [][]unsetEdge) bool {
	if w.Index == 0 || !w.Condition.Set {
		return false
	}
	var cond *exprUse
	for _, u := range a.exprs[w] {
		if u.Src.Pos == w.Condition.Pos {
			cond = u
		}
	}
	if cond == nil || cond.Err != nil || len(cond.Unknown) > 0 || len(cond.Refs) == 0 {
		return false
	}
	var values map[string]any
	preds := 0
	for p, out := range edges[:len(f.Steps)] {
		ps := f.Steps[p]
		if inBody(ps, w) {
			continue
		}
		for _, e := range out {
			if e.to != w.Index {
				continue
			}
			preds++
			vals, ok := a.literals(f, ps, cond.Refs)
			if !ok {
				return false
			}
			if values == nil {
				values = vals
			} else if !sameValues(values, vals) {
				return false
			}
		}
	}
	if preds == 0 {
		return false
	}
	env := map[string]any{"slots": values}
	for k, v := range values {
		env[k] = v
	}
	prog, err := expr.Compile(exprcompat.Rewrite(w.Condition.V), expr.AllowUndefinedVariables(), expr.Patch(&exprcompat.ShadowBuiltins{}))
	if err != nil {
		return false
	}
	out, err := runSafely(prog, env)
	b, ok := out.(bool)
	return err == nil && ok && b
}

// literals returns the typed literal values a set step without a
// condition gives to each of names, as the VM would store them; ok is
// false when the step is no such step or leaves a name without one.
func (a *unsetAnalysis) literals(f *syntax.Flow, s *syntax.Step, names []string) (map[string]any, bool) {
	if s.Kind != ir.KindSet || s.Condition.Set {
		return nil, false
	}
	out := make(map[string]any, len(names))
	for _, name := range names {
		var last *syntax.Assign
		for _, as := range s.Assign {
			if as.Slot.V == name {
				last = as
			}
		}
		if last == nil || last.Kind != ir.AssignLiteral || last.Value == nil {
			return nil, false
		}
		slot := a.c.p.Visible(f, name)
		if slot == nil {
			return nil, false
		}
		v := last.Value
		if !slot.Implicit && slot.Resolved != ir.TypeAny {
			cv, err := values.Convert(lowerSlot(slot), v)
			if err != nil {
				return nil, false
			}
			v = cv
		}
		out[name] = v
	}
	return out, true
}

// sameValues reports whether two sets of literal values are equal.
func sameValues(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !reflect.DeepEqual(v, w) {
			return false
		}
	}
	return true
}

// runSafely runs a compiled expression; a panic is an error.
func runSafely(prog *exprvm.Program, env map[string]any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("expression panicked: %v", r)
		}
	}()
	return expr.Run(prog, env)
}

// boolOutcomes is which results of a branch's evaluate (true, false) can
// still reach the next case: a case takes those its pattern matches.
type boolOutcomes [2]bool

// take returns the outcomes a case pattern takes from o and removes them;
// ok is false for a pattern other than default, true or false (with ==
// or !=), whose outcomes the analysis does not follow.
func (o *boolOutcomes) take(pattern string) (took boolOutcomes, ok bool) {
	p := strings.TrimSpace(pattern)
	neg := false
	switch {
	case p == "default":
		took, *o = *o, boolOutcomes{}
		return took, true
	case strings.HasPrefix(p, "=="):
		p = strings.TrimSpace(p[2:])
	case strings.HasPrefix(p, "!="):
		p, neg = strings.TrimSpace(p[2:]), true
	}
	var i int
	switch p {
	case "true":
		i = 0
	case "false":
		i = 1
	default:
		*o = boolOutcomes{true, true}
		return boolOutcomes{}, false
	}
	if neg {
		i = 1 - i
	}
	took[i], o[i] = o[i], false
	return took, true
}

// facts returns the slots an edge that only the outcomes o take sets.
func (o boolOutcomes) facts(ok bool, whenTrue, whenFalse bitset) bitset {
	switch {
	case !ok:
		return nil
	case o[0] && !o[1]:
		return whenTrue
	case o[1] && !o[0]:
		return whenFalse
	}
	return nil
}

// nilFacts returns the slots an expression's truth shows to be set
// (slots.x != nil, x == "gold", joined by and) and those its falsity
// shows to be set (slots.x == nil, joined by or), through not.
func nilFacts(src string) (whenTrue, whenFalse []string) {
	tree, err := parser.Parse(exprcompat.Rewrite(src))
	if err != nil {
		return nil, nil
	}
	return factsOf(tree.Node, true), factsOf(tree.Node, false)
}

// factsOf returns the slots that are set when n evaluates to truth.
func factsOf(n exprast.Node, truth bool) []string {
	switch x := n.(type) {
	case *exprast.UnaryNode:
		if x.Operator == "not" || x.Operator == "!" {
			return factsOf(x.Node, !truth)
		}
	case *exprast.BinaryNode:
		switch x.Operator {
		case "and", "&&":
			if truth {
				return append(factsOf(x.Left, true), factsOf(x.Right, true)...)
			}
		case "or", "||":
			if !truth {
				return append(factsOf(x.Left, false), factsOf(x.Right, false)...)
			}
		case "==", "!=":
			name, other := slotRef(x.Left), x.Right
			if name == "" {
				name, other = slotRef(x.Right), x.Left
			}
			if name == "" {
				return nil
			}
			_, isNil := other.(*exprast.NilNode)
			holds := (x.Operator == "==") == truth // the equality holds
			if isNil && !holds || !isNil && holds && isLiteral(other) {
				return []string{name}
			}
		}
	}
	return nil
}

// nilTestedOnly returns the slots an expression reads only where they
// cannot be unset, or to test them for nil: an operand of == nil or
// != nil, the left of ??, or a read guarded by such a test (the right of
// "x != nil and ...", of "x == nil or ...", a branch of
// "x != nil ? ... : ...").
func nilTestedOnly(src string) map[string]bool {
	tree, err := parser.Parse(exprcompat.Rewrite(src))
	if err != nil {
		return nil
	}
	v := &nilTestVisitor{tested: map[exprast.Node]bool{}, locals: map[string]bool{}, reads: map[string]int{}, tests: map[string]int{}}
	exprast.Walk(&tree.Node, v)
	v.counting = true
	exprast.Walk(&tree.Node, v)
	out := map[string]bool{}
	for name, n := range v.reads {
		if v.tests[name] == n {
			out[name] = true
		}
	}
	return out
}

// nilTestVisitor finds, in a first walk, the slot references that are
// tested for nil or guarded by such a test, and counts, in a second,
// every reference of each slot and those.
type nilTestVisitor struct {
	counting     bool
	tested       map[exprast.Node]bool
	locals       map[string]bool
	reads, tests map[string]int
}

func (v *nilTestVisitor) Visit(n *exprast.Node) {
	if v.counting {
		name := slotRef(*n)
		if name == "" || v.locals[name] {
			return
		}
		v.reads[name]++
		if v.tested[*n] {
			v.tests[name]++
		}
		return
	}
	switch x := (*n).(type) {
	case *exprast.VariableDeclaratorNode:
		v.locals[x.Name] = true
	case *exprast.BinaryNode:
		switch x.Operator {
		case "==", "!=":
			if _, ok := x.Right.(*exprast.NilNode); ok && slotRef(x.Left) != "" {
				v.tested[x.Left] = true
			}
			if _, ok := x.Left.(*exprast.NilNode); ok && slotRef(x.Right) != "" {
				v.tested[x.Right] = true
			}
		case "??":
			if slotRef(x.Left) != "" {
				v.tested[x.Left] = true
			}
		case "and", "&&":
			v.guard(x.Right, factsOf(x.Left, true))
		case "or", "||":
			v.guard(x.Right, factsOf(x.Left, false))
		}
	case *exprast.ConditionalNode:
		v.guard(x.Exp1, factsOf(x.Cond, true))
		v.guard(x.Exp2, factsOf(x.Cond, false))
	}
}

// guard marks the references to names inside n as tested: n runs only
// when they are set.
func (v *nilTestVisitor) guard(n exprast.Node, names []string) {
	if len(names) == 0 {
		return
	}
	exprast.Walk(&n, guardVisitor{v.tested, names})
}

type guardVisitor struct {
	tested map[exprast.Node]bool
	names  []string
}

func (g guardVisitor) Visit(n *exprast.Node) {
	if name := slotRef(*n); name != "" && slices.Contains(g.names, name) {
		g.tested[*n] = true
	}
}

// slotRef returns the slot a node names, slots.x or x, or "".
func slotRef(n exprast.Node) string {
	switch x := n.(type) {
	case *exprast.MemberNode:
		if id, ok := x.Node.(*exprast.IdentifierNode); ok && id.Value == "slots" {
			if prop, ok := x.Property.(*exprast.StringNode); ok {
				return prop.Value
			}
		}
	case *exprast.IdentifierNode:
		if x.Value != "slots" {
			return x.Value
		}
	}
	return ""
}

// isLiteral reports whether a node is a string, number or boolean literal:
// a slot equal to one is set.
func isLiteral(n exprast.Node) bool {
	switch n.(type) {
	case *exprast.StringNode, *exprast.IntegerNode, *exprast.FloatNode, *exprast.BoolNode:
		return true
	}
	return false
}
