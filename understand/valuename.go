package understand

import (
	"strings"

	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Corrections that say the value, then its slot's name
// (docs/understanding.md, "Corrections that name their slot"): "oh it's
// actually 3 passengers" at a confirmation, "hmm, low priority is
// enough", "business class instead please". The name says which typed
// slot of the flow; the words just before it are the value.

// valueThenName reads a message that holds a value of a typed slot of
// the pending question's flow followed by that slot's name (or a word of
// it, or of its description), with at most three words after the name,
// none a negation, in a message that is no question. It gives the slot
// a new value: at a confirm any typed slot, at a collect any that holds
// a value but the one asked (the answer reads that one). ok is false
// when no slot is named so, or the value is the one the slot holds.
func (r *Rules) valueThenName(p *vm.Pending, head string, v vm.View) (vm.Command, bool) {
	fr := r.byName[p.Flow]
	if fr == nil || v.Slot == nil || !fieldsUnder(head, 10) || r.asks(head, values.Normalize(head)) {
		// "how much is in my checking account?" asks, and corrects
		// nothing.
		return vm.Command{}, false
	}
	conv := v.Converter()
	for i := 0; ; {
		s, e := nextWord(head, i)
		if s == e {
			return vm.Command{}, false
		}
		i = e
		if s == 0 {
			continue // a value comes first
		}
		best, after, _, ok := r.slotNamed(fr, p, head[s:])
		if !ok || !typed(best.def) || (p.Kind == vm.PendingCollect && best.name == p.Slot) {
			continue
		}
		if !quietTail(after) {
			continue
		}
		val, ok := lastValue(strings.TrimSpace(head[:s]), best, conv)
		if !ok {
			continue
		}
		x, set := v.Slot(best.name)
		if set && tmpl.Format(x) == tmpl.Format(val) {
			return vm.Command{}, false
		}
		if p.Kind == vm.PendingCollect && !set {
			// At a question, only a value given before is corrected.
			return vm.Command{}, false
		}
		return vm.Command{Kind: vm.CmdCorrectSlot, Slot: best.name, Value: val}, true
	}
}

// quietTail reports whether the words after a slot's name add nothing
// that changes the value: at most three words, no negation ("instead
// please", "is enough", but not "is not right").
func quietTail(after string) bool {
	words := strings.Fields(values.Normalize(after))
	if len(words) > 3 {
		return false
	}
	for _, w := range words {
		if negations[w] || negatedCopulas[w] {
			return false
		}
	}
	return true
}

// lastValue is the value of a slot that the last one, two or three
// words of a text give ("oh it's actually 3" gives 3, "hmm, low" low);
// the fewest words that convert.
func lastValue(text string, s slotRef, conv values.Converter) (any, bool) {
	words := strings.Fields(text)
	for k := 1; k <= 3 && k <= len(words); k++ {
		part := strings.Trim(strings.Join(words[len(words)-k:], " "), " ,;:.!?")
		if part == "" || notAValue(part) {
			continue
		}
		if x, err := conv.Convert(s.def, part); err == nil {
			return x, true
		}
	}
	return nil, false
}
