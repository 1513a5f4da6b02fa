package understand

import (
	"fmt"
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// widen makes sure a reading the rules reached without being sure, when
// a general condition shows there is nothing left for a model to decide
// (docs/understanding.md, "The routing rule").
func (r *Rules) widen(rd Reading, msg string, v vm.View) Reading {
	if rd.Sure || len(rd.Commands) != 1 || r.mean == nil {
		return rd
	}
	head := strings.TrimSpace(msg)
	if head == "" || len(head) > MaxScan {
		return rd
	}
	norm := collapseRepeats(values.Normalize(head))
	c := rd.Commands[0]
	switch {
	case c.Kind == vm.CmdStartFlow && v.Pending == nil && len(v.Stack) == 0:
		if why, ok := r.plainOpening(c, norm); ok {
			rd.Sure, rd.Reason = true, rd.Reason+"; "+why
		}
	case c.Kind == vm.CmdCorrectSlot && v.Pending != nil:
		if why, ok := r.plainCorrection(c, head, v); ok {
			rd.Sure, rd.Reason = true, rd.Reason+"; "+why
		}
	case c.Kind == vm.CmdSetSlot && v.Pending != nil && v.Pending.Kind == vm.PendingCollect && c.Slot == v.Pending.Slot:
		if why, ok := r.plainFigures(c, head, v); ok {
			rd.Sure, rd.Reason = true, rd.Reason+"; "+why
		} else if why, ok := r.plainTextAnswer(c, head, norm, v); ok {
			rd.Sure, rd.Reason = true, rd.Reason+"; "+why
		}
	case (c.Kind == vm.CmdHandoff || c.Kind == vm.CmdHelp || c.Kind == vm.CmdStartFlow) && v.Pending != nil:
		if why, ok := r.plainHelpRequest(c, norm, v); ok {
			rd.Sure, rd.Reason = true, rd.Reason+"; "+why
		}
	case c.Kind == vm.CmdCancelFlow && len(v.Stack) > 0:
		if why, ok := r.plainCancelObject(head, norm, v); ok {
			rd.Sure, rd.Reason = true, rd.Reason+"; "+why
		}
	}
	return rd
}

// plainHelpRequest reports whether a request for a person or for help,
// while a question is pending, is plainly one: the small talk reading
// says so, and the reading is that request or the project's own flow
// for it. A greeting or a thanks is not: it may be said in passing. At
// a free-text question, a message of one or two words may be the
// answer ("an agent"); at a question with options, a request for help
// may ask for them.
func (r *Rules) plainHelpRequest(c vm.Command, norm string, v vm.View) (string, bool) {
	k, ok := r.smallTalk(norm)
	if !ok || (k.Kind != vm.CmdHandoff && k.Kind != vm.CmdHelp) {
		return "", false
	}
	if c.Kind != k.Kind && (c.Kind != vm.CmdStartFlow || r.talkFlow(talkKind(k), v) != c.Flow) {
		return "", false
	}
	p := v.Pending
	def := r.slotDef(p.Flow, p.Slot)
	if p.Kind == vm.PendingCollect && !typed(def) && !r.readsAs(p.Flow, p.Slot) && fieldsUnder(norm, 3) {
		return "", false
	}
	if k.Kind == vm.CmdHelp && (len(r.questionButtons(p)) > 0 || (p.Kind == vm.PendingCollect && def != nil && len(def.Values) > 0)) {
		// "what are my options?" at a question with options may ask
		// for them.
		return "", false
	}
	return "a request for a person or for help", true
}

// plainCancelObject reports whether a cancel of the top flow is plainly
// one: a cancel verb whose object's words are all words of the top
// flow's name, description or trigger phrases, and of no other flow on
// the stack ("forget the car" while the car rental asks, "stop the
// transfer"). Not a question, not a flow whose own words are a cancel
// verb ("cancel the booking" may be what a flow that cancels bookings
// asks about), and not while a pattern asks.
func (r *Rules) plainCancelObject(head, norm string, v vm.View) (string, bool) {
	top := v.Stack[len(v.Stack)-1]
	if ir.IsPattern(top) || r.prog == nil || isQuestion(head, norm) {
		return "", false
	}
	_, object, then := cancelRequest(norm)
	if object == nil || then != nil {
		return "", false
	}
	var own []string
	for _, w := range object {
		if !cancelObjects[w] && !stopWords[w] {
			own = append(own, stem(w))
		}
	}
	if len(own) == 0 {
		return "", false
	}
	words := func(flow string) map[string]bool {
		out := map[string]bool{}
		f := r.prog.Flow(flow)
		if f == nil {
			return out
		}
		for _, t := range append([]string{strings.NewReplacer("_", " ", "-", " ").Replace(f.Name), f.Description}, f.Triggers...) {
			for w := range strings.FieldsSeq(values.Normalize(t)) {
				out[stem(w)] = true
				if cancelVerbs[w] {
					out[""] = true // a flow about cancelling
				}
			}
		}
		return out
	}
	mine := words(top)
	if mine[""] {
		return "", false
	}
	for _, o := range own {
		if !mine[o] {
			return "", false
		}
	}
	for _, name := range v.Stack[:len(v.Stack)-1] {
		theirs := words(name)
		for _, o := range own {
			if theirs[o] {
				return "", false
			}
		}
	}
	return "a cancel verb with only words of the flow on top", true
}

// plainOpening reports whether the start of a flow, with nothing asked
// and no flow running, is plainly what the message says: one flow's
// words score best, with no tie and no typo needed; no negation; every
// value named as the project writes it, and nothing that looks like a
// value left over: no number or category no slot took, and no word the
// flow does not know while a slot that words fill is open (a word the
// flow does not know, with none open, says how, not what).
func (r *Rules) plainOpening(c vm.Command, norm string) (string, bool) {
	fr := r.byName[c.Flow]
	if fr == nil {
		return "", false
	}
	words := strings.Fields(norm)
	for _, w := range words {
		if negations[w] || doingNegations[w] {
			return "", false
		}
	}
	concepts, typos := r.conceptsOf(withoutSmallTalkLead(norm))
	if len(typos) > 0 {
		// A word read as another one it resembles: the model reads
		// typos better.
		return "", false
	}
	scores, unmatched := r.mean.score(concepts, nil)
	if len(scores) == 0 || scores[0].flow != c.Flow || (len(scores) > 1 && scores[1].score >= scores[0].score) {
		return "", false
	}
	// A value of the flow the message names, which no slot took: "stole"
	// for a reason "stolen".
	categories := 0
	for _, sv := range c.Slots {
		if def := r.defOf(fr, sv.Slot); def != nil && def.Type == ir.TypeCategorical {
			categories++
		}
	}
	if fm := r.mean.flows[c.Flow]; fm != nil {
		named := 0
		for _, k := range concepts {
			if fm.values[k] {
				named++
			}
		}
		if named > categories {
			return "", false
		}
	}
	filled := map[string]bool{}
	typedValues := 0
	for _, sv := range c.Slots {
		filled[sv.Slot] = true
		def := r.defOf(fr, sv.Slot)
		if def == nil {
			return "", false
		}
		switch {
		case def.Type == ir.TypeCategorical:
			if named := valuesNamed(def, norm); len(named) != 1 || named[0] != fmt.Sprint(sv.Value) {
				return "", false
			}
		case typed(def) || r.readsAs(c.Flow, sv.Slot):
			typedValues++
		default:
			// Free text: a short value, not the message again.
			s, ok := sv.Value.(string)
			if !ok || len(strings.Fields(s)) > 3 || len(strings.Fields(values.Normalize(s))) >= len(words) {
				return "", false
			}
		}
	}
	// A value no slot took: more numbers than typed values, a category
	// named but not filled, or words the flow does not know while a slot
	// that words fill is open.
	// A word of a value a text or category slot took ("claim 48213",
	// "my March bill") is that value's, not a number or date left over.
	taken := map[string]bool{}
	for _, sv := range c.Slots {
		if s, ok := sv.Value.(string); ok {
			if def := r.defOf(fr, sv.Slot); def != nil && (def.Type == ir.TypeCategorical || !typed(def)) {
				for _, w := range strings.Fields(values.Normalize(s)) {
					taken[w] = true
				}
			}
		}
	}
	digits := 0
	for _, w := range words {
		if strings.ContainsAny(w, "0123456789") && !taken[w] {
			digits++
		}
	}
	if digits > typedValues {
		return "", false
	}
	// A slot of the flow, or of a flow it calls, that a word may fill
	// and nothing filled: free text ("rent a car in Zurich"), a list (or
	// one filled, which may have missed an item) or a category named in
	// other words ("my card is cracked" for a reason "damaged").
	open := false
	for _, s := range fr.slots {
		if s.def == nil || !fr.collected[s.name] {
			continue
		}
		if filled[s.name] {
			// A list filled may have missed an item.
			open = open || (s.def.Type == ir.TypeList && r.takesWords(c.Flow, s))
			continue
		}
		if s.def.Type == ir.TypeCategorical && len(valuesNamed(s.def, norm)) > 0 {
			return "", false
		}
		if r.takesWords(c.Flow, s) {
			open = true
		}
	}
	if !open {
		open = r.calleeTakesWords(c.Flow)
	}
	// The words of the typed values taken: a number's words and its
	// unit ("two nights"), a date's words ("next friday").
	said := r.typedValueWords(c, fr, words)
	var unknown []string
	for _, w := range unmatched {
		if !politeWords[w] && !politeAround[w] && !said[w] {
			unknown = append(unknown, w)
		}
	}
	if len(unknown) == 0 || coveredBy(unknown, c.Slots) {
		return "one flow's words, each value named", true
	}
	if open {
		return "", false
	}
	if plain, object, then := cancelRequest(norm); plain || object != nil || then != nil {
		// "stop that, I want ...": a cancel word the flow does not know.
		return "", false
	}
	// Words the flow does not know, with no slot open to take them ("my
	// internet is super slow"): they say how, not what. A number or
	// a date in words is a value, though, unless a typed slot took one.
	if typedValues == 0 {
		for _, w := range words {
			if !taken[w] && (values.IsNumberWord(w) || values.IsDateWord(w) || relativeDays[w]) {
				return "", false
			}
		}
	}
	return "one flow's words, each value named, and words of no slot", true
}

// typedValueWords are the stems of the words of a message that say the
// typed values an opening took: a number in words, and the unit of its
// slot ("three nights" for a count of nights), when a number slot took
// a value; a date's words ("next friday") when a date slot took one.
func (r *Rules) typedValueWords(c vm.Command, fr *flowRules, words []string) map[string]bool {
	var number, date bool
	units := map[string]bool{}
	for _, sv := range c.Slots {
		def := r.defOf(fr, sv.Slot)
		if def == nil {
			continue
		}
		switch def.Type {
		case ir.TypeInteger, ir.TypeNumber:
			number = true
			for u := range unitOf(&slotRef{name: sv.Slot, def: def}) {
				units[u] = true
			}
		case ir.TypeDate:
			date = true
		}
	}
	said := map[string]bool{}
	for _, w := range words {
		switch {
		case number && (values.IsNumberWord(w) || units[stem(w)] || units[w]):
			said[stem(w)] = true
		case date && (values.IsDateWord(w) || relativeDays[w] || dateVocabulary[w]):
			said[stem(w)] = true
		}
	}
	return said
}

// takesWords reports whether a slot of a flow may take a word of a
// message as its value: free text, a list, or a category (a word may
// name one of its values in words the project does not write). A
// number, a date, a yes or no, or a code is read by its type.
func (r *Rules) takesWords(flow string, s slotRef) bool {
	if s.def == nil || r.readsAs(flow, s.name) {
		return false
	}
	switch s.def.Type {
	case ir.TypeCategorical, ir.TypeList:
		return true
	}
	return !typed(s.def)
}

// calleeTakesWords reports whether a flow calls, directly or through
// other calls, a flow that collects a slot a word may fill
// (takesWords).
func (r *Rules) calleeTakesWords(flow string) bool {
	for _, name := range r.calledFlows(flow) {
		fr := r.byName[name]
		if fr == nil {
			continue
		}
		for _, s := range fr.slots {
			if fr.collected[s.name] && r.takesWords(name, s) {
				return true
			}
		}
	}
	return false
}

// valuesNamed are the values of a categorical slot that a message names
// by the value itself, its label or a synonym, word for word.
func valuesNamed(def *ir.Slot, norm string) []string {
	padded := " " + norm + " "
	var out []string
	for _, val := range def.Values {
		for _, ph := range append([]string{strings.ReplaceAll(val.Value, "_", " "), val.Label}, val.Synonyms...) {
			n := values.Normalize(ph)
			if n != "" && strings.Contains(padded, " "+n+" ") {
				out = append(out, val.Value)
				break
			}
		}
	}
	return out
}

// plainCorrection reports whether a correction of a typed slot is
// plainly one: the correction's words ("actually", "no, make it",
// "instead") around exactly an answer to the slot's question, a value
// no other typed slot of the flow takes.
func (r *Rules) plainCorrection(c vm.Command, head string, v vm.View) (string, bool) {
	flow := v.Pending.Flow
	def := r.slotDef(flow, c.Slot)
	if !typed(def) || def.Type == ir.TypeBoolean || def.Type == ir.TypeList {
		return "", false
	}
	rest, _, ok := r.correction(head)
	if !ok || strings.TrimSpace(rest) == "" || isQuestion(head, values.Normalize(head)) {
		return "", false
	}
	asked := &vm.Pending{Kind: vm.PendingCollect, Flow: flow, Slot: c.Slot}
	if !r.sureAnswerTextOf(asked, rest, values.Normalize(rest), v) {
		return "", false
	}
	fr := r.byName[flow]
	if fr == nil {
		return "", false
	}
	conv := v.Converter()
	for _, s := range fr.slots {
		if s.name == c.Slot || s.def == nil || !typed(s.def) || !fr.collected[s.name] {
			continue
		}
		if _, err := conv.Convert(s.def, rest); err == nil {
			// "no, 3" where both the passengers and the nights count.
			return "", false
		}
	}
	return "a correction word and exactly a value of " + c.Slot, true
}

// plainFigures reports whether an answer in figures to a free-text
// question is plainly the answer: one word of three characters or more
// with a digit in it ("48213", "CLM-20931", "03/14/1988"), which the slot
// keeps as typed, while no other open slot of the flow could take it.
// For a text slot the rules read as a date, only when the question names
// a layout and the answer is written in it: that answers the question,
// and the slot keeps it as typed (dateformat.go). A shorter number may pick an option the
// question listed, or count something.
func (r *Rules) plainFigures(c vm.Command, head string, v vm.View) (string, bool) {
	p := v.Pending
	if r.prog == nil {
		return "", false
	}
	// The slot as the project declares it, not as the rules read it.
	def := r.prog.ResolveSlot(p.Flow, p.Slot)
	if def == nil || def.Pattern != "" || (def.Type != ir.TypeText && def.Type != ir.TypeAny && def.Type != "") {
		return "", false
	}
	if len(r.questionButtons(p)) > 0 || strings.ContainsAny(head, "?@") {
		return "", false
	}
	figures := func(w string) bool {
		return len(w) >= 3 && !strings.ContainsAny(w, " \t\n") && strings.ContainsAny(w, "0123456789")
	}
	if !figures(head) {
		// The figures with only the slot's own name and stop words
		// around them: "my claim number is 77120".
		if val, ok := c.Value.(string); ok && figures(val) && !r.readsAs(p.Flow, p.Slot) && r.onlySlotWordsAround(p.Slot, val, head) {
			return r.figuresNoOtherSlotTakes(val, v)
		}
		return "", false
	}
	if r.readsAs(p.Flow, p.Slot) {
		// The date as the question's layout writes it, read as the rules
		// read it (the reading is written in the layout after widen).
		l, ok := r.pendingDateLayout(v)
		if !ok {
			return "", false
		}
		t, err := time.Parse(l.layout, head)
		if err != nil || c.Value != t.Format("2006-01-02") {
			return "", false
		}
		// Written as the question asks: the question's answer.
		return "a date written in the layout the question names", true
	}
	if c.Value != head {
		return "", false
	}
	return r.figuresNoOtherSlotTakes(head, v)
}

// onlySlotWordsAround reports whether a message is a value with only
// words of the slot's name and stop words around it.
func (r *Rules) onlySlotWordsAround(slot, val, head string) bool {
	name := map[string]bool{}
	for _, w := range strings.Fields(values.Normalize(strings.ReplaceAll(slot, "_", " "))) {
		name[stem(w)] = true
	}
	seen := false
	for _, w := range strings.Fields(head) {
		if strings.Trim(w, ".,!;:") == val {
			seen = true
			continue
		}
		for _, n := range strings.Fields(values.Normalize(w)) {
			if !stopWords[n] && !name[stem(n)] {
				return false
			}
			if negations[n] || doingNegations[n] {
				return false
			}
		}
	}
	return seen
}

// figuresNoOtherSlotTakes is plainFigures' last condition: no other
// open slot of the flow asking could take the figures.
func (r *Rules) figuresNoOtherSlotTakes(head string, v vm.View) (string, bool) {
	p := v.Pending
	fr := r.byName[p.Flow]
	if fr == nil {
		return "", false
	}
	conv := v.Converter()
	for _, s := range fr.slots {
		if s.name == p.Slot || s.def == nil || !fr.collected[s.name] {
			continue
		}
		if v.Slot != nil {
			if x, ok := v.Slot(s.name); ok && x != nil {
				continue
			}
		}
		switch {
		case s.def.Type == ir.TypeCategorical || s.def.Type == ir.TypeBoolean:
		case !typed(s.def) && !r.readsAs(p.Flow, s.name):
			// Free text takes figures too.
			return "", false
		default:
			if _, err := conv.Convert(s.def, head); err == nil {
				return "", false
			}
		}
	}
	return "one word in figures that no other open slot takes", true
}

// plainTextAnswer reports whether a value read out of a sentence for the
// free-text question asked is plainly the answer: a short value that
// would be a sure answer on its own, with around it only words that
// mean no flow but the one asking, no number and no question ("it's for
// my brother Luis", "going to New York").
func (r *Rules) plainTextAnswer(c vm.Command, head, norm string, v vm.View) (string, bool) {
	p := v.Pending
	def := r.slotDef(p.Flow, p.Slot)
	if def == nil || typed(def) || r.readsAs(p.Flow, p.Slot) || (def.Type != ir.TypeText && def.Type != ir.TypeAny && def.Type != "") {
		return "", false
	}
	val, ok := c.Value.(string)
	if !ok {
		return "", false
	}
	vn := values.Normalize(val)
	vw := strings.Fields(vn)
	words := strings.Fields(norm)
	if len(vw) == 0 || len(vw) >= len(words) || isQuestion(head, norm) || strings.ContainsAny(head, "0123456789?@/") {
		return "", false
	}
	if !r.sureAnswerTextOf(p, val, vn, v) || !r.nothingElse(p, val, vn) {
		return "", false
	}
	// The words around the value.
	padded := " " + norm + " "
	i := strings.Index(padded, " "+vn+" ")
	if i < 0 {
		return "", false
	}
	around := strings.TrimSpace(padded[:i] + " " + padded[i+len(vn)+2:])
	for _, w := range strings.Fields(around) {
		if negations[w] || doingNegations[w] || nonAnswers[w] {
			return "", false
		}
	}
	if _, ok := r.smallTalk(around); ok {
		return "", false
	}
	concepts, typos := r.conceptsOf(around)
	if len(typos) > 0 {
		return "", false
	}
	scores, _ := r.mean.score(concepts, nil)
	for _, s := range scores {
		if !onTop(v, s.flow) {
			return "", false
		}
	}
	return "a short value with only words of the flow asking around it", true
}
