package understand

import (
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// listAddWords put the values after them into a list that holds a value
// ("add olives", "also onions"); listRemoveWords take them out ("remove
// the mushrooms", "without onions"). listAfterWords add the values before
// them ("olives too").
var (
	listAddWords    = lexdata.Set("list_add_words")
	listRemoveWords = lexdata.Set("list_remove_words")
	listAfterWords  = lexdata.Set("list_after_words")
)

// listEdit reads a change to a list slot of the flow that already holds
// a value: the values after an add word join it, the values after a
// remove word leave it, in the order the list had them ("add olives and
// remove the mushrooms" on [pepperoni, mushrooms] is [pepperoni,
// olives]). The slot is the pending question's when it is such a list,
// else the one set list slot of the flow whose values the message names.
// A message with no add or remove word, or that names none of the
// values, is no list edit: it replaces the list as any answer does.
func (r *Rules) listEdit(p *vm.Pending, head string, v vm.View) (vm.Command, bool) {
	fr := r.byName[p.Flow]
	if fr == nil || v.Slot == nil || !slices.ContainsFunc(fr.slots, func(s slotRef) bool { return s.def != nil && s.def.Type == ir.TypeList }) {
		return vm.Command{}, false
	}
	words := strings.Fields(values.Normalize(head))
	// Each word's part: add (+1), remove (-1), or none yet (0).
	type part struct {
		text string
		sign int
	}
	var parts []part
	var cur []string
	sign, cue := 0, false
	flush := func(s int) {
		if len(cur) > 0 {
			parts = append(parts, part{strings.Join(cur, " "), s})
		}
		cur = nil
	}
	for i, w := range words {
		if i+1 < len(words) && listAfterPairs[w+" "+words[i+1]] != "" {
			w = listAfterPairs[w+" "+words[i+1]] // "olives as well"
		} else if i > 0 && listAfterPairs[words[i-1]+" "+w] != "" {
			continue
		}
		switch {
		case listAddWords[w]:
			flush(sign)
			sign, cue = 1, true
		case listRemoveWords[w]:
			flush(sign)
			sign, cue = -1, true
		case listAfterWords[w]:
			flush(1)
			cue = true
		default:
			cur = append(cur, w)
		}
	}
	flush(sign)
	if !cue {
		return vm.Command{}, false
	}
	conv := v.Converter()
	var found []vm.Command
	for _, s := range fr.slots {
		if s.def == nil || s.def.Type != ir.TypeList || len(s.def.Values) == 0 {
			continue
		}
		old, set := v.Slot(s.name)
		items, _ := old.([]any)
		if !set || len(items) == 0 {
			continue
		}
		// The values of each part, without the slot's item bounds: the
		// edited list is checked as a whole by the VM.
		loose := *s.def
		loose.MinItems, loose.MaxItems = 0, 0
		var add, remove []any
		for _, pt := range parts {
			x, err := conv.Convert(&loose, pt.text)
			if err != nil {
				continue
			}
			if pt.sign < 0 {
				remove = append(remove, x.([]any)...)
			} else {
				add = append(add, x.([]any)...)
			}
		}
		if len(add) == 0 && len(remove) == 0 {
			continue
		}
		edited := make([]any, 0, len(items)+len(add))
		for _, it := range append(append([]any(nil), items...), add...) {
			if !containsItem(remove, it) && !containsItem(edited, it) {
				edited = append(edited, it)
			}
		}
		kind := vm.CmdCorrectSlot
		if p.Kind == vm.PendingCollect && p.Slot == s.name {
			kind = vm.CmdSetSlot
		}
		cmd := vm.Command{Kind: kind, Slot: s.name, Value: edited}
		if s.name == p.Slot {
			return cmd, true
		}
		found = append(found, cmd)
	}
	if len(found) != 1 {
		return vm.Command{}, false
	}
	return found[0], true
}

// valueList reports whether a slot is a list of declared values, which
// the opening message may name as it names categorical values.
func valueList(def *ir.Slot) bool {
	return def != nil && def.Type == ir.TypeList && len(def.Values) > 0
}

// containsItem reports whether a list holds the item.
func containsItem(list []any, item any) bool {
	for _, x := range list {
		if x == item {
			return true
		}
	}
	return false
}
