package understand

import (
	"slices"
	"strings"
	"unicode"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// The opening keeps its words (docs/understanding.md, "The opening keeps
// its words"): a message that starts a flow by describing what the
// flow's first free-text slot asks for ("my laptop won't turn on" for
// "The problem in the customer's words") fills that slot, as a slot
// mapped from the triggering message would. And a negated verb of
// doing ("won't turn on", "doesn't start") means what the lexicon's
// phrases of that form mean ("won't load", "doesn't work": a problem).

// doingNegations are the words that negate a verb of doing, normalized.
var doingNegations = lexdata.Set("doing_negations")

// negatedLeads maps each word of doingNegations to the concept of the
// lexicon's phrases that start with it ("wont load", "wont work", "wont
// open": a problem), when two or more do and one concept has most of
// them.
func negatedLeads(phrases [][]string) map[string]string {
	count := map[string]map[string]int{}
	for _, ph := range phrases {
		if len(ph) < 3 || !doingNegations[ph[0]] {
			continue
		}
		if count[ph[0]] == nil {
			count[ph[0]] = map[string]int{}
		}
		count[ph[0]][ph[len(ph)-1]]++
	}
	out := map[string]string{}
	for neg, byConcept := range count {
		best, n, total := "", 0, 0
		for c, k := range byConcept {
			total += k
			if k > n || (k == n && c < best) {
				best, n = c, k
			}
		}
		if n >= 2 && 2*n > total {
			out[neg] = best
		}
	}
	return out
}

// negatedConcepts are the concepts of the negated verbs of a message
// that no lexicon phrase read: "wont turn" in "my laptop won't turn on".
func (l *lex) negatedConcepts(words []string, used []bool) []string {
	if l.negated == nil {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(words); i++ {
		c, ok := l.negated[words[i]]
		if !ok || used[i] || used[i+1] || stopWords[words[i+1]] || isNumberish(words[i+1]) {
			continue
		}
		used[i] = true
		out = append(out, c)
	}
	return out
}

// openingText is the value of the flow's first collected free-text slot
// that a message starting the flow describes: the slot holds no place,
// person, origin or recipient, the message shares
// a concept with the slot's description or question ("my laptop is
// broken" and "Please describe the problem"), and names a thing no flow
// has a word for ("my laptop"). ok is false
// otherwise, and when the slot already has a value.
func (r *Rules) openingText(fr *flowRules, head string, filled []vm.SlotValue) (vm.SlotValue, bool) {
	if r.mean == nil || r.prog == nil {
		return vm.SlotValue{}, false
	}
	var slot *slotRef
	for i := range fr.slots {
		s := &fr.slots[i]
		if s.def == nil || !fr.collected[s.name] {
			continue
		}
		if !typed(s.def) && (s.def.Type == ir.TypeText || s.def.Type == "") {
			slot = s
			break
		}
	}
	if slot == nil || hasValue(filled, slot.name) || r.readsAs(fr.name, slot.name) {
		return vm.SlotValue{}, false
	}
	// A place, a person, where from or where to: by the slot's name,
	// label and question (a description says "in the customer's words"
	// of no place).
	if slotRole(slot.name, &ir.Slot{Label: slot.def.Label}, r.question(fr.name, slot.name)) != roleNone {
		return vm.SlotValue{}, false
	}
	norm := withoutSmallTalkLead(values.Normalize(head))
	msg := r.mean.lex.concepts(norm, nil)
	asks := map[string]bool{}
	text := slot.def.Description + " " + slot.def.Label + " " + r.question(fr.name, slot.name)
	for _, c := range r.mean.lex.concepts(values.Normalize(text), nil) {
		if !genericWords[c] {
			asks[c] = true
		}
	}
	shares := false
	for _, c := range msg {
		shares = shares || asks[c]
	}
	if !shares || !r.namesSomething(norm) {
		return vm.SlotValue{}, false
	}
	return vm.SlotValue{Slot: slot.name, Value: strings.TrimSpace(head)}, true
}

// namesSomething reports whether a message names a thing of its own,
// which no flow has a word for, after an article or a possessive: "my
// laptop", "the app", "el wifi". "I found a bug" and "I have a new
// problem to report" name only the flows' own words: they ask, and
// describe nothing yet.
func (r *Rules) namesSomething(norm string) bool {
	words := strings.Fields(norm)
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !(articles[words[i-1]] || possessives[words[i-1]]) || stopWords[w] || isNumberish(w) {
			continue
		}
		if c := r.mean.lex.concept(w); !r.flowWord(c) && !genericWords[c] && !genericWords[w] {
			return true
		}
	}
	return false
}

// flowWord reports whether a concept is a word of some flow: of its
// phrases, name, description or values.
func (r *Rules) flowWord(c string) bool {
	for _, fm := range r.mean.flows {
		if fm.trigger[c] || fm.about[c] || fm.values[c] {
			return true
		}
	}
	return false
}

// question is the text of the question a flow's collect of a slot asks.
func (r *Rules) question(flow, slot string) string {
	f := r.prog.Flow(flow)
	if f == nil {
		return ""
	}
	for _, n := range f.Nodes {
		if n != nil && n.Kind == ir.KindCollect && n.Slot == slot && n.Message != nil {
			return questionText(r.prog, n.Message)
		}
	}
	return ""
}

// questionText is the text a step's message says: the template as
// written, or the texts of the response it names (an imported
// assistant's utter_ask_SLOT), every variation's.
func questionText(p *ir.Program, m *ir.Template) string {
	if m == nil {
		return ""
	}
	if m.Response == "" || p == nil {
		return m.Src
	}
	resp := p.Response(m.Response)
	if resp == nil {
		return m.Src
	}
	var texts []string
	for _, va := range resp.Variations {
		if va != nil && va.Text != nil {
			texts = append(texts, va.Text.Src)
		}
	}
	return strings.Join(texts, " ")
}

// askedValues are the values of a flow's place, person, origin or
// recipient slots that the message gives after the carrier their own
// question starts with ("in which city?" is answered "in Basel"), for
// the slots the message filled no other way. A carrier of a role
// another slot of the flow has is that slot's, and one that two slots'
// questions start with fills neither.
func (r *Rules) askedValues(fr *flowRules, toks []token, filled []vm.SlotValue) []vm.SlotValue {
	var out []vm.SlotValue
	asked := r.askedCarriers(fr)
	for i := range fr.slots {
		s := &fr.slots[i]
		if asked[i] == nil || hasValue(filled, s.name) {
			continue
		}
		if val, _, ok := r.carriedBy(toks, [][]string{asked[i]}); ok {
			out = append(out, vm.SlotValue{Slot: s.name, Value: val})
		}
	}
	return out
}

// askedCarriers are the carriers askedValues reads after, by slot of
// fr.slots: the askedCarrier of each role slot the flow collects, nil
// for a slot that has none or shares it with another. They depend on
// the program alone, and are worked out once per flow.
func (r *Rules) askedCarriers(fr *flowRules) [][]string {
	fr.asked.once.Do(func() {
		byCarrier := map[string]int{}
		asked := make([][]string, len(fr.slots))
		for i := range fr.slots {
			s := &fr.slots[i]
			if fr.role[s.name] == roleNone || !fr.collected[s.name] {
				continue
			}
			asked[i] = r.askedCarrier(fr, s, fr.role[s.name])
			if asked[i] != nil {
				byCarrier[strings.Join(asked[i], " ")]++
			}
		}
		for i := range asked {
			if asked[i] != nil && byCarrier[strings.Join(asked[i], " ")] > 1 {
				asked[i] = nil
			}
		}
		fr.asked.carriers = asked
	})
	return fr.asked.carriers
}

// askedCarrier is the carrier of another role that a role slot's own
// question starts with, before a question word ("in which city?" for a
// trip's destination), when no slot of the flow has that role alone:
// the words the question asks to be answered with.
func (r *Rules) askedCarrier(fr *flowRules, s *slotRef, own role) []string {
	words := strings.Fields(values.Normalize(r.question(fr.name, s.name)))
	for _, ro := range []role{roleSource, roleTarget, roleLocation, rolePerson} {
		cs := carriers[ro]
		if ro == own {
			continue
		}
		if fr.roles[ro] != nil {
			continue
		}
		for _, c := range cs {
			if len(words) > len(c) && slices.Equal(words[:len(c)], c) && questionWords[words[len(c)]] {
				return c
			}
		}
	}
	return nil
}

// namedIdentifier is the identifier an opening gives after a word of
// its slot's name: "check the status of claim 48213" for claim_number,
// "ticket T-31415" for ticket_id. The slot is a collected free-text slot
// with no value yet, the identifier has a digit and three characters or
// more, and the word before it belongs to one such slot's name only.
func (r *Rules) namedIdentifier(fr *flowRules, toks []token, filled []vm.SlotValue) (*slotRef, string, bool) {
	var found *slotRef
	val := ""
	for i := 1; i < len(toks); i++ {
		id := strings.TrimLeft(toks[i].text, "#")
		if !identifier(id) || toks[i-1].ends {
			continue
		}
		prev := stem(toks[i-1].norm)
		for k := range fr.slots {
			s := &fr.slots[k]
			if s.def == nil || !fr.collected[s.name] || typed(s.def) || r.readsAs(fr.name, s.name) || hasValue(filled, s.name) {
				continue
			}
			named := false
			for _, w := range strings.Split(s.name, "_") {
				named = named || (w != "" && stem(values.Normalize(w)) == prev)
			}
			if !named {
				continue
			}
			if found != nil && (found != s || val != id) {
				return nil, "", false
			}
			found, val = s, id
		}
	}
	return found, val, found != nil
}

// identifier reports whether a word reads as an identifier: three
// characters or more, letters, digits and dashes, a digit among them.
func identifier(w string) bool {
	if len(w) < 3 {
		return false
	}
	digit := false
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c == '-' || unicode.IsLetter(c):
		default:
			return false
		}
	}
	return digit
}
