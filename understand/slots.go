package understand

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Free text without carrier words (docs/understanding.md, "Free text").
// A free-text slot (type text, no pattern) has a role, read from its
// name, description and question: where something starts ("Where are
// you flying from?"), where it goes or who gets it ("Who should receive
// the money?"), where it is ("Which city are you staying in?") or whose
// name it is. A role has carrier words: "from Madrid", "to Maria", "in
// Paris", "under John Carter". The value is the words after the carrier,
// up to a word that ends it ("for", "on", a number, a date word, a
// comma).

type role int

const (
	roleNone role = iota
	roleSource
	roleTarget
	roleLocation
	rolePerson
)

var roleCues = []struct {
	role role
	cues map[string]bool
}{
	{roleSource, lexdata.Set("role_source_cues")},
	{roleTarget, lexdata.Set("role_target_cues")},
	{roleLocation, lexdata.Set("role_location_cues")},
	{rolePerson, lexdata.Set("role_person_cues")},
}

var carriers = map[role][][]string{
	roleSource:   lexdata.Phrases("carriers_source"),
	roleTarget:   lexdata.Phrases("carriers_target"),
	roleLocation: lexdata.Phrases("carriers_location"),
	rolePerson:   lexdata.Phrases("carriers_person"),
}

// capitalOnly are carriers that carry a value only when it is
// capitalised: Spanish "a", "de", "en" and "para", and "for", are too
// common otherwise.
var capitalOnly = lexdata.Set("capital_only")

// slotRole reads a free-text slot's role from its name, description and
// question. The first role with a cue wins, in the order of roleCues.
func slotRole(name string, def *ir.Slot, question string) role {
	text := strings.ReplaceAll(name, "_", " ") + " " + question
	if def != nil {
		text += " " + def.Description + " " + def.Label
	}
	words := strings.Fields(values.Normalize(text))
	for _, rc := range roleCues {
		for _, w := range words {
			if rc.cues[w] || rc.role == roleTarget && recipientNoun(w) {
				return rc.role
			}
		}
	}
	return roleNone
}

// valueStops end a value after a carrier.
var valueStops = lexdata.Set("value_stops")

// token is a word of a message as written, with whether punctuation
// ended it (a comma or a period ends a value).
type token struct {
	text string // as written, punctuation trimmed
	norm string
	ends bool
}

// fieldsUnder reports whether s has fewer than n fields, as strings.Fields
// counts them, without making them.
func fieldsUnder(s string, n int) bool {
	if n <= 0 {
		return false
	}
	for range strings.FieldsSeq(s) {
		if n--; n == 0 {
			return false
		}
	}
	return true
}

