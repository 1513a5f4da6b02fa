package understand

import (
	"sort"
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Starting flows by meaning, not by phrase (docs/understanding.md,
// "Flows by meaning"). Every content word of a flow's trigger phrases,
// description and name is a concept: its stem, the group of an entry of
// the project's lexicon (a bank's "send", "transfer", "wire" and
// "enviar" are one concept), or the project word it is a WordNet synonym
// of (synonyms.go); the rules hold no domain's words of their own. A
// message's content words are read the same way, and a word that is no
// known word is read as the known word one or two letters away
// (typos: "mony" is "money"). Each flow scores the concepts it shares
// with the message, a concept weighing less when several flows share it
// and when it is a generic verb ("check", "get").

// genericWords say little about which flow a message is for: they weigh
// a third of a word that does.
var genericWords = lexdata.Set("generic_words")

// extraGeneric are words that make no phrase specific: "tengo un
// problema" is about a problem alone.
var extraGeneric = lexdata.Set("extra_generic")

// lex maps words (normalized, and stemmed) to their concept: the key of
// their group in the project's lexicon, the project's word they are a
// synonym of (synonyms.go), or their stem.
type lex struct {
	words   map[string]string // word or stem → concept
	phrases [][]string        // multi-word entries, longest first, with their concept last
	// negated maps a negation of doing to the concept of the phrases
	// that start with it ("wont load": a problem), opening.go.
	negated map[string]string
	// synonym marks the words (and stems) whose concept is a project
	// word they are a synonym of (synonyms.go), not their own.
	synonym map[string]bool
}

func newLex(extra map[string][]string) *lex {
	l := &lex{words: map[string]string{}}
	add := func(concept, entry string) {
		norm := values.Normalize(entry)
		if norm == "" {
			return
		}
		if strings.Contains(norm, " ") {
			l.phrases = append(l.phrases, append(strings.Fields(norm), concept))
			return
		}
		if _, taken := l.words[norm]; !taken {
			l.words[norm] = concept
		}
		if st := stem(norm); st != norm {
			if _, taken := l.words[st]; !taken {
				l.words[st] = concept
			}
		}
	}
	// A project's lexicon: the key joins its words' group, or makes one.
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		concept := values.Normalize(k)
		if c, ok := l.words[concept]; ok {
			concept = c
		} else if c, ok := l.words[stem(concept)]; ok {
			concept = c
		}
		add(concept, k)
		for _, w := range extra[k] {
			n := values.Normalize(w)
			// A project's word wins over the built-in one.
			if !strings.Contains(n, " ") {
				l.words[n] = concept
				l.words[stem(n)] = concept
				continue
			}
			add(concept, w)
		}
	}
	sort.SliceStable(l.phrases, func(i, j int) bool { return len(l.phrases[i]) > len(l.phrases[j]) })
	l.negated = negatedLeads(l.phrases)
	return l
}

// isPhrase reports whether a text is one of the lexicon's multi-word
// entries.
func (l *lex) isPhrase(text string) bool {
	words := strings.Fields(values.Normalize(text))
	for _, ph := range l.phrases {
		if len(ph)-1 == len(words) && strings.Join(ph[:len(ph)-1], " ") == strings.Join(words, " ") {
			return true
		}
	}
	return false
}

// concept returns the concept of a content word.
func (l *lex) concept(w string) string {
	if c, ok := l.words[w]; ok {
		return c
	}
	if genericWords[w] {
		return w // "another", not its stem "anoth": generic as written
	}
	st := stem(w)
	if c, ok := l.words[st]; ok {
		return c
	}
	// An irregular form of a verb is the verb ("lost" is "lose").
	if base, ok := englishThesaurus().forms[w]; ok {
		if c, ok := l.words[base]; ok {
			return c
		}
		return stem(base)
	}
	return st
}

// typoWeight is how much a concept read through a typo weighs: one typo
// alone ("monkey" for "money") never starts a flow.
const typoWeight = 0.75

// concepts reads the content words of a normalized text as concepts:
// multi-word lexicon entries first ("how much do i have"), then each
// word that is not a stop word. known, when set, corrects words that are
// no known word to the one known word a typo away.
func (l *lex) concepts(norm string, known *typoIndex) []string {
	c, _ := l.conceptsTypos(norm, known)
	return c
}

// throughSynonym reports whether a word's concept is that of a project
// word it is a synonym of.
func (l *lex) throughSynonym(w string) bool {
	if _, ok := l.words[w]; ok {
		return l.synonym[w]
	}
	st := stem(w)
	if _, ok := l.words[st]; ok {
		return l.synonym[st]
	}
	return false
}

// conceptsTypos is concepts, with the concepts read through a typo or
// only through a synonym, which weigh less than a word the project
// writes ("sort" is a "class" in WordNet, not in "sort me out a hotel
// room").
func (l *lex) conceptsTypos(norm string, known *typoIndex) ([]string, map[string]bool) {
	var typos map[string]bool
	var direct, viaSynonym map[string]bool
	words := strings.Fields(norm)
	var out []string
	used := make([]bool, len(words))
	for _, ph := range l.phrases {
		n := len(ph) - 1
		for i := 0; i+n <= len(words); i++ {
			match := true
			for k := 0; k < n; k++ {
				if used[i+k] || words[i+k] != ph[k] {
					match = false
					break
				}
			}
			if match {
				out = append(out, ph[n])
				for k := 0; k < n; k++ {
					used[i+k] = true
				}
			}
		}
	}
	out = append(out, l.negatedConcepts(words, used)...)
	for i, w := range words {
		if used[i] || stopWords[w] || stopWords[stem(w)] || isNumberish(w) || currencyWords[w] || dateWord(w) || dateVocabulary[w] {
			continue
		}
		c := l.concept(w)
		if l.throughSynonym(w) {
			if viaSynonym == nil {
				viaSynonym = map[string]bool{}
			}
			viaSynonym[c] = true
		} else {
			if direct == nil {
				direct = map[string]bool{}
			}
			direct[c] = true
		}
		if known != nil && !englishThesaurus().isCommonWord(w) {
			if _, ok := known.words[c]; !ok {
				if fixed, ok := known.typoFix(w); ok {
					c = fixed
					if typos == nil {
						typos = map[string]bool{}
					}
					typos[c] = true
				}
			}
		}
		out = append(out, c)
	}
	sort.Strings(out)
	out = dedupe(out)
	for c := range typos {
		// A concept also read without a typo is no typo.
		for i, w := range words {
			if !used[i] && l.concept(w) == c {
				delete(typos, c)
			}
		}
	}
	for c := range viaSynonym {
		if !direct[c] {
			if typos == nil {
				typos = map[string]bool{}
			}
			typos[c] = true
		}
	}
	return out, typos
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, w := range s {
		if i == 0 || w != s[i-1] {
			out = append(out, w)
		}
	}
	return out
}

// isNumberish reports whether a word is digits (a value, never a
// concept).
func isNumberish(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			return true
		}
	}
	return false
}

