package understand

import (
	"strings"

	"github.com/soni-dev/soni/ir"
	lexdata "github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/values"
)

// Counts said in words with a noun (docs/understanding.md, "Counts"): at
// a question that counts people, "just me" is 1 and "me and my wife" 2;
// at one that counts nights or days, "a week" is 7.

// selfWords name the one who speaks.
var selfWords = lexdata.Set("self_words")

// countFillers may come around a count without changing it.
var countFillers = lexdata.Set("count_fillers")

// aloneWords are a count of one person on their own.
var aloneWords = lexdata.Set("alone_words")

// countSeparators join the people of a list: "me, my wife and our son".
var countSeparators = lexdata.Set("count_separators")

// spokenCount reads a count said in words with a noun for a number slot
// that counts people, nights or days; ok is false for any other slot or
// message.
func spokenCount(s *slotRef, text string) (float64, bool) {
	if s == nil || s.def == nil || (s.def.Type != ir.TypeInteger && s.def.Type != ir.TypeNumber) {
		return 0, false
	}
	unit := unitOf(s)
	norm := values.Normalize(strings.ReplaceAll(text, ",", " and "))
	switch {
	case holdsAny(unit, personCountWords):
		return peopleCount(norm)
	case holdsAny(unit, nightCountWords):
		return weekCount(norm)
	}
	return 0, false
}

// peopleCount reads "just me" (1), "me and my husband" (2), "myself and
// 2 kids" (3). Every part of the list must be the speaker, one person
// ("my wife", "Ana") or a number of people ("2 kids"); a plural with no
// number ("me and the kids") is no count.
func peopleCount(norm string) (float64, bool) {
	var words []string
	for w := range strings.FieldsSeq(norm) {
		if !countFillers[w] || aloneWords[w] {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return 0, false
	}
	if len(words) == 1 && aloneWords[words[0]] {
		return 1, true
	}
	if alonePhrases[strings.Join(words, " ")] {
		return 1, true
	}
	// "the two of us", "us three".
	if len(words) == 2 && (groupPronouns[words[0]] || groupPronouns[words[1]]) {
		n := words[0]
		if groupPronouns[n] {
			n = words[1]
		}
		if x, err := values.Convert(&ir.Slot{Type: ir.TypeInteger}, n); err == nil {
			return float64(x.(int64)), true
		}
	}
	var parts [][]string
	cur := []string{}
	for _, w := range words {
		if countSeparators[w] {
			if len(cur) > 0 {
				parts = append(parts, cur)
			}
			cur = []string{}
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		parts = append(parts, cur)
	}
	if len(parts) < 2 {
		return 0, false
	}
	self, total := false, 0.0
	for _, part := range parts {
		switch {
		case len(part) == 1 && selfWords[part[0]]:
			self = true
			total++
		case len(part) == 2 && possessives[part[0]] && !plural(part[1]):
			total++
		case len(part) == 2 && (isNumberish(part[0]) || values.IsNumberWord(part[0])),
			// "our two kids": a possessive, then a number of people.
			len(part) == 3 && possessives[part[0]] && (isNumberish(part[1]) || values.IsNumberWord(part[1])):
			k := len(part) - 2
			n, err := values.Convert(&ir.Slot{Type: ir.TypeInteger}, part[k])
			if err != nil {
				return 0, false
			}
			total += float64(n.(int64))
		default:
			return 0, false
		}
	}
	if !self {
		// "my wife and my son" without the speaker: who counts is
		// unclear.
		return 0, false
	}
	return total, true
}

// pluralNouns are nouns for several people that end in no s, or whose
// singular does ("family").
var pluralNouns = lexdata.Set("plural_nouns")

// plural reports whether a noun reads as a plural ("kids", "children").
func plural(w string) bool {
	if pluralNouns[w] {
		return true
	}
	return endsIn(w, pluralEndings) && !endsIn(w, notPluralEndings)
}

// The words of a length of stay: dateQualifiers before a week make it a
// date ("next week"), as do dateSpanLeads two words before ("in a
// week"); weekendLengths and weekLengths are lengths in days ("a
// weekend", "two weeks"), and lengthOnes count one of them ("a week",
// "per week").
var (
	dateQualifiers = lexdata.Set("date_qualifiers")
	dateSpanLeads  = lexdata.Set("date_span_leads")
	weekendLengths = lexdata.Number("weekend_lengths")
	weekLengths    = lexdata.Number("week_lengths")
	lengthOnes     = lexdata.Set("length_ones")
)

// weekCount reads "a week" (7), "two weeks" (14), "a fortnight" (14) and
// "a couple of nights" (2) for a slot that counts nights or days.
func weekCount(norm string) (float64, bool) {
	words := strings.Fields(norm)
	for i, w := range words {
		per := 0.0
		if i > 0 && dateQualifiers[words[i-1]] {
			// "next week", "this weekend": a date, not a length.
			continue
		}
		if i > 1 && dateSpanLeads[words[i-2]] {
			// "in a week", "en dos semanas": a date.
			continue
		}
		if n, ok := weekendLengths[w]; ok {
			return float64(n), true
		}
		switch {
		case weekLengths[w] > 0:
			per = float64(weekLengths[w])
		case coupleWords[w]:
			if i+1 < len(words) && (countLinks[words[i+1]] || startsWithAny(words[i+1], nightCountWords)) {
				return 2, true
			}
			continue
		default:
			continue
		}
		n := 1.0
		if i > 0 {
			prev := words[i-1]
			switch {
			case lengthOnes[prev]:
			case isNumberish(prev) || values.IsNumberWord(prev):
				x, err := values.Convert(&ir.Slot{Type: ir.TypeNumber}, prev)
				if err != nil {
					return 0, false
				}
				n = x.(float64)
			}
		}
		return n * per, true
	}
	return 0, false
}

// openingCount reads, in a message that starts a flow, a count said with
// a noun for a number slot that counts people or nights: "for a week",
// "the two of us", "me and my wife". The words of a date ("next week",
// "in a week") are no count.
func openingCount(s *slotRef, head string) (float64, bool) {
	if s == nil || s.def == nil {
		return 0, false
	}
	unit := unitOf(s)
	norm := values.Normalize(head)
	words := strings.Fields(norm)
	switch {
	case holdsAny(unit, personCountWords):
		for i := 0; i+2 < len(words); i++ {
			if countLinks[words[i+1]] && groupPronouns[words[i+2]] && (isNumberish(words[i]) || values.IsNumberWord(words[i])) {
				if x, err := values.Convert(&ir.Slot{Type: ir.TypeInteger}, words[i]); err == nil {
					return float64(x.(int64)), true
				}
			}
		}
	case holdsAny(unit, nightCountWords):
		for i, w := range words {
			if lengthLeads[w] && i+1 < len(words) {
				if n, ok := weekCount(strings.Join(words[i+1:min(len(words), i+4)], " ")); ok {
					return n, true
				}
			}
		}
	}
	return 0, false
}
