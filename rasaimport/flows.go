package rasaimport

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// endStep is soni's jump target that ends a flow.
const endStep = "__end__"

// flowBuilder translates the steps of one Rasa flow into soni steps.
type flowBuilder struct {
	im  *importer
	f   *rflow
	out string
	// steps are the soni steps, in order.
	steps []*syntax.Step
	// used are the step ids taken.
	used map[string]bool
	// idOf is the soni id of each Rasa step.
	idOf map[*node]string
	// rasaID maps a Rasa step id to its soni id.
	rasaID map[string]string
	// end is where "END" goes: __end__, or the step that clears the
	// slots Rasa resets when the flow ends.
	end string
	// resets are the conversation slots cleared at the end.
	resets []string
}

// idChars are the characters a soni step id may not have.
var idChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// cleanID turns a Rasa id into a soni step id.
func cleanID(s string) string {
	s = strings.Trim(idChars().ReplaceAllString(s, "_"), "_")
	if s == "" || !(s[0] == '_' || s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') {
		s = "step_" + s
	}
	if s == endStep {
		s = "end_step"
	}
	return s
}

// unique returns id, or id_2, id_3... when it is taken, and takes it.
func (b *flowBuilder) unique(id string) string {
	out := id
	for n := 2; b.used[out]; n++ {
		out = fmt.Sprintf("%s_%d", id, n)
	}
	b.used[out] = true
	return out
}

// assignIDs gives every Rasa step its soni id: the Rasa ids first, so
// that generated ids never take one, then the others.
func (b *flowBuilder) assignIDs(steps []*node) {
	var all []*node
	forSteps(steps, func(st *node) { all = append(all, st) })
	for _, st := range all {
		if id := st.get("id").str(); id != "" {
			sid := b.unique(cleanID(id))
			b.idOf[st] = sid
			b.rasaID[id] = sid
		}
	}
	for _, st := range all {
		if _, ok := b.idOf[st]; ok {
			continue
		}
		var base string
		switch {
		case st.has("collect"):
			base = "ask_" + st.get("collect").str()
		case st.has("action"):
			base = st.get("action").str()
		case st.has("set_slots"):
			base = "set"
			if kv := st.get("set_slots").list(); len(kv) > 0 && len(kv[0].keys) > 0 {
				base = "set_" + kv[0].keys[0]
			}
		case st.has("call"):
			base = "call_" + st.get("call").str()
		case st.has("link"):
			base = "link_" + st.get("link").str()
		case st.has("noop"):
			base = "check"
		default:
			base = "rasa_step"
		}
		b.idOf[st] = b.unique(cleanID(base))
	}
}

// build translates the flow's steps.
func (b *flowBuilder) build() []*syntax.Step {
	steps := b.f.n.get("steps").list()
	b.assignIDs(steps)
	// The project's own cancel pattern: when the cancellation leaves no
	// flow, Rasa runs pattern_completed next; soni's VM does not, so the
	// flow ends by linking to it.
	completes := len(b.resets) == 0 && b.pattern() == ir.PatternCancelFlow
	if len(b.resets) > 0 {
		b.end = b.unique("reset_slots")
	}
	if completes {
		b.end = b.unique("rasa_completed")
	}
	b.seq(steps, true)
	if completes {
		run := b.unique("run_completed")
		m := newStep(b.end, "branch")
		m.Branch().Evaluate = syntax.S("nothing_left")
		addCase(m, "true", run)
		addCase(m, "default", endStep)
		b.emit(m, []string{"Rasa runs pattern_completed after a cancellation that leaves no flow; soni's pattern_cancel_flow links to it."})
		l := newStep(run, "link")
		l.Link().Target = syntax.S(ir.PatternCompleted)
		b.emit(l, nil)
	}
	if len(b.resets) > 0 && (len(steps) == 0 || !steps[len(steps)-1].has("link") || b.jumpsToEnd()) {
		b.emit(b.resetStep(b.end), []string{"Rasa resets the slots a flow collected when the flow ends (reset_after_flow_ends), to their initial_value."})
	}
	return b.steps
}

