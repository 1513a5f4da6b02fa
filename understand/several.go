package understand

import (
	"fmt"
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Several values in one answer (docs/understanding.md, "Several values
// in one answer"): at a free-text question, a number said with a word of
// one of the flow's other number slots ("2 nights in Berlin", "Hotel
// Central 3 nights") sets that slot too, and the free-text slot keeps
// only its own words; at a date question, a start and an end ("from may
// 14th to the 17th") fill the date and the flow's end date, or its count
// of nights or days.

// unitValues reads the numbers of a free-text answer that a word of one
// of the flow's other collected number slots follows ("2 nights", "three
// people"), anywhere in the answer: each sets its slot (or corrects it
// when it holds a value), and the words left, read as an answer of the
// asked slot's role ("in Berlin" is Berlin), are the asked slot's value.
func (r *Rules) unitValues(p *vm.Pending, head string, v vm.View) ([]vm.Command, bool) {
	def := r.slotDef(p.Flow, p.Slot)
	if def == nil || typed(def) || (def.Type != ir.TypeText && def.Type != "") {
		return nil, false
	}
	fr := r.byName[p.Flow]
	if fr == nil {
		return nil, false
	}
	var numbers []*slotRef
	for i := range fr.slots {
		s := &fr.slots[i]
		if s.name != p.Slot && fr.collected[s.name] && s.def != nil && (s.def.Type == ir.TypeNumber || s.def.Type == ir.TypeInteger) {
			numbers = append(numbers, s)
		}
	}
	if len(numbers) == 0 {
		return nil, false
	}
	toks := tokens(head)
	if len(toks) < 3 || len(toks) > 10 || asksSomething(head, values.Normalize(head)) {
		return nil, false // "what about 3 nights?" gives no city
	}
	conv := v.Converter()
	var cmds []vm.Command
	used := map[string]bool{}
	var rest []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if i+1 < len(toks) && (isNumberish(t.norm) || values.IsNumberWord(t.norm)) && !t.ends {
			unit := stem(toks[i+1].norm)
			var num *slotRef
			for _, s := range numbers {
				if unitOf(s)[unit] {
					if num != nil {
						return nil, false // two slots count it: which one?
					}
					num = s
				}
			}
			if num != nil {
				if used[num.name] {
					return nil, false
				}
				n, err := conv.Convert(num.def, t.text+" "+toks[i+1].text)
				if err != nil {
					return nil, false
				}
				used[num.name] = true
				kind := vm.CmdSetSlot
				if v.Slot != nil {
					if old, ok := v.Slot(num.name); ok && old != nil {
						kind = vm.CmdCorrectSlot
					}
				}
				cmds = append(cmds, vm.Command{Kind: kind, Slot: num.name, Value: n})
				i++
				continue
			}
		}
		rest = append(rest, t.text)
	}
	if len(cmds) == 0 || len(rest) == 0 {
		return nil, false
	}
	// The words left lose a carrier and linking words at their ends: "in
	// Berlin", "Berlin for", "a room in Paris".
	for len(rest) > 0 && answerJoiners[values.Normalize(rest[len(rest)-1])] {
		rest = rest[:len(rest)-1]
	}
	for len(rest) > 0 && answerJoiners[values.Normalize(rest[0])] && !r.carriesValue(rest, fr.role[p.Slot]) {
		rest = rest[1:]
	}
	value := strings.Join(rest, " ")
	if val, ok := r.freeText(value, fr.role[p.Slot]); ok {
		value = val
	}
	if value == "" || notAValue(value) || noAnswer(values.Normalize(value)) || !plausibleValue(value) {
		return nil, false
	}
	x, err := conv.Convert(def, value)
	if err != nil {
		return nil, false
	}
	return append([]vm.Command{{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: x}}, cmds...), true
}

// answerJoiners join the parts of an answer of several values: "2 nights
// in Berlin", "Berlin for 2 nights", "Berlin and 3 nights".
var answerJoiners = lexdata.Set("answer_joiners")

// carriesValue reports whether words start with a carrier of a role
// (the asked slot's, or any) that carries the rest: "in Berlin".
func (r *Rules) carriesValue(words []string, ro role) bool {
	toks := tokens(strings.Join(words, " "))
	for _, o := range []role{ro, roleSource, roleTarget, roleLocation, rolePerson} {
		if o == roleNone {
			continue
		}
		if _, at, ok := r.carried(toks, o); ok && at == 0 {
			return true
		}
	}
	return false
}

// rangeSeparators end the start of a range of dates and begin its end:
// "from may 14th to the 17th", "14 to 17 may", "del 14 al 17 de mayo".
var (
	rangeStarts     = lexdata.Phrases("range_starts")
	rangeSeparators = lexdata.Set("range_separators")
)

// dateRange reads a start and an end in one answer at a date question
// ("from may 14th to the 17th"): the asked slot takes the start, and the
// end goes to the flow's one other collected date slot after it, or else
// to its one number slot that counts nights or days (the days between the
// two). The end may leave out the month and the year it shares with the
// start ("the 17th").
func (r *Rules) dateRange(p *vm.Pending, head string, v vm.View) ([]vm.Command, bool) {
	def := r.slotDef(p.Flow, p.Slot)
	fr := r.byName[p.Flow]
	if def == nil || def.Type != ir.TypeDate || fr == nil {
		return nil, false
	}
	words := strings.Fields(head)
	if len(words) < 3 || len(words) > 12 {
		return nil, false
	}
	conv := v.Converter()
	for i := 1; i < len(words)-1; i++ {
		if !rangeSeparators[values.Normalize(words[i])] {
			continue
		}
		startText := strings.Join(words[:i], " ")
		if rest, ok := stripAnyWords(values.Normalize(startText), rangeStarts); ok && rest != "" {
			startText = rest
		}
		start, err := conv.Convert(def, startText)
		if err != nil {
			continue
		}
		endText := strings.Join(words[i+1:], " ")
		end, ok := rangeEnd(conv, def, start, endText)
		if !ok {
			continue
		}
		from, err1 := time.Parse(time.DateOnly, fmt.Sprint(start))
		to, err2 := time.Parse(time.DateOnly, fmt.Sprint(end))
		if err1 != nil || err2 != nil || !to.After(from) {
			return nil, false
		}
		first := vm.Command{Kind: vm.CmdSetSlot, Slot: p.Slot, Value: start}
		if other, ok := r.endSlot(fr, p.Slot, ir.TypeDate); ok {
			return []vm.Command{first, r.setOrCorrect(other.name, end, v)}, true
		}
		if other, ok := r.endSlot(fr, p.Slot, ir.TypeInteger); ok {
			days := int64(to.Sub(from).Hours()/24 + 0.5)
			if n, err := conv.Convert(other.def, days); err == nil {
				return []vm.Command{first, r.setOrCorrect(other.name, n, v)}, true
			}
		}
		return nil, false
	}
	return nil, false
}

// rangeEnd reads the end of a range of dates: a date, or a day of the
// start's month ("the 17th"), in the next month when it is before the
// start's day.
func rangeEnd(conv values.Converter, def *ir.Slot, start any, text string) (any, bool) {
	from, err := time.Parse(time.DateOnly, fmt.Sprint(start))
	if err != nil {
		return nil, false
	}
	if end, ok := dayAfter(conv, def, from, text); ok {
		return end, true
	}
	end, err := conv.Convert(def, text)
	return end, err == nil
}

// dayOfWords may stand around a day of a month alone: "the 17th", "el
// 17", "17 of".
var dayOfWords = lexdata.Set("day_of_words")

// dayAfter reads a day of a month alone ("the 17th") as the first such
// day after a start.
func dayAfter(conv values.Converter, def *ir.Slot, from time.Time, text string) (any, bool) {
	day := 0
	for _, w := range strings.Fields(values.Normalize(text)) {
		switch {
		case dayOfWords[w]:
		case day == 0:
			d, ok := ordinalDay(w)
			if !ok {
				return nil, false
			}
			day = d
		default:
			return nil, false
		}
	}
	if day == 0 {
		return nil, false
	}
	to := time.Date(from.Year(), from.Month(), day, 0, 0, 0, 0, time.UTC)
	if day <= from.Day() {
		to = time.Date(from.Year(), from.Month()+1, day, 0, 0, 0, 0, time.UTC)
	}
	if to.Day() != day {
		return nil, false // the 31st of a month of 30 days
	}
	end, err := conv.Convert(def, to.Format(time.DateOnly))
	return end, err == nil
}

// ordinalSuffixes end an ordinal day: "st", "nd", "rd", "th", "º".
var ordinalSuffixes = lexdata.Set("ordinal_suffixes")

// ordinalDay reads a day of a month written as a number, with or without
// an ordinal ending: "17", "17th", "1st".
func ordinalDay(w string) (int, bool) {
	digits := strings.TrimRight(w, "abcdefghijklmnopqrstuvwxyzº")
	if digits == "" || len(digits) > 2 || len(w)-len(digits) > 2 {
		return 0, false
	}
	if end := w[len(digits):]; end != "" && !ordinalSuffixes[end] {
		return 0, false
	}
	d := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		d = d*10 + int(c-'0')
	}
	return d, d >= 1 && d <= 31
}

