package understand

import (
	"errors"
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Negation is read before values (docs/understanding.md, "Negations"):
// "not urgent" and "it is not important" at "How urgent is it?" store
// neither urgent nor high. The part of a clause from a negation word to
// its end is left out of the answer; what is left is read as usual, and
// a categorical slot with one value left that the answer does not negate
// takes it. A value or synonym that starts with a negation word ("not
// working", "no rush") is a value, not a negation.

// negations are the words that negate what follows them, normalized
// (apostrophes dropped). "no" negates only after another word or before
// a verb of being: "no, 50" and "no rush" are no negations of a value,
// "no es urgente" is one.
var (
	// A negated verb of doing ("I can't log in", "it won't charge") says
	// what is wrong, not which value is not meant: only the negations of
	// being and having are here.
	negations      = lexdata.Set("negations")
	negatedCopulas = lexdata.Set("negated_copulas")
	// comparisons after a negation bound a value, not deny it: "not
	// more than 50" is 50 at most.
	comparisons = lexdata.Set("comparisons")
	// clauseBreaks end what a negation negates: "not now but urgent".
	clauseBreaks = lexdata.Set("clause_breaks")
)

// negatedAnswer leaves out of an answer the parts that a negation
// negates. rest is what is left, clauses joined with commas; negated
// holds the negated parts; ok is false when nothing is negated.
func negatedAnswer(def *ir.Slot, head string) (rest string, negated []string, ok bool) {
	var kept []string
	for _, clause := range strings.FieldsFunc(head, func(c rune) bool { return strings.ContainsRune(",;.!?¿¡", c) }) {
		words := strings.Fields(values.Normalize(clause))
		k := negationAt(def, words)
		if k < 0 {
			if len(words) > 0 {
				kept = append(kept, strings.Join(words, " "))
			}
			continue
		}
		end := len(words)
		for j := k + 1; j < len(words); j++ {
			if clauseBreaks[words[j]] {
				end = j
				break
			}
		}
		negated = append(negated, strings.Join(words[k:end], " "))
		if left := strings.Join(append(append([]string{}, words[:k]...), words[end:]...), " "); left != "" {
			kept = append(kept, left)
		}
	}
	if len(negated) == 0 {
		return head, nil, false
	}
	return strings.Join(kept, ", "), negated, true
}

// negationAt is the index of the first word of a clause that negates
// what follows it, or -1. A negation word that starts one of the slot's
// values or synonyms ("not working") negates nothing, and neither does
// one with nothing after it ("no").
func negationAt(def *ir.Slot, words []string) int {
	for k := 0; k < len(words)-1; k++ {
		w := words[k]
		switch {
		case negations[w]:
		case clauseNegations[w] && (k > 0 || negatedCopulas[words[k+1]]):
		default:
			continue
		}
		if startsValue(def, words[k:]) || comparisons[words[k+1]] {
			continue
		}
		return k
	}
	return -1
}

// startsValue reports whether words start with one of a categorical
// slot's values or synonyms.
func startsValue(def *ir.Slot, words []string) bool {
	if def == nil || def.Type != ir.TypeCategorical {
		return false
	}
	for _, v := range def.Values {
		for _, n := range append([]string{strings.ReplaceAll(v.Value, "_", " "), v.Label}, v.Synonyms...) {
			nw := strings.Fields(values.Normalize(n))
			if len(nw) > 0 && len(nw) <= len(words) && strings.Join(words[:len(nw)], " ") == strings.Join(nw, " ") {
				return true
			}
		}
	}
	return false
}

// negatedCollect reads an answer to a typed question that negates a
// value: the value of what is left ("not tomorrow, friday"), or the one
// value of a categorical slot that is left when the answer negates the
// others, or else no answer (the question is asked again). ok is false
// when the answer negates nothing.
func (r *Rules) negatedCollect(p *vm.Pending, def *ir.Slot, head string, conv values.Converter) (vm.Command, bool) {
	if def == nil || !typed(def) || def.Type == ir.TypeBoolean {
		return vm.Command{}, false
	}
	rest, negated, ok := negatedAnswer(def, head)
	if !ok {
		return vm.Command{}, false
	}
	// Only a negated value counts: "the money is for Bob, not Ana" at a
	// question of an amount negates no amount.
	valued := false
	for _, n := range negated {
		if _, err := conv.Convert(def, n); err == nil || !errors.Is(err, values.ErrNoValue) {
			valued = true
		}
	}
	if !valued {
		return vm.Command{}, false
	}
	if strings.TrimSpace(rest) != "" {
		if x, err := conv.Convert(def, rest); err == nil {
			return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}, true
		}
		// "it's the portal, not the vpn": a word of one value only, as
		// a short answer names it (valueByWord).
		if def.Type == ir.TypeCategorical {
			if x, ok := valueByWord(def, rest); ok {
				return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}, true
			}
		}
	}
	if def.Type == ir.TypeCategorical {
		out := map[string]bool{}
		for _, n := range negated {
			if x, err := conv.Convert(def, n); err == nil {
				if s, ok := x.(string); ok {
					out[s] = true
				}
			}
		}
		if len(out) > 0 && len(def.Values)-len(out) == 1 {
			for _, v := range def.Values {
				if !out[v.Value] {
					return vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: v.Value}, true
				}
			}
		}
	}
	return vm.Command{Kind: vm.CmdFallback}, true
}

// withoutNegated drops from the values that open a flow the categorical
// ones that the message only negates ("a room, not a suite"; "my laptop
// is not charging" is no billing).
func (r *Rules) withoutNegated(fr *flowRules, head string, view vm.View, slots []vm.SlotValue) []vm.SlotValue {
	conv := view.Converter()
	kept := slots[:0]
	for _, sv := range slots {
		var def *ir.Slot
		for _, s := range slices.Concat(fr.slots, fr.callees) {
			if s.name == sv.Slot {
				def = s.def
				break
			}
		}
		if def == nil || def.Type != ir.TypeCategorical {
			kept = append(kept, sv)
			continue
		}
		rest, _, negated := negatedAnswer(def, head)
		if !negated {
			kept = append(kept, sv)
			continue
		}
		if x, err := conv.Convert(def, rest); err == nil && x == sv.Value {
			kept = append(kept, sv)
			continue
		}
		if x, ok := r.valueByStem(fr, def, rest); ok && x == sv.Value {
			kept = append(kept, sv)
		}
	}
	return kept
}
