package understand

import (
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
		c := r.mean.lex.concept(w)
		if !fm.named[c] || genericWords[c] {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-3; j-- {
			if thingLeads[words[j]] {
				return true
			}
			if stopWords[words[j]] {
				break
			}
		}
	}
	return false
}