// typoIndex is the known words (every spelling and its concept), indexed
// for typo correction by their length and their first letter, and by
// their length and their last letter, since a typo keeps one of them and
// changes the length by two letters at most.
type typoIndex struct {
	words       map[string]string
	first, last map[uint16][]spelling
}

type spelling struct{ word, concept string }

// typoKey is the index key of a letter and a length under 256.
func typoKey(b byte, n int) uint16 { return uint16(b)<<8 | uint16(n) }

func newTypoIndex(known map[string]string) *typoIndex {
	ix := &typoIndex{words: known, first: map[uint16][]spelling{}, last: map[uint16][]spelling{}}
	for w, c := range known {
		// editDistance refuses spellings of 32 bytes or more.
		if n := len(w); n > 0 && n < 32 {
			ix.first[typoKey(w[0], n)] = append(ix.first[typoKey(w[0], n)], spelling{w, c})
			ix.last[typoKey(w[n-1], n)] = append(ix.last[typoKey(w[n-1], n)], spelling{w, c})
		}
	}
	return ix
}

// typoFix finds the one known concept whose spelling (any word that maps
// to it) is one edit from w (two for words of eight letters or more);
// words shorter than five letters on both sides are never corrected.
func (ix *typoIndex) typoFix(w string) (string, bool) {
	if len(w) < 4 {
		return "", false
	}
	found := ""
	for n := max(len(w)-2, 1); n <= len(w)+2 && n < 256; n++ {
		// The spellings that keep w's first letter, then those that keep
		// only its last.
		for pass, list := range [2][]spelling{ix.first[typoKey(w[0], n)], ix.last[typoKey(w[len(w)-1], n)]} {
			for _, s := range list {
				spelling := s.word
				if pass == 1 && spelling[0] == w[0] {
					continue // seen in the first pass
				}
				longer := max(len(w), len(spelling))
				if longer < 5 {
					continue
				}
				limit := 1
				if longer >= 8 {
					limit = 2
				}
				if limit == 1 && withinOne(w, spelling) || limit == 2 && editDistance(w, spelling, limit) <= limit {
					if found != "" && found != s.concept {
						return "", false
					}
					found = s.concept
				}
			}
		}
	}
	return found, found != ""
}