func tokens(head string) []token {
	var out []token
	for _, f := range strings.Fields(head) {
		t := strings.TrimRight(f, ".,;:!?)\"'")
		ends := len(t) < len(f)
		t = strings.TrimLeft(t, "(\"'¿¡")
		if t == "" {
			continue
		}
		out = append(out, token{text: t, norm: values.Normalize(t), ends: ends})
	}
	return out
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// carried finds the value a role's carrier introduces: "to Maria", "from
// New York", "to my mom". skip says which words may not start a value
// (the flows' own words: "to book", "to fly"). ok is false when no
// carrier of the role carries a value.
func (r *Rules) carried(toks []token, ro role) (string, int, bool) {
	return r.carriedBy(toks, carriers[ro])
}

// carriedBy is the value after one of the carriers cs, and where the
// carrier starts.
func (r *Rules) carriedBy(toks []token, cs [][]string) (string, int, bool) {
	for i := 0; i < len(toks); i++ {
		for _, c := range cs {
			n := len(c)
			if i+n >= len(toks) {
				continue
			}
			match := true
			for k := range c {
				if toks[i+k].norm != c[k] {
					match = false
					break
				}
			}
			if !match || toks[i+n-1].ends {
				continue
			}
			first := toks[i+n]
			if capitalOnly[c[0]] && n == 1 && !capitalised(first.text) && !possessives[first.norm] {
				continue
			}
			if v, ok := r.valueAt(toks, i+n); ok {
				return v, i, true
			}
		}
	}
	return "", 0, false
}

// articles after a first word show it was a verb ("to book a room").
var articles = lexdata.Set("articles")

// possessives may start a value: "to my mom", "a mi madre".
var possessives = lexdata.Set("possessives")

// valueAt reads the value that starts at toks[i]: up to three words, up
// to a word that ends it. A value is no number, no date word, no stop
// word and no word of the flows ("to book", "to fly").
func (r *Rules) valueAt(toks []token, i int) (string, bool) {
	var words []string
	for j := i; j < len(toks) && len(words) < 4; j++ {
		t := toks[j]
		if len(words) > 0 && articles[t.norm] && !possessives[values.Normalize(words[0])] && !capitalised(words[0]) {
			// "to bok a flight": a verb, not a value.
			return "", false
		}
		if len(words) > 0 && valueStops[t.norm] {
			break
		}
		if len(words) == 0 && possessives[t.norm] {
			words = append(words, t.text)
			if t.ends {
				return "", false
			}
			continue
		}
		if t.norm == "" || valueStops[t.norm] || stopWords[t.norm] || isNumberish(t.norm) || dateWord(t.norm) || (!capitalised(t.text) && r.knownWord(t.norm)) {
			break
		}
		words = append(words, t.text)
		if t.ends {
			break
		}
	}
	if len(words) == 0 || (len(words) == 1 && possessives[values.Normalize(words[0])]) {
		return "", false
	}
	return strings.Join(words, " "), true
}

// knownWord reports whether a word is one of the flows' words or of the
// lexicon, or a generic verb: not a value.
func (r *Rules) knownWord(w string) bool {
	if genericWords[w] || verbs[w] {
		return true
	}
	if r.mean == nil {
		return false
	}
	_, ok := r.mean.known[w]
	if !ok {
		_, ok = r.mean.weight[r.mean.lex.concept(w)]
	}
	return ok
}

// verbs are common verbs that follow "to" and never start a value.
var verbs = lexdata.Set("verbs")

// dateWord reports whether a word belongs to a date ("friday", "march",
// "tomorrow").
func dateWord(w string) bool {
	return dateWords[w] || values.IsDateWord(w)
}

// dateWords are the words of a date that are no month or weekday name.
var dateWords = lexdata.Set("date_words")

// leadIns are words that may come before a free-text answer without
// being part of it: "it's John Carter", "my name is Ana", "I'm leaving
// from Barcelona", "put it under John Carter".
var leadIns = lexdata.Set("lead_ins")

// valueLeadIns come before a free-text value without being part of it.
var valueLeadIns = lexdata.Phrases("value_lead_ins")

func tokensAre(toks []token, words []string) bool {
	for k, w := range words {
		if toks[k].norm != w {
			return false
		}
	}
	return true
}

// freeText reads the answer to a free-text question: the value a carrier
// of the slot's role (or any carrier) introduces after lead-in words
// ("I'm leaving from Barcelona", "to Maria", "it's under John Carter"),
// or the message without its lead-in words ("it's John Carter", "my
// name is Ana"). ok is false when the message is the value as it is.
func (r *Rules) freeText(head string, ro role) (string, bool) {
	if fieldsUnder(head, 2) {
		return "", false // one word is the value as it is: no tokens needed
	}
	toks := tokens(head)
	if len(toks) < 2 {
		return "", false
	}
	try := []role{ro}
	for _, o := range []role{roleSource, roleTarget, roleLocation, rolePerson} {
		if o != ro {
			try = append(try, o)
		}
	}
	for _, o := range try {
		if o == roleNone {
			continue
		}
		v, at, ok := r.carried(toks, o)
		if !ok {
			continue
		}
		lead := true
		for _, t := range toks[:at] {
			if !leadIns[t.norm] && !r.knownWord(t.norm) {
				lead = false
				break
			}
		}
		if lead {
			return withoutArticle(v), true
		}
	}
	// "it's John Carter", "my name is Ana": a lead-in, then a short value.
	i := 0
	for _, li := range valueLeadIns {
		if len(li) < len(toks) && tokensAre(toks, li) {
			i = len(li)
			break
		}
	}
	if i == 0 {
		if v, ok := politeEnd(toks); ok {
			return v, true
		}
		// "I'll go to the Basel Zoo please": the name it says, at a
		// question whose answer is a name.
		if ro == roleNone {
			return "", false
		}
		return nameSpan(toks)
	}
	if len(toks)-i > 4 {
		return "", false
	}
	var words []string
	for _, t := range withoutHedge(toks[i:]) {
		if polite[t.norm] {
			break
		}
		words = append(words, t.text)
	}
	if len(words) == 0 {
		return "", false
	}
	return strings.Join(words, " "), true
}

// politeEnd reads a short answer with thanks or please after it ("Bob
// please", "Rome, thanks", "Ana gracias"): the words before them, when
// they are one to four words that are a value, not a yes, a no or a
// polite word.
func politeEnd(toks []token) (string, bool) {
	n := len(toks)
	for n > 0 {
		if trailingPolite[toks[n-1].norm] {
			n--
			continue
		}
		if n > 1 && politePairs[toks[n-2].norm+" "+toks[n-1].norm] {
			n -= 2
			continue
		}
		break
	}
	if n == len(toks) || n == 0 || n > 4 {
		return "", false
	}
	words := make([]string, n)
	for i, t := range toks[:n] {
		words[i] = t.text
	}
	rest := strings.Join(words, " ")
	if notAValue(rest) || noAnswer(values.Normalize(rest)) {
		return "", false
	}
	return rest, true
}

var trailingPolite = lexdata.Set("trailing_polite")

// openingValues reads, in a message that starts fr, the values of its
// free-text slots by their carriers ("to Ana", "from Madrid to London"),
// of its one number slot (or the number next to a slot's word: "3
// nights", "2 passengers"), and of its one date slot ("next Friday").
func (r *Rules) openingValues(fr *flowRules, head string, v vm.View) []vm.SlotValue {
	conv := v.Converter()
	var out []vm.SlotValue
	toks := tokens(head)
	// Free text by role; a role that two slots share fills neither.
	for _, ro := range []role{roleSource, roleTarget, roleLocation, rolePerson} {
		s := fr.roles[ro]
		if s == nil {
			continue
		}
		val, _, ok := r.carried(toks, ro)
		if !ok {
			continue
		}
		if x, err := conv.Convert(s.def, val); err == nil {
			out = append(out, vm.SlotValue{Slot: s.name, Value: x})
		}
	}
	// The carrier a slot's own question starts with: "in which city?"
	// is answered "in Basel" (opening.go).
	for _, sv := range r.askedValues(fr, toks, out) {
		if x, err := conv.Convert(r.defOf(fr, sv.Slot), sv.Value.(string)); err == nil {
			out = append(out, vm.SlotValue{Slot: sv.Slot, Value: x})
		}
	}
	// "send John 50", "pay my landlord 850", "add Peter to my contacts":
	// a name right after the flow's verb is who gets it.
	if s, val, ok := r.afterVerb(fr, toks); ok && !hasValue(out, s.name) {
		if x, err := conv.Convert(s.def, val); err == nil {
			out = append(out, vm.SlotValue{Slot: s.name, Value: x})
		}
	}
	// An identifier after a word of its slot's name: "claim 48213",
	// which is then no bare number.
	id := false
	if s, val, ok := r.namedIdentifier(fr, toks, out); ok {
		if x, err := conv.Convert(s.def, val); err == nil {
			out = append(out, vm.SlotValue{Slot: s.name, Value: x})
			id = true
		}
	}
	// A date.
	var dateSlot *slotRef
	dates := 0
	for i := range fr.slots {
		if s := &fr.slots[i]; s.def != nil && s.def.Type == ir.TypeDate && fr.collected[s.name] {
			dateSlot = s
			dates++
		}
	}
	hasDate := false
	if dates == 1 {
		if x, err := r.convert(conv, dateSlot.def, head); err == nil {
			out = append(out, vm.SlotValue{Slot: dateSlot.name, Value: x})
			hasDate = true
		}
	}
	// A number: the one number of the message, not in a date.
	if s, n, ok := r.openingNumber(fr, head, hasDate || id); ok {
		if x, err := conv.Convert(s.def, n); err == nil {
			out = append(out, vm.SlotValue{Slot: s.name, Value: x})
		}
	}
	// A count said with a noun: "for a week", "the two of us".
	for i := range fr.slots {
		s := &fr.slots[i]
		if s.def == nil || (s.def.Type != ir.TypeNumber && s.def.Type != ir.TypeInteger) || !fr.collected[s.name] || hasValue(out, s.name) {
			continue
		}
		if n, ok := openingCount(s, head); ok {
			if x, err := conv.Convert(s.def, n); err == nil {
				out = append(out, vm.SlotValue{Slot: s.name, Value: x})
			}
		}
	}
	// In the order the flow asks for them.
	if len(out) < 2 {
		return out
	}
	order := map[string]int{}
	for i, s := range fr.slots {
		order[s.name] = i
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Slot] < order[out[j].Slot] })
	return out
}