// jumpsToEnd reports whether a step written so far goes to the flow's
// end step.
func (b *flowBuilder) jumpsToEnd() bool {
	for _, s := range b.steps {
		if s.JumpTo.V == b.end || slices.ContainsFunc(s.Cases, func(c *syntax.Case) bool { return c.Target.V == b.end }) {
			return true
		}
	}
	return false
}

// resetStep is a set step that resets the slots Rasa resets when the
// flow ends.
func (b *flowBuilder) resetStep(id string) *syntax.Step {
	m := newStep(id, "set")
	for _, s := range b.resets {
		m.Set().Assign = append(m.Set().Assign, assign(s, b.im.resetValue(s)))
	}
	return m
}

// newStep returns a step of the syntax model with its id and, unless
// typ is "", its type.
func newStep(id, typ string) *syntax.Step {
	s := syntax.NewStep(nil, syntax.Pos{}, "")
	s.ID = syntax.S(id)
	if typ != "" {
		setType(s, typ)
	}
	return s
}

// setType sets a step's type.
func setType(s *syntax.Step, typ string) {
	s.Type, s.Kind = syntax.S(typ), ir.Kind(typ)
}

// addCase adds a case of a branch step.
func addCase(s *syntax.Step, pattern, target string) {
	s.Branch().Cases = append(s.Branch().Cases, &syntax.Case{Pattern: syntax.S(pattern), Target: syntax.S(target)})
}

// assign is a set step's value of slot: null clears it; a string with
// braces is a template whose braces are escaped (escapeTemplate).
func assign(slot string, v any) *syntax.Assign {
	a := &syntax.Assign{Slot: syntax.S(slot), Kind: ir.AssignLiteral, Value: v}
	switch x := v.(type) {
	case nil:
		a.Kind = ir.AssignClear
	case string:
		if strings.ContainsAny(x, "{}") {
			a.Kind, a.Value, a.Src = ir.AssignTemplate, nil, syntax.S(x)
		}
	}
	return a
}

// pattern returns the flow's name when it overrides one of soni's
// patterns, whose context its conditions may read.
func (b *flowBuilder) pattern() string {
	if b.im.f.patterns && ir.IsPattern(b.f.name) {
		return b.f.name
	}
	return ""
}

// target resolves a Rasa jump target.
func (b *flowBuilder) target(t string, at loc) string {
	if t == "END" {
		return b.end
	}
	if id, ok := b.rasaID[t]; ok {
		return id
	}
	b.im.rep.add(at, "step", StatusManual, b.out, "write the step id this should go to", "flow %q jumps to %q, which is no step id of the flow; the import ends the flow there", b.f.name, t)
	return b.end
}

// seq translates a list of steps. root is true for the flow's own list:
// its last step ends the flow by running past it; a nested list's last
// step jumps to the end.
func (b *flowBuilder) seq(list []*node, root bool) {
	for i, st := range list {
		fall := b.end
		if i+1 < len(list) {
			fall = b.idOf[list[i+1]]
		} else if root {
			fall = ""
		}
		b.stepWithNext(st, fall, i+1 < len(list))
	}
}

// stepWithNext translates one step and where it goes next. fall is
// where it goes without a next ("" runs past the end of the flow); last
// is false when fall is the step written right after it, reached without
// a jump.
func (b *flowBuilder) stepWithNext(st *node, fall string, notLast bool) {
	last := !notLast
	before := len(b.im.rep.items)
	id := b.idOf[st]
	isLink := st.has("link")
	if isLink && len(b.resets) > 0 {
		// A link ends the flow: the slots Rasa resets at its end are
		// reset before it.
		b.emit(b.resetStep(id), []string{"Rasa resets the slots a flow collected when the flow ends (reset_after_flow_ends), to their initial_value."})
		id = b.unique(id + "_link")
	}
	m, comment := b.step(st, id)
	b.stepKeys(st)
	nx := st.get("next")
	if m != nil && st.has("collect") && b.validation(st, m, comment, nx, fall) {
		b.im.sum.Steps.add(false)
		if len(b.im.rep.items) == before+1 { // only the validation's own note
			b.im.sum.Steps.Converted++
		}
		return
	}
	b.im.sum.Steps.add(false)
	defer func() {
		if len(b.im.rep.items) == before {
			b.im.sum.Steps.Converted++
		}
	}()
	switch {
	case nx == nil || nx.kind == kNull || isLink:
		if m == nil {
			if fall == "" {
				fall = b.end
			}
			m = b.noop(id, fall)
		} else if last && fall != "" && !isLink {
			m.JumpTo = syntax.S(fall)
		}
		b.emit(m, comment)
	case nx.kind == kScalar:
		t := b.target(nx.str(), nx.at)
		if m == nil {
			m = b.noop(id, t)
		} else {
			m.JumpTo = syntax.S(t)
		}
		b.emit(m, comment)
	default:
		b.branches(st, id, m, comment, nx.list())
	}
}