// withinOne reports whether editDistance(a, b, 1) <= 1, in one pass: a
// and b are equal but for one letter changed, added or taken away, or two
// neighbours swapped.
func withinOne(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(b) {
		return true // equal, or one letter added at the end
	}
	if len(a) > len(b) {
		return a[i+1:] == b[i:] // one letter added
	}
	return a[i+1:] == b[i+1:] || // one letter changed
		i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // a swap
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Damerau-Levenshtein distance (adjacent swaps count
// one) of a and b, or limit+1 when it is larger than limit. Unlike
// suggest.Levenshtein it counts a swap ("flihgt") as one typo, and stops
// early, since it runs against every known word for each unknown one.
func editDistance(a, b string, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	if len(b) >= 32 {
		return limit + 1 // no word that long is a typo worth reading
	}
	var rows [3][33]int
	prev2, prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// flowMeaning is what a flow's words mean.
type flowMeaning struct {
	trigger map[string]bool // concepts of its trigger phrases
	about   map[string]bool // concepts of its description and name only
	// lead are the first concepts of its phrases (the second too when
	// the first is generic): one of them alone may start the flow.
	lead map[string]bool
	// whole are the concepts that make a trigger phrase on their own
	// ("I need a flight").
	whole map[string]bool
	// values are the concepts of its own categorical slots' values and
	// synonyms that no phrase of it has.
	values map[string]bool
	// core are the concepts of its name and description: what it is
	// about, where its phrases are examples ("transactions" of a flow
	// that lists them, not of one that raises "transaction limits").
	core map[string]bool
	// stems are the stems of its own words, before the lexicon: "send"
	// is a word of "send money", not of "set up a payment".
	stems map[string]bool
	// forms are its own words as written: "flights" of a flow that
	// lists "booked flights", not of one that books "a new flight".
	forms map[string]bool
	// named are the concepts its name and its description share: what
	// the project says the flow is about ("car" of search_rental_car,
	// "search for rental cars"). One of them alone may start it, as a
	// phrase's first word may.
	named map[string]bool
}

// meaning holds the concepts of every flow of a program, and the known
// spellings for typo correction.
type meaning struct {
	lex    *lex
	flows  map[string]*flowMeaning
	weight map[string]float64
	// known maps every word of the flows' phrases and of the lexicon to
	// its concept, for typo correction; typos indexes it.
	known map[string]string
	typos *typoIndex
	// valueCount counts the flows whose categorical values have a
	// concept.
	valueCount map[string]int
}

func newMeaning(p *ir.Program, l *lex) (m *meaning) {
	defer func() { m.typos = newTypoIndex(m.known) }()
	m = &meaning{lex: l, flows: map[string]*flowMeaning{}, weight: map[string]float64{}, known: map[string]string{}, valueCount: map[string]int{}}
	for w, c := range l.words {
		if !stopWords[w] {
			m.known[w] = c
		}
	}
	if p == nil {
		return m
	}
	l.learnSynonyms(projectWords(p, l))
	count := map[string]int{}
	for _, f := range p.Flows {
		if f == nil || len(f.Triggers) == 0 {
			continue
		}
		fm := &flowMeaning{trigger: map[string]bool{}, about: map[string]bool{}, lead: map[string]bool{}, whole: map[string]bool{}, values: map[string]bool{},
			core: map[string]bool{}, stems: map[string]bool{}, forms: map[string]bool{}}
		for _, t := range f.Triggers {
			norm := aboutText(values.Normalize(withoutNames(withoutPlaceholders(t))))
			for _, w := range strings.Fields(norm) {
				fm.stems[stem(w)] = true
				fm.forms[w] = true
			}
			cs := l.concepts(norm, nil)
			for _, c := range cs {
				fm.trigger[c] = true
			}
			var own []string
			for _, c := range cs {
				if !genericWords[c] && !extraGeneric[c] {
					own = append(own, c)
				}
			}
			if len(own) == 1 {
				fm.whole[own[0]] = true
			}
			for _, w := range strings.Fields(norm) {
				if stopWords[w] || stopWords[stem(w)] || isNumberish(w) {
					continue
				}
				c := l.concept(w)
				fm.lead[c] = true
				if !genericWords[c] && !genericWords[w] {
					break
				}
			}
			for _, w := range strings.Fields(norm) {
				if !stopWords[w] && !isNumberish(w) {
					m.known[w] = l.concept(w)
				}
			}
		}
		// The values and synonyms of its categorical slots ("refund" for
		// a billing ticket) say what it is about too.
		var vals []string
		seen := map[string]bool{}
		for _, n := range f.Nodes {
			if n == nil || n.Kind != ir.KindCollect || seen[n.Slot] {
				continue
			}
			seen[n.Slot] = true
			if s := p.ResolveSlot(f.Name, n.Slot); s != nil && s.Type == ir.TypeCategorical && p.Slot(n.Slot) == nil {
				for _, v := range s.Values {
					vals = append(vals, strings.ReplaceAll(v.Value, "_", " "))
					vals = append(vals, v.Synonyms...)
				}
			}
		}
		for _, v := range vals {
			// A value of one word, or one of the lexicon's phrases ("not
			// working"); a word of a longer synonym ("no" of "no rush")
			// says nothing alone.
			cs := l.concepts(values.Normalize(v), nil)
			if len(cs) != 1 || (len(strings.Fields(values.Normalize(v))) > 1 && !l.isPhrase(v)) {
				continue
			}
			if c := cs[0]; !fm.trigger[c] && !genericWords[c] {
				fm.values[c] = true
			}
		}
		about := values.Normalize(strings.NewReplacer("_", " ", "-", " ").Replace(f.Name)) + " " + aboutText(values.Normalize(f.Description))
		for _, c := range l.concepts(about, nil) {
			fm.core[c] = true
			if !fm.trigger[c] {
				fm.about[c] = true
			}
		}
		fm.named = namedConcepts(l, f)
		for _, w := range strings.Fields(about) {
			fm.stems[stem(w)] = true
			fm.forms[w] = true
		}
		for c := range fm.trigger {
			count[c]++
		}
		for c := range fm.about {
			count[c]++
		}
		m.flows[f.Name] = fm
	}
	// A value concept that some flow's phrases have is that flow's word.
	for _, fm := range m.flows {
		for c := range fm.values {
			if count[c] > 0 {
				delete(fm.values, c)
			}
		}
	}
	for _, fm := range m.flows {
		for c := range fm.values {
			m.valueCount[c]++
		}
	}
	for c, n := range count {
		w := 1 / float64(n)
		if genericWords[c] {
			w /= 3
		}
		m.weight[c] = w
	}
	return m
}

// flowScore is a flow's score for a message.
type flowScore struct {
	flow  string
	score float64
	// fromTrigger is true when a concept of its triggers matched.
	fromTrigger bool
	// matched counts the concepts that matched; lead is true when one of
	// them is a lead concept of the flow.
	matched int
	lead    bool
	// whole is true when a matched concept makes a phrase on its own.
	whole bool
}

// score scores every flow against a message's concepts, best first (ties
// by name). unmatched counts the message's concepts no flow knows.
func (m *meaning) score(concepts []string, typos map[string]bool) (scores []flowScore, unmatched []string) {
	for _, c := range concepts {
		if _, ok := m.weight[c]; !ok && m.valueCount[c] == 0 && !genericWords[c] {
			// A generic verb no flow has ("show") says nothing of
			// another subject.
			unmatched = append(unmatched, c)
		}
	}
	for name, fm := range m.flows {
		s := flowScore{flow: name}
		for _, c := range concepts {
			w := m.weight[c]
			if typos[c] {
				w *= typoWeight
			}
			switch {
			case fm.trigger[c]:
				s.score += w
				s.fromTrigger = true
				s.matched++
				s.lead = s.lead || fm.lead[c] || fm.named[c]
				s.whole = s.whole || fm.whole[c]
			case fm.about[c]:
				s.score += w / 2
				s.matched++
				s.lead = s.lead || fm.named[c]
			case fm.values[c]:
				// One of its values: a flow's word on its own.
				s.score += 0.9 / float64(m.valueCount[c])
				s.matched++
				s.lead, s.whole, s.fromTrigger = true, true, true
			}
		}
		if s.score > 0 {
			scores = append(scores, s)
		}
	}
	sort.Slice(scores, func(i, j int) bool {
		if scores[i].score != scores[j].score {
			return scores[i].score > scores[j].score
		}
		return scores[i].flow < scores[j].flow
	})
	return scores, unmatched
}

// closest breaks a tie between flows by what they are about: the flow
// whose name and description hold more of the message's concepts, then
// the one whose own words (not the lexicon's) hold more of the message's
// words, then the one that writes more of them in the message's very
// form ("show my flights" is the flow of "booked flights", not the one
// that books "a new flight"). Among flows that take the message's values, only those that
// take the most are compared. ok is false when two flows still tie, or
// when the message has words no flow knows that are not the winner's
// values.
func (r *Rules) closest(tied, concepts []string, norm, head string, unmatched []string, v vm.View) (string, bool) {
	type key struct{ values, core, literal, form int }
	keys := make([]key, len(tied))
	fills := make([][]vm.SlotValue, len(tied))
	var stems, forms []string
	for w := range strings.FieldsSeq(norm) {
		if !stopWords[w] {
			stems = append(stems, stem(w))
			forms = append(forms, w)
		}
	}
	for i, name := range tied {
		fm := r.mean.flows[name]
		fills[i] = r.fill(r.byName[name], head, v)
		if coveredBy(unmatched, fills[i]) {
			keys[i].values = len(fills[i])
		}
		for _, c := range concepts {
			if fm.core[c] {
				keys[i].core++
			}
		}
		for _, s := range stems {
			if fm.stems[s] {
				keys[i].literal++
			}
		}
		for _, w := range forms {
			if fm.forms[w] {
				keys[i].form++
			}
		}
	}
	less := func(a, b key) bool {
		if a.values != b.values {
			return a.values < b.values
		}
		if a.core != b.core {
			return a.core < b.core
		}
		if a.literal != b.literal {
			return a.literal < b.literal
		}
		return a.form < b.form
	}
	best := 0
	for i := 1; i < len(keys); i++ {
		if less(keys[best], keys[i]) {
			best = i
		}
	}
	for i := range keys {
		if i != best && !less(keys[i], keys[best]) {
			return "", false
		}
	}
	if !coveredBy(unmatched, fills[best]) {
		return "", false
	}
	return tied[best], true
}