// endSlot is the flow's one collected slot of a type, other than the
// asked one, that the end of a range fills: a date slot, or a number of
// nights or days.
func (r *Rules) endSlot(fr *flowRules, asked string, typ ir.SlotType) (*slotRef, bool) {
	var found *slotRef
	for i := range fr.slots {
		s := &fr.slots[i]
		if s.name == asked || !fr.collected[s.name] || s.def == nil || s.def.Type != typ {
			continue
		}
		if typ == ir.TypeInteger && !holdsAny(unitOf(s), nightCountWords) {
			continue
		}
		if found != nil {
			return nil, false
		}
		found = s
	}
	return found, found != nil
}

// setOrCorrect sets a slot, or corrects it when it holds a value.
func (r *Rules) setOrCorrect(name string, value any, v vm.View) vm.Command {
	if v.Slot != nil {
		if old, ok := v.Slot(name); ok && old != nil {
			return vm.Command{Kind: vm.CmdCorrectSlot, Slot: name, Value: value}
		}
	}
	return vm.Command{Kind: vm.CmdSetSlot, Slot: name, Value: value}
}

// clauseSeparators split an answer into the parts that may each give a
// value: "3 nights, a double room", "may 14th and 2 people".
var clauseSeparators = lexdata.Set("clause_separators")

