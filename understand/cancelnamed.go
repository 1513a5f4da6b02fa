package understand

import (
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Cancels that name their flow (docs/understanding.md, "Cancel names its
// flow"): "cancel the flight", "forget the hotel", "no, cancel the
// flight" cancel the flow they name wherever it is on the stack, and a
// negated wish to do what a running flow does ("I don't want to send
// money anymore") cancels that flow. Neither is ever the answer to the
// pending question.

// topUserFlow is the topmost flow of the stack that is no pattern, or "".
func topUserFlow(v vm.View) string {
	for i := len(v.Stack) - 1; i >= 0; i-- {
		if !ir.IsPattern(v.Stack[i]) {
			return v.Stack[i]
		}
	}
	return ""
}

// cancelFor is the cancel_flow command for a flow on the stack: with the
// flow's name when it is not the topmost flow, so that the VM cancels it
// where it is and leaves the flows above it.
func cancelFor(p *vm.Pending, norm, flow string, v vm.View) vm.Command {
	if flow == topUserFlow(v) {
		return cancelCommand(p, norm)
	}
	return vm.Command{Kind: vm.CmdCancelFlow, Flow: flow}
}

// namedOnStack is the one flow on the stack whose name, description or
// trigger phrases hold a content word (stemmed) of the object of a
// cancel verb: "the flight" names book_flight under a hotel booking. It
// is "" when the object is only a pronoun or names no flow on the stack,
// and when it names several.
func (r *Rules) namedOnStack(object []string, v vm.View) string {
	var own []string
	for _, w := range object {
		if !cancelObjects[w] && !stopWords[w] {
			own = append(own, stem(w))
		}
	}
	if len(own) == 0 || r.prog == nil {
		return ""
	}
	found := ""
	for _, name := range v.Stack {
		if ir.IsPattern(name) || name == found {
			continue
		}
		if r.flowHasWord(name, own) {
			if found != "" {
				return ""
			}
			found = name
		}
	}
	return found
}

// flowHasWord reports whether a flow's name, description or trigger
// phrases hold one of the stemmed words.
func (r *Rules) flowHasWord(name string, stems []string) bool {
	f := r.prog.Flow(name)
	if f == nil {
		return false
	}
	texts := append([]string{strings.NewReplacer("_", " ", "-", " ").Replace(f.Name), f.Title(), f.Description}, f.Triggers...)
	for _, t := range texts {
		for w := range strings.FieldsSeq(values.Normalize(t)) {
			if slices.Contains(stems, stem(w)) {
				return true
			}
		}
	}
	return false
}

// cancelNamed reads a cancel verb whose object names one flow on the
// stack below the flow on top ("no, cancel the flight" while a hotel
// booking asks for the city): a cancel of that flow, never the answer to
// the hotel's question.
func (r *Rules) cancelNamed(p *vm.Pending, norm string, object []string, v vm.View) (Reading, bool) {
	if r.exactTrigger(norm) {
		return Reading{}, false
	}
	// "stop that, not needed anymore": the words from a negation on say
	// why, and name no flow.
	for i, w := range object {
		if negations[w] {
			object = object[:i]
			break
		}
	}
	flow := r.namedOnStack(object, v)
	if flow == "" {
		// "no, cancel the flight" while only a hotel booking runs: a
		// flow that is not running is nothing to cancel, and the words
		// are no answer to the hotel's question.
		if other := r.namedElsewhere(object, v); other != "" && p != nil {
			return unsure("a cancel of flow "+other+", which is not running: nothing to cancel", vm.Command{Kind: vm.CmdFallback}), true
		}
		return Reading{}, false
	}
	if flow == topUserFlow(v) {
		return Reading{}, false
	}
	return unsure("a cancel verb whose object names flow "+flow+" on the stack", cancelFor(p, norm, flow, v)), true
}

// namedElsewhere is the one flow of the program, not on the stack, whose
// words hold a content word of a cancel verb's object, when no flow on
// the stack has one and no trigger phrase of it asks to cancel (a flow
// whose phrase is "cancel my subscription" starts by it).
func (r *Rules) namedElsewhere(object []string, v vm.View) string {
	var own []string
	for _, w := range object {
		if !cancelObjects[w] && !stopWords[w] {
			own = append(own, stem(w))
		}
	}
	if len(own) == 0 || r.prog == nil {
		return ""
	}
	for _, name := range v.Stack {
		if r.flowHasWord(name, own) {
			return ""
		}
	}
	found := ""
	for _, fr := range r.flows {
		if slices.Contains(v.Stack, fr.name) || ir.IsPattern(fr.name) || !r.flowHasWord(fr.name, own) {
			continue
		}
		for _, t := range fr.triggers {
			for w := range strings.FieldsSeq(t.norm) {
				if cancelVerbs[w] {
					return ""
				}
			}
		}
		if found != "" {
			return ""
		}
		found = fr.name
	}
	return found
}

// Words of a negated wish: "I don't want to send money anymore", "I no
// longer need to book a flight", "ya no quiero enviar dinero". Each entry
// is a normalized word sequence.
var (
	negatedWishLeads = lexdata.Phrases("negated_wish_leads")
	negatedWishTails = lexdata.Phrases("negated_wish_tails")
	// pronounWishes stand for what the flow on top does: "I don't want to
	// do this anymore".
	pronounWishes = lexdata.Set("pronoun_wishes")
)

// negatedWish reads "I don't want to send money anymore": a negated wish
// whose object means a flow on the stack cancels that flow (the topmost
// such), and one that means the flow on top by a pronoun ("I don't want
// to do this anymore") cancels it. A negated wish for a flow that is not
// running starts nothing: it is a no at a yes/no question ("I don't
// need a replacement card" at "Would you like a replacement card?"),
// and nothing (fallback) elsewhere. ok is false when the message is no
// negated wish.
func (r *Rules) negatedWish(p *vm.Pending, norm, head string, v vm.View) (Reading, bool) {
	words := strings.Fields(norm)
	for stripped := true; stripped && len(words) > 0; {
		stripped = false
		if correctionFillers[words[0]] || fillers[words[0]] {
			words, stripped = words[1:], true
			continue
		}
		// "actually I don't want to...", "sorry, I don't need...".
		for _, pre := range strongPrefixes {
			if len(pre) == 1 && words[0] == pre[0] {
				words, stripped = words[1:], true
				break
			}
		}
	}
	found := false
	for _, lead := range negatedWishLeads {
		if len(words) > len(lead) && slices.Equal(words[:len(lead)], lead) {
			words, found = words[len(lead):], true
			break
		}
	}
	if !found {
		return Reading{}, false
	}
	for changed := true; changed && len(words) > 0; {
		changed = false
		for _, tail := range negatedWishTails {
			if len(words) > len(tail) && slices.Equal(words[len(words)-len(tail):], tail) {
				words, changed = words[:len(words)-len(tail)], true
				break
			}
		}
	}
	if len(words) == 0 || len(words) > 8 || strings.ContainsAny(head, ",;") {
		// "I don't want to send it to Ana, send it to Bob": what comes
		// next says what the user wants instead.
		return Reading{}, false
	}
	for _, w := range words {
		if clauseBreaks[w] {
			return Reading{}, false
		}
	}
	rest := strings.Join(words, " ")
	pronoun := true
	for _, w := range words {
		pronoun = pronoun && (pronounWishes[w] || stopWords[w] || pronounWishTails[w])
	}
	if pronoun {
		if top := topUserFlow(v); top != "" {
			return unsure("a negated wish to do what the flow on top does", cancelFor(p, norm, top, v)), true
		}
		return Reading{}, false
	}
	var candidates []string
	if m := r.bestTrigger(rest, true); m.flow != nil && !m.smallTalk {
		candidates = append(candidates, m.flow.name)
	}
	if flows, _ := r.byMeaning(rest, rest, v); len(flows) > 0 {
		candidates = append(candidates, flows...)
	}
	if len(candidates) == 0 {
		// "I don't need to check anymore", "I don't want to add anyone":
		// only words of what the flow on top does (its name,
		// description or phrases), with pronouns, say that flow.
		if top := topUserFlow(v); top != "" && r.onlyWordsOf(top, words) {
			return unsure("a negated wish in the words of the flow on top, "+top, cancelFor(p, norm, top, v)), true
		}
		return Reading{}, false
	}
	for _, name := range candidates {
		if len(r.fill(r.byName[name], rest, v)) > 0 {
			// "I don't want to send it to Ana": a detail of the task,
			// not the task.
			return Reading{}, false
		}
	}
	for i := len(v.Stack) - 1; i >= 0; i-- {
		if slices.Contains(candidates, v.Stack[i]) && !ir.IsPattern(v.Stack[i]) {
			return unsure("a negated wish to do what flow "+v.Stack[i]+" does", cancelFor(p, norm, v.Stack[i], v)), true
		}
	}
	// "I don't need a replacement card" at "Would you like a replacement
	// card?": a no.
	if p != nil && r.yesNoPending(p) {
		if rd, ok := r.yesNoAnswer(p, false, v); ok {
			return unsure("a negated wish at a yes/no question: no", rd.Commands[0]), true
		}
	}
	return unsure("a negated wish for a flow that is not running: nothing to start", vm.Command{Kind: vm.CmdFallback}), true
}

// onlyWordsOf reports whether the words of a negated wish, but for stop
// words and the pronouns of a wish, are words of a flow's name,
// description or phrases (stemmed), at least one of them.
func (r *Rules) onlyWordsOf(flow string, words []string) bool {
	if r.prog == nil {
		return false
	}
	n := 0
	for _, w := range words {
		if stopWords[w] || pronounWishes[w] || pronounWishTails[w] {
			continue
		}
		if !r.flowHasWord(flow, []string{stem(w)}) {
			return false
		}
		n++
	}
	return n > 0
}