// stepKeys are the keys each kind of Rasa step has that the import reads,
// its kind first, in the order step tries them; a step of a kind soni
// cannot express is kept whole as a comment.
var stepKeys = [][]string{
	{"collect", "description", "utter", "ask_before_filling", "reset_after_flow_ends", "rejections", "force_slot_filling"},
	{"action"},
	{"set_slots"},
	{"call"},
	{"link"},
	{"noop"},
}

// stepKeys reports what a step carries that the import does not
// translate, so that nothing is dropped silently: force_slot_filling, and
// any key its kind does not have.
func (b *flowBuilder) stepKeys(st *node) {
	var known []string
	for _, keys := range stepKeys {
		if st.has(keys[0]) {
			known = keys
			break
		}
	}
	if known == nil {
		return
	}
	if _, agent := b.im.agentCall(st); agent {
		return // agentStep reports its keys
	}
	for i, k := range st.keys {
		v := st.vals[i]
		switch {
		case k == "id" || k == "next" || k == formKey:
		case k == "force_slot_filling" && slices.Contains(known, k):
			if f, ok := v.boolean(); ok && f {
				b.im.rep.add(v.at, "step", StatusApproximated, b.out, "nothing, unless the answer may name another flow: then check the slot's value in a branch after the collect",
					"in flow %q, force_slot_filling makes Rasa take the whole answer to the collect of %q as its value; soni's understanding may still read a cancellation, a correction or another flow in it", b.f.name, st.get("collect").str())
			}
		case !slices.Contains(known, k):
			b.im.rep.add(v.at, "step", StatusIgnored, b.out, "nothing in soni corresponds to it; check that the flow does not rely on it",
				"flow %q: the step key %q is not translated", b.f.name, k)
		}
	}
}

// emit appends a step.
func (b *flowBuilder) emit(m *syntax.Step, comment []string) {
	if len(comment) > 0 {
		m.Comments.AddHead("", comment...)
	}
	b.steps = append(b.steps, m)
}

// noop is a step that only jumps: a Rasa noop, or a step kept as a
// comment, which must still carry its id for the jumps to it.
func (b *flowBuilder) noop(id, to string) *syntax.Step {
	m := newStep(id, "branch")
	m.Branch().Evaluate = syntax.S("true")
	addCase(m, "true", to)
	return m
}