// alsoNamed reads, in an answer to a typed question, the values of the
// flow's other collected slots that hold none yet and that the answer
// names by unit or by type: a number followed by a word of a number
// slot ("May 14th for 3 nights", "next friday for 2 people") and, in a
// part of the answer of its own (after a comma, "and" or "with"), a
// value of a categorical slot ("3 nights, a double room"). The answer's
// own value is never read again for another slot.
func (r *Rules) alsoNamed(p *vm.Pending, cmd vm.Command, head string, v vm.View) []vm.Command {
	if p == nil || p.Kind != vm.PendingCollect || cmd.Kind != vm.CmdSetSlot || cmd.Slot != p.Slot || v.Slot == nil {
		return nil
	}
	def := r.slotDef(p.Flow, p.Slot)
	fr := r.byName[p.Flow]
	if fr == nil || !typed(def) || def.Type == ir.TypeBoolean || len(head) > 200 {
		return nil
	}
	unset := func(s *slotRef) bool {
		if s.name == p.Slot || !fr.collected[s.name] || s.def == nil {
			return false
		}
		old, ok := v.Slot(s.name)
		return !ok || old == nil
	}
	conv := v.Converter()
	var out []vm.Command
	// A number and its unit.
	toks := tokens(head)
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.ends || !(isNumberish(t.norm) || values.IsNumberWord(t.norm)) {
			continue
		}
		unit := stem(toks[i+1].norm)
		var num *slotRef
		n := 0
		for k := range fr.slots {
			s := &fr.slots[k]
			if s.def != nil && (s.def.Type == ir.TypeNumber || s.def.Type == ir.TypeInteger) && fr.collected[s.name] && unitOf(s)[unit] {
				num = s
				n++
			}
		}
		if n != 1 || !unset(num) {
			continue
		}
		if x, err := conv.Convert(num.def, t.text+" "+toks[i+1].text); err == nil && !hasCommand(out, num.name) {
			out = append(out, vm.Command{Kind: vm.CmdSetSlot, Slot: num.name, Value: x})
		}
	}
	// A categorical value in a part of its own.
	var parts []string
	var part []string
	for _, t := range toks {
		if clauseSeparators[t.norm] {
			parts, part = append(parts, strings.Join(part, " ")), nil
			continue
		}
		part = append(part, t.text)
		if t.ends {
			parts, part = append(parts, strings.Join(part, " ")), nil
		}
	}
	parts = append(parts, strings.Join(part, " "))
	if len(parts) < 2 {
		return out
	}
	for _, text := range parts {
		if strings.TrimSpace(text) == "" {
			continue
		}
		if _, err := conv.Convert(def, text); err == nil {
			continue // the part that answers the question
		}
		for k := range fr.slots {
			s := &fr.slots[k]
			if !unset(s) || s.def.Type != ir.TypeCategorical || hasCommand(out, s.name) {
				continue
			}
			if x, err := conv.Convert(s.def, text); err == nil && onlyValueWords(s, text) {
				out = append(out, vm.Command{Kind: vm.CmdSetSlot, Slot: s.name, Value: x})
			}
		}
	}
	return out
}

// hasCommand reports whether commands set a slot.
func hasCommand(cmds []vm.Command, slot string) bool {
	for _, c := range cmds {
		if c.Slot == slot {
			return true
		}
	}
	return false
}

// onlyValueWords reports whether a part of an answer says nothing but a
// value of a categorical slot: its words are words of the slot's values,
// synonyms, name, label or description, or stop words ("a double room",
// "an e-bike"), not "first thing in the morning".
func onlyValueWords(s *slotRef, text string) bool {
	known := map[string]bool{}
	add := func(t string) {
		for _, w := range strings.Fields(values.Normalize(strings.ReplaceAll(t, "_", " "))) {
			known[stem(w)] = true
		}
	}
	add(s.name)
	add(s.def.Label)
	add(s.def.Description)
	for _, v := range s.def.Values {
		add(v.Value)
		add(v.Label)
		for _, syn := range v.Synonyms {
			add(syn)
		}
	}
	for _, w := range strings.Fields(values.Normalize(text)) {
		if !stopWords[w] && !articles[w] && !politeWords[w] && !known[stem(w)] {
			return false
		}
	}
	return true
}
