package understand

import (
	"slices"
	"strings"

	lexdata "github.com/soni-dev/soni/lexicon"
)

// A message that names the thing a flow is about keeps its other words
// (docs/understanding.md, "Flows by meaning, not by phrase"): in "I have
// a question about my bill" the flow's word "bill" is a noun, after a
// determiner, so the words no flow knows ("question") say what the user
// wants of it. In "order me a pizza" the flow's word "order" is a verb
// and the unknown noun after it is the thing wanted: no flow of the
// project's.

// thingLeads are the words before the name of a thing, with one or two
// words between ("my recent transactions", "a question about billing").
var thingLeads = lexdata.Set("thing_leads")

// objectPronouns stand between a verb and its object: "reserve me
// pizza".
var objectPronouns = lexdata.Set("object_pronouns")

// namesFlowThing reports whether a word of the message whose concept is
// one of the flow's own words of its name and description (what the
// flow is about) follows a determiner, with at most two content words
// between.
func (r *Rules) namesFlowThing(norm, flow string) bool {
	fm := r.mean.flows[flow]
	if fm == nil {
		return false
	}
	words := strings.Fields(norm)
	for i, w := range words {
		if stopWords[w] || isNumberish(w) {
			continue
		}
		if c := r.mean.lex.concept(w); fm.named[c] && !genericWords[c] && afterThingLead(words, i) {
			return true
		}
	}
	return false
}

// namesOtherThing reports whether a message names a thing no flow has a
// word for: a word of unmatched after a thing lead ("order me a pizza",
// "book a train") or as the object of a word of the flow ("reserve me
// pizza", "reserve concert tickets"), not the words no flow knows
// around a flow's own ("I can't connect to anything from home").
func (r *Rules) namesOtherThing(norm, flow string, unmatched []string) bool {
	if len(unmatched) == 0 {
		return false
	}
	fm := r.mean.flows[flow]
	words := strings.Fields(norm)
	ofFlow := func(w string) bool {
		c := r.mean.lex.concept(w)
		return fm != nil && (fm.trigger[c] || fm.about[c] || fm.values[c])
	}
	for i, w := range words {
		if stopWords[w] || isNumberish(w) || dateWord(w) || dateVocabulary[w] {
			continue
		}
		if !slices.Contains(unmatched, r.mean.lex.concept(w)) {
			continue
		}
		if afterThingLead(words, i) {
			return true
		}
		// The object of the flow's word: right after it, or after a
		// pronoun ("reserve me pizza").
		if i >= 1 && ofFlow(words[i-1]) || i >= 2 && stopWords[words[i-1]] && !thingLeads[words[i-1]] && ofFlow(words[i-2]) && objectPronouns[words[i-1]] {
			return true
		}
	}
	return false
}

// afterThingLead reports whether words[i] follows a thing lead, with at
// most two words that are no stop words between.
func afterThingLead(words []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if thingLeads[words[j]] {
			return true
		}
		if stopWords[words[j]] {
			return false
		}
	}
	return false
}