// branches translates a step whose next is a list of conditions: one
// branch step per condition, then the steps of the branches written
// inline.
func (b *flowBuilder) branches(st *node, id string, m *syntax.Step, comment []string, links []*node) {
	type link struct {
		cond   string
		at     loc
		target *node
	}
	var ifs []link
	var elseT *node
	for _, l := range links {
		switch {
		case l.has("if"):
			ifs = append(ifs, link{cond: l.get("if").str(), at: l.at, target: l.get("then")})
		case l.has("else"):
			elseT = l.get("else")
		}
	}
	var nested [][]*node
	resolve := func(t *node) string {
		switch {
		case t == nil || t.kind == kNull:
			return b.end
		case t.kind == kSeq:
			if len(t.items) == 0 {
				return b.end
			}
			nested = append(nested, t.items)
			return b.idOf[t.items[0]]
		}
		return b.target(t.str(), t.at)
	}
	if len(ifs) == 0 {
		to := resolve(elseT)
		if m == nil {
			m = b.noop(id, to)
		} else if !(elseT != nil && elseT.kind == kSeq && len(elseT.items) > 0) {
			m.JumpTo = syntax.S(to)
		}
		b.emit(m, comment)
		for _, n := range nested {
			b.seq(n, false)
		}
		return
	}
	if m != nil {
		b.emit(m, comment)
	}
	owner := id
	for k, l := range ifs {
		bid := ""
		if k == 0 && m == nil {
			bid = id
		} else {
			bid = b.unique(owner + "_next")
		}
		bm := newStep(bid, "branch")
		var bcomment []string
		if k == 0 && m == nil {
			bcomment = comment
		}
		w := &condWriter{slotType: b.im.slotType, pattern: b.pattern()}
		expr, err := translateCond(l.cond, w)
		if err != nil {
			bcomment = append(bcomment, "Rasa: if: "+l.cond)
			b.im.rep.add(l.at, "step", StatusCommented, b.out, "rewrite the condition over the flow's slots, or take the branch out",
				"in flow %q, the condition %q cannot be translated (%v): the branch is never taken", b.f.name, l.cond, err)
			expr = "false"
		}
		bm.Branch().Evaluate = syntax.S(expr)
		addCase(bm, "true", resolve(l.target))
		if k == len(ifs)-1 {
			addCase(bm, "default", resolve(elseT))
		}
		b.emit(bm, bcomment)
	}
	for _, n := range nested {
		b.seq(n, false)
	}
}

// step translates the step itself, without its next: a soni step, or nil
// for a noop; comment is what goes above it.
func (b *flowBuilder) step(st *node, id string) (*syntax.Step, []string) {
	im := b.im
	m := newStep(id, "")
	switch {
	case st.has("collect"):
		return b.collect(st, m), nil
	case st.has("action"):
		name := st.get("action").str()
		switch {
		case im.responses[name] != nil:
			setType(m, "say")
			im.sayFields(m, name, b.f.name, b.out, st.at)
			return m, nil
		case rasaResponses[name] != "":
			setType(m, "say")
			im.sayDefault(m, name, b.out, st.at)
			return m, nil
		case name == "action_trigger_chitchat" || name == "action_trigger_search":
			// Rasa answers with a generated reply or enterprise search;
			// soni says the response Rasa says without them.
			resp := chitchatOrSearch[name]
			setType(m, "say")
			if im.responses[resp] != nil {
				im.sayFields(m, resp, b.f.name, b.out, st.at)
			} else {
				im.sayDefault(m, resp, b.out, st.at)
			}
			im.rep.add(st.at, "step", StatusApproximated, b.out, "nothing, unless the answer matters: then write the flow soni should run",
				"flow %q runs Rasa's default action %q: %s, so the imported flow says %q", b.f.name, name, builtinActions[name], resp)
			return m, nil
		case im.f.patterns && ir.IsBuiltinAction(name):
			// One of the actions soni runs itself, for the patterns.
			setType(m, "action")
			m.Action().Call = syntax.S(name)
			return m, nil
		case isBuiltinAction(name):
			c := commentOf(withoutNext(st), "Rasa's default action "+name+": "+builtinActions[name]+".")
			im.rep.add(st.at, "step", StatusCommented, b.out, "nothing to do if soni's behaviour suits you; otherwise express it with soni steps",
				"flow %q runs Rasa's default action %q, which soni has no action for: %s", b.f.name, name, builtinActions[name])
			return nil, c
		case strings.HasPrefix(name, "utter_"):
			im.rep.add(st.at, "step", StatusManual, b.out, "add the response to the domain, or fix the name",
				"flow %q says the response %q, which the domain does not define", b.f.name, name)
			setType(m, "say")
			m.Message = syntax.S(name)
			return m, nil
		}
		setType(m, "action")
		m.Action().Call = syntax.S(name)
		b.mapOutputs(m, name)
		return m, nil
	case st.has("set_slots"):
		setType(m, "set")
		var sl []*syntax.Assign
		for _, kv := range st.get("set_slots").list() {
			for i, k := range kv.keys {
				v := kv.vals[i].value()
				if s, ok := v.(string); ok {
					v = escapeTemplate(s)
				}
				if im.slots[k] == nil {
					im.rep.add(kv.at, "step", StatusManual, b.out, "declare the slot in the domain",
						"flow %q sets slot %q, which the domain does not declare: soni keeps it as a slot of the flow, of type any", b.f.name, k)
				}
				sl = append(sl, assign(k, v))
			}
		}
		if len(sl) == 0 {
			return nil, commentOf(st, "An empty set_slots.")
		}
		m.Set().Assign = sl
		return m, nil
	case st.has("call"), st.has("link"):
		kind := "call"
		if st.has("link") {
			kind = "link"
		}
		target := st.get(kind).str()
		if kind == "call" {
			if what, ok := im.agentCall(st); ok {
				return b.agentStep(st, m, what), nil
			}
		}
		if im.flows[target] == nil && !(im.f.patterns && ir.IsPattern(target)) {
			im.rep.add(st.at, "step", StatusCommented, b.out, "import or write the flow, or remove the step",
				"flow %q %ss %q, which is not a flow of the project (or one soni provides)", b.f.name, kind, target)
			return nil, commentOf(st, "")
		}
		setType(m, kind)
		m.Link().Target = syntax.S(target)
		return m, nil
	case st.has("noop"):
		return nil, nil
	}
	keys := strings.Join(st.keys, ", ")
	im.rep.add(st.at, "step", StatusCommented, b.out, "express the step with soni's steps (say, collect, set, branch, action, call, link)",
		"flow %q has a step soni cannot express (keys: %s)", b.f.name, keys)
	return nil, commentOf(st, "")
}

