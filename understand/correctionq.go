package understand

import (
	"fmt"

	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Corrections that say a slot is wrong ("the city is wrong, it's
// Paris"), and corrections inside the question a pattern asks about the
// flow it interrupted (pattern_correction's "Do you want to update the
// account to checking?"): "change the city to Munich" and "the city is
// wrong, it's Paris" correct a slot of that flow, and "no, from
// checking", whose value is the one the slot holds, keeps it
// (docs/understanding.md, "Corrections inside a pattern's question").

// Words of "the city is wrong, it's Paris": after the slot's name, one of
// wrongWords, then optionally one of wrongLeads, then the value.
var (
	wrongWords = lexdata.Phrases("wrong_words")
	wrongLeads = lexdata.Phrases("wrong_leads")
)

// wrongFillers may come before "the city is wrong", besides the
// correction fillers: "no, the city is wrong", "sorry, my date was
// wrong".
var wrongFillers = lexdata.Set("wrong_fillers")

// namedWrong reads "the city is wrong, it's Paris", "my date was wrong,
// it should be friday": a slot of the question's flow named, said to be
// wrong, then its value. A slot said to be wrong with no value after it
// ("the amount is wrong") is no correction: a no at a confirmation.
func (r *Rules) namedWrong(p *vm.Pending, head string, conv values.Converter) (vm.Command, bool) {
	fr := r.byName[p.Flow]
	if fr == nil {
		return vm.Command{}, false
	}
	lead := head
	for {
		w := firstWordOf(lead)
		if w == "" || !(correctionFillers[w] || wrongFillers[w]) {
			break
		}
		lead, _ = stripWords(lead, []string{w})
	}
	best, after, partial, ok := r.slotNamed(fr, p, lead)
	if ok {
		var found bool
		if after, found = stripAnyWords(after, wrongWords); !found {
			return vm.Command{}, false
		}
	} else if best, after, partial, ok = r.wrongNamed(fr, p, lead); !ok {
		return vm.Command{}, false
	}
	if r2, ok := stripAnyWords(after, wrongLeads); ok {
		after = r2
	}
	return r.namedValue(p, best, after, partial, conv)
}

// wrongAdjectives say a value is wrong before the slot's name: "I
// picked the wrong category", "wrong amount".
var wrongAdjectives = lexdata.Set("wrong_adjectives")

// wrongNamed reads "I picked the wrong category, it's account", "wrong
// amount, should be 60": at most four words, a wrong adjective, then a
// slot of the flow named, and what follows it.
func (r *Rules) wrongNamed(fr *flowRules, p *vm.Pending, lead string) (best slotRef, after string, partial, ok bool) {
	for i, k := 0, 0; k <= 4; k++ {
		s, e := nextWord(lead, i)
		if s == e {
			break
		}
		i = e
		if !wrongAdjectives[values.Normalize(lead[s:e])] {
			continue
		}
		best, after, partial, ok = r.slotNamed(fr, p, lead[e:])
		return best, after, partial, ok
	}
	return slotRef{}, "", false, false
}

// patternCorrection reads a correction at a pattern's question (a yes/no
// question of pattern_correction, say) as a correction of the flow the
// pattern interrupted: a slot named ("change the city to Munich", "the
// city is wrong, it's Paris") is corrected; a "no" with the value the
// corrected slot holds ("no, from checking" at "Do you want to update
// the account to savings?") answers no.
func (r *Rules) patternCorrection(p *vm.Pending, head string, v vm.View) (vm.Command, bool) {
	u := interrupted(p, v)
	if u == "" {
		return vm.Command{}, false
	}
	conv := v.Converter()
	up := &vm.Pending{Kind: vm.PendingConfirm, Flow: u}
	if c, ok := r.named(up, head, conv); ok {
		return c, true
	}
	if c, ok := r.namedWrong(up, head, conv); ok {
		return c, true
	}
	if !r.yesNoPending(p) || v.Slot == nil {
		return vm.Command{}, false
	}
	rest, weak, ok := r.correction(head)
	if !ok || !weak || notAValue(rest) {
		return vm.Command{}, false
	}
	raw, _ := v.Slot("corrected_slot")
	name, _ := raw.(string)
	def := r.slotDef(u, name)
	old, _ := v.Slot("old_value")
	if def == nil || old == nil {
		return vm.Command{}, false
	}
	x, err := conv.Convert(def, rest)
	if err != nil {
		fr := r.byName[u]
		if fr == nil {
			return vm.Command{}, false
		}
		val, ok := r.freeText(rest, fr.role[name])
		if !ok {
			return vm.Command{}, false
		}
		if x, err = conv.Convert(def, val); err != nil {
			return vm.Command{}, false
		}
	}
	if values.Normalize(fmt.Sprint(def.Shown(x))) != values.Normalize(fmt.Sprint(old)) {
		return vm.Command{}, false
	}
	if p.Kind == vm.PendingConfirm {
		return vm.Command{Kind: vm.CmdDeny}, true
	}
	return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: yesNoValue(r.slotDef(p.Flow, p.Slot), false)}, true
}