// openingNumber finds the number of a message for one of fr's number
// slots: the number next to a word of a slot's name, description or
// label ("3 nights", "two passengers"), or, when fr collects one number
// slot, the message's one number. A message with a date or an
// identifier (noBare) gives no bare number: its day, or the identifier,
// would be read.
func (r *Rules) openingNumber(fr *flowRules, head string, noBare bool) (*slotRef, string, bool) {
	var numbers []*slotRef
	for i := range fr.slots {
		if s := &fr.slots[i]; s.def != nil && (s.def.Type == ir.TypeNumber || s.def.Type == ir.TypeInteger) && fr.collected[s.name] {
			numbers = append(numbers, s)
		}
	}
	if len(numbers) == 0 {
		return nil, "", false
	}
	toks := tokens(head)
	// A number followed by a slot's word: "3 nights".
	for i, t := range toks {
		if i+1 >= len(toks) || !(isNumberish(t.norm) || values.IsNumberWord(t.norm)) {
			continue
		}
		next := stem(toks[i+1].norm)
		for _, s := range numbers {
			if unitOf(s)[next] {
				if n, err := values.Convert(s.def, t.text+" "+toks[i+1].text); err == nil {
					return s, tmpl.Format(n), true
				}
			}
		}
	}
	if len(numbers) != 1 || noBare {
		return nil, "", false
	}
	// "2 rooms": a number that counts something else is no bare value.
	for i, t := range toks {
		if i+1 < len(toks) && (isNumberish(t.norm) || values.IsNumberWord(t.norm)) && !t.ends {
			next := toks[i+1].norm
			if !currencyWords[next] && !stopWords[next] && !valueStops[next] && !unitOf(numbers[0])[stem(next)] && !isNumberish(next) && !values.IsNumberWord(next) {
				return nil, "", false
			}
		}
	}
	if n, err := values.Convert(numbers[0].def, head); err == nil {
		return numbers[0], tmpl.Format(n), true
	}
	return nil, "", false
}