// askAction returns the custom action that asks for a collect's slot, as
// Rasa does when no response asks for it (action_ask_SLOT), or "".
func (im *importer) askAction(st *node) string {
	if !st.has("collect") {
		return ""
	}
	slot := st.get("collect").str()
	utter := st.get("utter").str()
	if utter == "" {
		utter = "utter_ask_" + slot
	}
	if im.responses[utter] != nil {
		return ""
	}
	// A form's slot may be asked by action_ask_FORM_SLOT (rules.go).
	var acts []string
	if form := st.get(formKey).str(); form != "" {
		acts = append(acts, "action_ask_"+form+"_"+slot)
	}
	for _, act := range append(acts, "action_ask_"+slot) {
		if im.p.py[act] != nil || im.domainAction(act) {
			return act
		}
	}
	return ""
}

// mapOutputs maps each slot a custom action sets, and the flow sees, to
// itself.
func (b *flowBuilder) mapOutputs(m *syntax.Step, action string) {
	for _, o := range b.im.actionSlots(action) {
		if b.im.visible(o, b.f.name) {
			m.Action().MapOutputs = append(m.Action().MapOutputs, &syntax.OutputMap{Output: syntax.S(o), Slot: syntax.S(o)})
		}
	}
}

// collect translates a collect step.
func (b *flowBuilder) collect(st *node, m *syntax.Step) *syntax.Step {
	im := b.im
	slot := st.get("collect").str()
	setType(m, "collect")
	m.Slot = syntax.S(slot)
	si := im.slots[slot]
	if si == nil {
		im.rep.add(st.at, "step", StatusManual, b.out, "declare the slot in the domain with its type",
			"flow %q collects slot %q, which the domain does not declare: soni keeps the answer as text in a slot of the flow", b.f.name, slot)
	} else if si.flow == "" && !slices.Contains(b.resets, slot) {
		// Rasa keeps the value after the flow (persisted), as the
		// conversation slot does.
		m.Comments.SetLine("slot", "soni:ignore W017")
	}
	utter := st.get("utter").str()
	if utter == "" {
		utter = "utter_ask_" + slot
	}
	switch {
	case im.responses[utter] != nil:
		im.questionFields(m, utter, b.f.name, b.out, st.at)
	case im.askAction(st) != "":
		// Rasa asks with the custom action action_ask_SLOT: soni's
		// ask_action runs it each time the question is asked.
		act := im.askAction(st)
		m.Collect().AskAction = syntax.S(act)
		if outs := im.actionSlots(act); len(outs) > 0 {
			im.rep.add(st.at, "step", StatusApproximated, b.out, "set the slots with an action step before the collect, if they matter",
				"flow %q asks for %q with the custom action %q, which also sets %s: an ask_action's outputs set nothing in soni", b.f.name, slot, act, strings.Join(outs, ", "))
		}
	default:
		m.Message = syntax.S("What is the " + strings.ReplaceAll(slot, "_", " ") + "?")
		im.rep.add(st.at, "step", StatusManual, b.out, "add a response utter_ask_"+slot+" or write the question",
			"flow %q collects %q, but there is no response %q to ask for it: the import asks a generic question", b.f.name, slot, utter)
	}
	if f, ok := st.get("ask_before_filling").boolean(); ok && f {
		m.Collect().Force = true
	}
	if rj := st.get("rejections").list(); len(rj) > 0 {
		b.rejections(st, m, slot, rj)
	}
	return m
}

