package understand

import (
	"slices"
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Text slots that hold a number or a date (docs/understanding.md, "Text
// slots that hold an amount or a date"). A project imported from
// another framework often keeps an amount or a date in a text slot (the
// amount of money "without any currency designation", the start date of
// a payment): its own model read the value out of the answer. The rules
// read such a slot as a number or a date, so that "150$" is 150, "Jan
// 1st, 2050" is 2050-01-01 and "I meant Bob" is no amount, and give the
// value as text ("150"), which the slot stores as it is.

// amountCues in a text slot's name, description or label say it holds a
// number.
var amountCues = lexdata.Set("amount_cues")

// dateCues say it holds a date.
var dateCues = lexdata.Set("date_cues")

// notValueCues say a text slot holds words about the value, not the
// value: "the reason for the price", "a comment on the amount".
var notValueCues = lexdata.Set("not_value_cues")

// noneBefore a not-value cue say the slot holds no such thing: "a
// number without currency" is a number.
var noneBefore = lexdata.Set("none_before")

// yesNoNames end the name of a slot that holds a yes or a no, when its
// description says nothing else.
var yesNoNames = lexdata.Set("yes_no_names")

// readAs is how the rules read a free-text slot that holds a number, a
// date or a yes or no: a copy of it with that type; nil for any other
// slot.
func readAs(s *ir.Slot) *ir.Slot {
	if s == nil || s.Pattern != "" || (s.Type != ir.TypeText && s.Type != ir.TypeAny) {
		return nil
	}
	name := strings.Fields(values.Normalize(strings.ReplaceAll(s.Name, "_", " ")))
	about := strings.Fields(values.Normalize(s.Description + " " + s.Label))
	vetoed := func(words []string) bool {
		for i, w := range words {
			if notValueCues[w] && !(noneOfNouns[w] && i > 0 && noneBefore[words[i-1]]) {
				return true
			}
		}
		return false
	}
	number := func(words []string) bool {
		for i, w := range words {
			if amountCues[stem(w)] || amountCues[w] {
				return true
			}
			// "number of people", "how many nights".
			if i+1 < len(words) && countAsks[w+" "+words[i+1]] {
				return true
			}
		}
		return false
	}
	// The name says what the slot holds, and a description's words never
	// change it: a date slot whose description says "do not misinterpret
	// the date at any cost" holds a date.
	if vetoed(name) {
		return nil
	}
	c := *s
	switch {
	case number(name):
		c.Type = ir.TypeNumber
		return &c
	case hasAny(name, dateCues):
		c.Type = ir.TypeDate
		return &c
	}
	words := append(name, about...)
	if vetoed(words) {
		return nil
	}
	has := func(set ...string) bool {
		for _, x := range set {
			if !slices.Contains(about, x) {
				return false
			}
		}
		return true
	}
	switch {
	case has("true", "false") || has("yes", "no") || (len(about) == 0 && yesNoNames[name[len(name)-1]]):
		// "accepts True or False", remove_contact_confirmation: a yes or
		// a no.
		c.Type = ir.TypeBoolean
	case number(words):
		c.Type = ir.TypeNumber
	case hasAny(words, dateCues):
		c.Type = ir.TypeDate
	default:
		return nil
	}
	return &c
}

func hasAny(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] || set[stem(w)] {
			return true
		}
	}
	return false
}

// asRead is the slot as the rules read it.
func (r *Rules) asRead(s *ir.Slot) *ir.Slot {
	if x, ok := r.readAs[s]; ok {
		return x
	}
	return s
}

// readsAs reports whether the rules read a slot as another type than
// its own.
func (r *Rules) readsAs(flow, slot string) bool {
	if r.prog == nil || len(r.readAs) == 0 {
		return false
	}
	_, ok := r.readAs[r.prog.ResolveSlot(flow, slot)]
	return ok
}

// asText gives the values of text slots read as numbers as text ("150",
// never 150), so that the slot stores what it would store from the
// model: the value, without the words and symbols around it.
func (r *Rules) asText(rd Reading, v vm.View) Reading {
	if len(r.readAs) == 0 || r.prog == nil {
		return rd
	}
	flow := ""
	if v.Pending != nil {
		flow = v.Pending.Flow
	} else if n := len(v.Stack); n > 0 {
		flow = v.Stack[n-1]
	}
	text := func(flow, slot string, x any) any {
		s := r.prog.ResolveSlot(flow, slot)
		if _, ok := r.readAs[s]; !ok {
			return x
		}
		switch x.(type) {
		case float64, int64:
			return tmpl.Format(x)
		}
		return x
	}
	for i, c := range rd.Commands {
		switch c.Kind {
		case vm.CmdSetSlot, vm.CmdCorrectSlot:
			rd.Commands[i].Value = text(flow, c.Slot, c.Value)
		case vm.CmdStartFlow:
			for k, sv := range c.Slots {
				c.Slots[k].Value = text(c.Flow, sv.Slot, sv.Value)
			}
		}
	}
	return rd
}