// unitOf is the stemmed words of a number slot's name, description and
// label, and the lexicon's words for people and nights.
func unitOf(s *slotRef) map[string]bool {
	m := map[string]bool{}
	text := strings.ReplaceAll(s.name, "_", " ") + " " + s.def.Description + " " + s.def.Label
	for _, w := range strings.Fields(values.Normalize(text)) {
		if !stopWords[w] {
			m[stem(w)] = true
		}
	}
	// The cues compared by stem, as the name's words are.
	has := func(words ...string) bool {
		for _, w := range words {
			if m[stem(w)] {
				return true
			}
		}
		return false
	}
	if has(lexdata.Get("person_count_cues")...) {
		for _, w := range lexdata.Get("person_count_words") {
			m[w] = true
		}
	}
	if has(lexdata.Get("night_count_cues")...) {
		for _, w := range lexdata.Get("night_count_words") {
			m[w] = true
		}
	}
	// The words are looked up as written and by their stem ("noches"
	// is "noch").
	for w := range m {
		m[stem(w)] = true
	}
	return m
}

// carriedSlot reads a correction's words as a new value for a free-text
// slot of the flow, by its carrier: "send it to Maria" is the recipient,
// "from Porto" the origin. The words before the carrier must be lead-in
// words.
func (r *Rules) carriedSlot(flow, rest string, conv values.Converter) (string, any, bool) {
	fr := r.byName[flow]
	if fr == nil {
		return "", nil, false
	}
	toks := tokens(rest)
	for _, ro := range []role{roleSource, roleTarget, roleLocation, rolePerson} {
		s := fr.roles[ro]
		if s == nil {
			continue
		}
		val, at, ok := r.carried(toks, ro)
		if !ok {
			continue
		}
		lead := true
		for _, t := range toks[:at] {
			lead = lead && (leadIns[t.norm] || verbs[t.norm] || r.knownWord(t.norm))
		}
		if !lead {
			continue
		}
		if x, err := conv.Convert(s.def, val); err == nil {
			return s.name, x, true
		}
	}
	return "", nil, false
}