// rejections translates a collect's rejections into its validator: the
// answer is valid when no rejection's condition holds.
func (b *flowBuilder) rejections(st *node, m *syntax.Step, slot string, rj []*node) {
	im := b.im
	var conds []string
	var msg string
	for i, r := range rj {
		w := &condWriter{slotType: im.slotType, value: slot, pattern: b.pattern()}
		expr, err := translateCond(r.get("if").str(), w)
		if err != nil {
			im.rep.add(r.at, "step", StatusCommented, b.out, "write the check as the collect's validator expression over value",
				"in flow %q, the rejection %q of %q cannot be translated (%v)", b.f.name, r.get("if").str(), slot, err)
			continue
		}
		conds = append(conds, "not "+wrap(expr))
		if i == 0 {
			msg = r.get("utter").str()
		} else if u := r.get("utter").str(); u != msg {
			im.rep.add(r.at, "step", StatusApproximated, b.out, "split the checks over several collects, or word one message for all",
				"in flow %q, %q has several rejections with their own messages; soni says the first one's (%q) for every rejection", b.f.name, slot, msg)
		}
	}
	if len(conds) == 0 {
		return
	}
	m.Collect().Validator = syntax.S(strings.Join(conds, " and "))
	if msg != "" {
		im.errorMessage(m, msg, b.f.name, b.out, st.at)
	}
	im.rep.add(st.at, "step", StatusApproximated, b.out, "nothing, unless a flow relied on seeing the rejected value",
		"in flow %q, Rasa stores a rejected value of %q and then resets it; soni never stores it", b.f.name, slot)
}

// commentOf writes a Rasa step as comment lines, with a note first.
func commentOf(st *node, note string) []string {
	body := commentText("rasa", listOf(rasaTree(st)))
	lines := strings.Split(body, "\n")[1:]
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	out := []string{}
	if note != "" {
		out = append(out, note)
	}
	out = append(out, "Rasa step kept as a comment (soni cannot express it):")
	out = append(out, strings.Join(lines, "\n"))
	return out
}

// withoutNext returns a step without its next (translated on its own).
func withoutNext(st *node) *node {
	c := &node{kind: st.kind, at: st.at}
	for i, k := range st.keys {
		if k != "next" {
			c.keys = append(c.keys, k)
			c.vals = append(c.vals, st.vals[i])
		}
	}
	return c
}

// escapeTemplate escapes { and } in a literal that soni would read as a
// template.
func escapeTemplate(s string) string {
	return strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
}

// isPattern reports whether a flow name is a Rasa pattern's.
func isPattern(name string) bool { return strings.HasPrefix(name, "pattern_") }

// visible reports whether slot is visible in flow: a conversation slot,
// or a slot of that flow.
func (im *importer) visible(slot, flow string) bool {
	si := im.slots[slot]
	return si != nil && (si.flow == "" || si.flow == flow)
}

// domainAction reports whether the domain lists an action.
func (im *importer) domainAction(name string) bool {
	return slices.ContainsFunc(im.p.actions, func(a *named) bool { return a.name == name })
}
