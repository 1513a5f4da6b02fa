package understand

import (
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Corrections that name the value they replace (docs/understanding.md,
// "Corrections that name the old value"): "oh and make it 60 not 50",
// "I meant Rome, not Paris", "the name is Sara not Sarah". The words
// after the last "not" are what one slot of the flow holds now, which
// says the slot; the words before it are its new value, whatever
// question is pending.

// oldValueLeads come before the value a correction replaces: "not",
// "instead of", "en vez de".
var oldValueLeads = lexdata.Phrases("old_value_leads")

// oldValueNamed reads a correction that ends with the value it replaces:
// the slot of the pending question's flow (or of the flow a pattern
// interrupted) that holds that value now, with the value the words
// before say. ok is false when no set slot, or two, hold it, or the
// words before give no other value the slot can hold.
func (r *Rules) oldValueNamed(p *vm.Pending, head string, v vm.View) (vm.Command, bool) {
	if v.Slot == nil {
		return vm.Command{}, false
	}
	before, old, ok := oldValueSplit(head)
	if !ok {
		return vm.Command{}, false
	}
	conv := v.Converter()
	flows := []string{p.Flow}
	if u := interrupted(p, v); u != "" {
		flows = append(flows, u)
	}
	var target slotRef
	var flow string
	n := 0
	seen := map[string]bool{}
	for _, f := range flows {
		fr := r.byName[f]
		if fr == nil {
			continue
		}
		for _, s := range fr.slots {
			if seen[s.name] {
				continue
			}
			seen[s.name] = true
			x, set := v.Slot(s.name)
			if !set || x == nil || !holds(s.def, x, old, conv) {
				continue
			}
			target, flow = s, f
			n++
		}
	}
	if n != 1 {
		return vm.Command{}, false
	}
	val, ok := r.newValue(flow, target, before, conv)
	if !ok {
		return vm.Command{}, false
	}
	if x, _ := v.Slot(target.name); values.Normalize(tmpl.Format(x)) == values.Normalize(tmpl.Format(val)) {
		return vm.Command{}, false
	}
	kind := vm.CmdCorrectSlot
	if p.Kind == vm.PendingCollect && p.Slot == target.name {
		kind = vm.CmdSetSlot
	}
	return vm.Command{Kind: kind, Slot: target.name, Value: val}, true
}

// oldValueSplit cuts a message at its last old-value lead ("not", "instead
// of"): the words before it, and the one to four words after it, without
// the punctuation and polite words that end the message.
func oldValueSplit(head string) (before, old string, ok bool) {
	type word struct {
		start, end int
		norm       string
	}
	var words []word
	for i := 0; ; {
		s, e := nextWord(head, i)
		if s == e {
			break
		}
		words = append(words, word{s, e, values.Normalize(head[s:e])})
		i = e
	}
	// The polite words that end the message say nothing of the value.
	n := len(words)
	for n > 0 && (trailingPolite[words[n-1].norm] || polite[words[n-1].norm]) {
		n--
	}
	for i := n - 2; i >= 1; i-- {
		for _, lead := range oldValueLeads {
			k := len(lead)
			if i+k >= n || i+k+4 < n {
				continue
			}
			match := true
			for j, w := range lead {
				if words[i+j].norm != w {
					match = false
					break
				}
			}
			if !match {
				continue
			}
			before = strings.TrimRight(strings.TrimSpace(head[:words[i].start]), " ,;:-")
			old = head[words[i+k].start:words[n-1].end]
			return before, old, before != ""
		}
	}
	return "", "", false
}

// holds reports whether a slot's value x is the value a message writes
// as old: the same words, or the same value once converted.
func holds(def *ir.Slot, x any, old string, conv values.Converter) bool {
	if values.Normalize(tmpl.Format(x)) == values.Normalize(old) {
		return true
	}
	if !typed(def) {
		return false
	}
	y, err := conv.Convert(def, old)
	return err == nil && tmpl.Format(y) == tmpl.Format(x)
}

// newValue reads the new value of a slot out of the words before the
// old one: "oh and make it 60", "sorry, the money is for Bruno", "wait
// it's a billing issue".
func (r *Rules) newValue(flow string, s slotRef, before string, conv values.Converter) (any, bool) {
	rest := before
	if r2, _, ok := r.correction(before); ok && r2 != "" {
		rest = r2
	}
	if notAValue(rest) {
		return nil, false
	}
	if typed(s.def) {
		for _, text := range []string{rest, before} {
			if x, err := conv.Convert(s.def, text); err == nil {
				return x, true
			}
		}
		return nil, false
	}
	if plausibleValue(rest) && fieldsUnder(rest, 3) {
		return strings.TrimSpace(rest), true
	}
	ro := roleNone
	if fr := r.byName[flow]; fr != nil {
		ro = fr.role[s.name]
	}
	if val, ok := r.freeText(rest, ro); ok {
		return val, true
	}
	if val, ok := nameSpan(tokens(rest)); ok {
		return val, true
	}
	return nil, false
}