func hasValue(out []vm.SlotValue, slot string) bool {
	for _, sv := range out {
		if sv.Slot == slot {
			return true
		}
	}
	return false
}

// afterVerb reads the object of the flow's verb: "send John 50" gives
// John to the slot of who gets it (the target role, else the person
// role), when a verb of the flow's phrases is followed by a capitalised
// word or a possessive ("pay my landlord") that is no word of the flows.
func (r *Rules) afterVerb(fr *flowRules, toks []token) (*slotRef, string, bool) {
	s := fr.roles[roleTarget]
	if s == nil {
		if _, shared := fr.roles[roleTarget]; shared {
			return nil, "", false
		}
		s = fr.roles[rolePerson]
	}
	if s == nil || r.mean == nil || r.mean.flows[fr.name] == nil {
		return nil, "", false
	}
	lead := r.mean.flows[fr.name].lead
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].ends || stopWords[toks[i].norm] || !lead[r.mean.lex.concept(toks[i].norm)] || genericWords[toks[i].norm] {
			continue
		}
		next := toks[i+1]
		if !(capitalised(next.text) && !capitalPronouns[next.norm]) && !possessives[next.norm] {
			return nil, "", false
		}
		if v, ok := r.valueAt(toks, i+1); ok {
			return s, v, true
		}
		return nil, "", false
	}
	return nil, "", false
}

// markedBy reads, from a free-text slot's description, the symbol its
// values start with: "a user handle starting with @", "a tag that begins
// with #".
var markedBy = sync.OnceValue(func() *regexp.Regexp {
	return lexdata.Pattern("marked_by_patterns")
})

// markOf is the symbol a free-text slot's values start with, as its
// description or label says ("a handle starting with @"), or "".
func markOf(def *ir.Slot) string {
	if def == nil || typed(def) || (def.Type != ir.TypeText && def.Type != "") {
		return ""
	}
	// The symbol is the first group that matched: each language's
	// expression has one.
	if m := markedBy().FindStringSubmatch(def.Description + " " + def.Label); m != nil {
		for _, g := range m[1:] {
			if g != "" {
				return g
			}
		}
	}
	return ""
}

// markedWord finds the one word of a message that starts with the symbol
// a free-text slot's values start with ("it's @KatePurry" is @KatePurry).
func (r *Rules) markedWord(def *ir.Slot, head string) (string, bool) {
	mark := r.facts.mark(def)
	if mark == "" {
		return "", false
	}
	found := ""
	for _, w := range strings.Fields(head) {
		w = strings.TrimRight(w, ".,;:!?)\"'")
		if len(w) > len(mark) && strings.HasPrefix(w, mark) {
			if found != "" && found != w {
				return "", false
			}
			found = w
		}
	}
	return found, found != ""
}

// valueByWord finds the one categorical value of several words that a
// short message names by part of its words: "d debit" and "direct" are
// "direct debit", "tech" is technical (the start of a word of one value).
// Every word of three letters or more must be a word of
// that value and of no other: "first class" is not "business class".
func valueByWord(def *ir.Slot, head string) (string, bool) {
	msg := strings.Fields(values.Normalize(head))
	if len(msg) == 0 || len(msg) > 4 {
		return "", false
	}
	owner := map[string]string{}
	for _, v := range def.Values {
		names := append([]string{strings.ReplaceAll(v.Value, "_", " "), v.Label}, v.Synonyms...)
		for _, n := range names {
			for _, w := range strings.Fields(values.Normalize(n)) {
				if stopWords[w] || len(w) < 3 {
					continue
				}
				if o, ok := owner[w]; ok && o != v.Value {
					owner[w] = "" // a word of two values says neither
					continue
				}
				owner[w] = v.Value
			}
		}
	}
	found := ""
	for _, w := range msg {
		if stopWords[w] || len(w) < 3 || politeWords[w] {
			continue
		}
		o, ok := owner[w]
		if !ok && (len(w) >= 4 || len(msg) == 1) {
			// "tech" for technical: the start of one value's word; a
			// three-letter start only as the whole message ("dec" for
			// December).
			for x, v := range owner {
				if strings.HasPrefix(x, w) && len(x) > len(w) {
					if ok && o != v {
						o = ""
						break
					}
					o, ok = v, true
				}
			}
		}
		if o == "" || (found != "" && found != o) {
			return "", false
		}
		found = o
	}
	return found, found != ""
}

