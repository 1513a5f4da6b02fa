package understand

import (
	"regexp"
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// A message can ask for a flow while giving its values, in words no
// trigger phrase anticipated: "Transfer 100 euros to John", "pay Ana 50€",
// "envía 50 euros a Pedro". Two deterministic readings cover that
// (docs/understanding.md, "Values in the first message"):
//
//   - an amount: a number with a currency word or sign is the value of the
//     flow's one collected number (or integer) slot;
//   - a name: "to NAME" or "a NAME", with NAME capitalised, is the value of
//     the flow's one collected free-text slot (type text, no pattern).
//
// A flow with two such slots gets no value from these readings: the
// message does not say which. They apply only when no trigger phrase
// matched: a matched trigger fills categorical and pattern values alone
// (language.md §9), so the flows' tested behaviour does not change.
var (
	moneyRE = regexp.MustCompile(`(?i)(?:[$€£]\s?(\d+(?:[.,]\d+)?)|\b(\d+(?:[.,]\d+)?)\s?(?:€|\$|£|eur\b|euros?\b|usd\b|dollars?\b|bucks\b|gbp\b|pounds?\b))`)
	nameRE  = regexp.MustCompile(`(?:^|\s)(?:to|a|para)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?)`)
)

// valueSlots are a flow's collected slots that the readings above fill.
type valueSlots struct {
	number *slotRef // the one collected number or integer slot
	name   *slotRef // the one collected free-text slot
}

func newValueSlots(collected []slotRef) valueSlots {
	var vs valueSlots
	numbers, names := 0, 0
	for i := range collected {
		s := &collected[i]
		if s.def == nil {
			continue
		}
		switch {
		case s.def.Type == ir.TypeNumber || s.def.Type == ir.TypeInteger:
			numbers++
			vs.number = s
		case s.def.Type == ir.TypeText && s.def.Pattern == "":
			names++
			vs.name = s
		}
	}
	if numbers != 1 {
		vs.number = nil
	}
	if names != 1 {
		vs.name = nil
	}
	return vs
}

// amount finds the message's amount: the number next to a currency.
func amount(head string) (string, bool) {
	m := moneyRE.FindStringSubmatch(head)
	if m == nil {
		return "", false
	}
	if m[1] != "" {
		return m[1], true
	}
	return m[2], true
}

// values reads the amount and the name in a message that starts fr.
func (fr *flowRules) values(head string) []vm.SlotValue {
	var out []vm.SlotValue
	if s := fr.vals.number; s != nil {
		if n, ok := amount(head); ok {
			if v, err := values.Convert(s.def, strings.Replace(n, ",", ".", 1)); err == nil {
				out = append(out, vm.SlotValue{Slot: s.name, Value: v})
			}
		}
	}
	if s := fr.vals.name; s != nil {
		if m := nameRE.FindStringSubmatch(head); m != nil {
			if v, err := values.Convert(s.def, m[1]); err == nil {
				out = append(out, vm.SlotValue{Slot: s.name, Value: v})
			}
		}
	}
	return out
}

// byVerbAndValues starts a flow no trigger phrase matched: the message's
// first content word is the first content word (the verb) of one of the
// flow's triggers, and the message gives a value for one of its slots by
// the readings above. A verb that two flows' triggers start with makes no
// match.
func (r *Rules) byVerbAndValues(head, norm string) (*flowRules, []vm.SlotValue) {
	first := firstContent(norm)
	if len(first) < 3 {
		return nil, nil
	}
	var found *flowRules
	for _, fr := range r.flows {
		if !fr.hasVerb(first) {
			continue
		}
		if found != nil {
			// "book" starts a flight and a hotel: the verb says neither.
			return nil, nil
		}
		found = fr
	}
	if found == nil {
		return nil, nil
	}
	slots := found.values(head)
	if len(slots) == 0 {
		return nil, nil
	}
	return found, slots
}

func (fr *flowRules) hasVerb(w string) bool {
	for _, t := range fr.triggers {
		v := t.verb
		if v == "" {
			continue
		}
		if v == w || (len(v) >= 4 && len(w) >= 4 && (strings.HasPrefix(v, w) || strings.HasPrefix(w, v))) {
			return true
		}
	}
	return false
}

// firstContent is the first content word of a normalized phrase, stemmed.
func firstContent(norm string) string {
	for w := range strings.FieldsSeq(norm) {
		if !stopWords[w] {
			return stem(w)
		}
	}
	return ""
}

// questionWords start a question, in English and Spanish (normalized).
var questionWords = map[string]bool{
	"how": true, "what": true, "whats": true, "which": true, "when": true, "where": true,
	"why": true, "who": true, "can": true, "could": true, "do": true, "does": true,
	"is": true, "are": true, "will": true, "would": true, "should": true,
	"cuanto": true, "cuanta": true, "cuantos": true, "que": true, "como": true,
	"donde": true, "cuando": true, "por": true, "puedo": true, "puedes": true,
}

// fillers may come before a question: "wait, how much...", "oh, what...".
var fillers = map[string]bool{
	"wait": true, "oh": true, "hmm": true, "um": true, "sorry": true, "so": true,
	"and": true, "but": true, "ok": true, "okay": true, "espera": true, "oye": true,
	"pero": true, "y": true,
}

// isQuestion reports whether a message is a question rather than a
// statement: it ends with a question mark and its first word, after
// fillers like "wait", is a question word. At a free-text question such a
// message is not the answer ("how much do I have?" is not a recipient).
func isQuestion(text, norm string) bool {
	t := strings.TrimSpace(text)
	if !strings.HasSuffix(t, "?") {
		return false
	}
	for w := range strings.FieldsSeq(norm) {
		if fillers[w] {
			continue
		}
		return questionWords[w]
	}
	return false
}