// numberCarriers introduce a number after a free-text answer: "a scarf
// worth 40", "Rome for 3 nights", "a bike under 300 euros".
var numberCarriers = lexdata.Set("number_carriers")

// valueThenNumber reads, at a free-text question, a short answer
// followed by a carrier and a number for the flow's one number slot
// other than the one asked ("a scarf worth 40", "Rome for 3 nights"):
// the answer sets the asked slot, and the number that slot. The number
// may have only currency words or the slot's own words after it ("40
// euros", "3 nights"), which say the slot: the one the word names, or
// else the one amount or price among them, or else the only one. "for 3
// people" fills no slot of nights. A number slot that holds a value is
// corrected.
func (r *Rules) valueThenNumber(p *vm.Pending, head, norm string, v vm.View) ([]vm.Command, bool) {
	// Most answers have no carrier in their second to fifth word: they
	// are let go without a token made.
	carrier, i := false, 0
	for w := range strings.FieldsSeq(norm) {
		if i > 4 {
			break
		}
		if i > 0 && numberCarriers[w] {
			carrier = true
			break
		}
		i++
	}
	if !carrier {
		return nil, false
	}
	def := r.slotDef(p.Flow, p.Slot)
	if def == nil || typed(def) || (def.Type != ir.TypeText && def.Type != "") {
		return nil, false
	}
	fr := r.byName[p.Flow]
	if fr == nil {
		return nil, false
	}
	toks := tokens(head)
	at := -1
	for i := 1; i < len(toks) && i <= 4; i++ {
		if numberCarriers[toks[i].norm] {
			at = i
			break
		}
	}
	if at < 0 || len(toks)-at-1 < 1 || len(toks)-at-1 > 3 {
		return nil, false
	}
	var cands []*slotRef
	for i := range fr.slots {
		s := &fr.slots[i]
		if s.name != p.Slot && fr.collected[s.name] && s.def != nil && (s.def.Type == ir.TypeNumber || s.def.Type == ir.TypeInteger) {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return nil, false
	}
	// The number, then currency words or one word that says what it
	// counts ("3 nights"), which picks the slot.
	for len(toks) > at+2 && trailingPolite[toks[len(toks)-1].norm] {
		toks = toks[:len(toks)-1]
	}
	numbers, unit := 0, ""
	for _, t := range toks[at+1:] {
		switch {
		case isNumberish(t.norm) || values.IsNumberWord(t.norm):
			numbers++
		case currencyWords[t.norm]:
		case unit == "":
			unit = stem(t.norm)
		default:
			return nil, false
		}
	}
	if numbers == 0 {
		return nil, false
	}
	// The slot the unit names, or else the one amount or price among
	// them, or else the only one.
	var num *slotRef
	pick := func(ok func(s *slotRef) bool) bool {
		num = nil
		for _, s := range cands {
			if ok(s) {
				if num != nil {
					num = nil
					return false // two slots: the message does not say which
				}
				num = s
			}
		}
		return num != nil
	}
	switch {
	case unit != "":
		pick(func(s *slotRef) bool { return unitOf(s)[unit] })
	case !pick(func(s *slotRef) bool {
		for w := range unitOf(s) {
			if amountCues[w] {
				return true
			}
		}
		return false
	}) && len(cands) == 1:
		num = cands[0]
	}
	if num == nil {
		return nil, false
	}
	conv := v.Converter()
	words := make([]string, 0, at+3)
	for _, t := range toks[at+1:] {
		words = append(words, t.text)
	}
	n, err := conv.Convert(num.def, strings.Join(words, " "))
	if err != nil {
		return nil, false
	}
	words = words[:0]
	for _, t := range toks[:at] {
		words = append(words, t.text)
	}
	value := strings.Join(words, " ")
	if val, ok := r.freeText(value, fr.role[p.Slot]); ok {
		value = val // "from Madrid for 2"
	}
	if notAValue(value) || noAnswer(values.Normalize(value)) || !plausibleValue(value) {
		return nil, false
	}
	x, err := conv.Convert(def, value)
	if err != nil {
		return nil, false
	}
	kind := vm.CmdSetSlot
	if v.Slot != nil {
		if old, ok := v.Slot(num.name); ok && old != nil {
			kind = vm.CmdCorrectSlot
		}
	}
	return []vm.Command{{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}, {Kind: kind, Slot: num.name, Value: n}}, true
}
