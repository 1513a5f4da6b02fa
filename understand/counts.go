package understand

import (
	"strings"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
)

// Counts said in words with a noun (docs/understanding.md, "Counts"): at
// a question that counts people, "just me" is 1 and "me and my wife" 2;
// at one that counts nights or days, "a week" is 7.

// selfWords name the one who speaks.
var selfWords = wordSet("me", "i", "myself", "yo", "mi", "im")

// countFillers may come around a count without changing it.
var countFillers = wordSet("just", "only", "its", "it", "will", "be", "thats", "that", "is", "the", "of",
	"please", "thanks", "ok", "okay", "well", "um", "uh", "so", "solo", "going", "travelling", "traveling",
	"coming", "for", "be")

// aloneWords are a count of one person on their own.
var aloneWords = wordSet("alone", "solo", "myself", "me", "i", "yo")

// countSeparators join the people of a list: "me, my wife and our son".
var countSeparators = wordSet("and", "plus", "with", "y", "con", "&")

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
	case unit["people"] || unit["passenger"] || unit["person"] || unit["guest"] || unit["traveller"] || unit["adult"]:
		return peopleCount(norm)
	case unit["night"] || unit["day"]:
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
	if strings.Join(words, " ") == "on my own" || strings.Join(words, " ") == "by myself" {
		return 1, true
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
		case len(part) == 2 && (isNumberish(part[0]) || values.IsNumberWord(part[0])):
			n, err := values.Convert(&ir.Slot{Type: ir.TypeInteger}, part[0])
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

// plural reports whether a noun reads as a plural ("kids", "children").
func plural(w string) bool {
	switch w {
	case "children", "people", "kids", "friends", "parents", "family", "familia", "ninos", "hijos", "amigos", "padres":
		return true
	}
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

// weekCount reads "a week" (7), "two weeks" (14), "a fortnight" (14) and
// "a couple of nights" (2) for a slot that counts nights or days.
func weekCount(norm string) (float64, bool) {
	words := strings.Fields(norm)
	for i, w := range words {
		per := 0.0
		switch w {
		case "week", "weeks", "semana", "semanas":
			per = 7
		case "fortnight", "fortnights":
			per = 14
		case "couple":
			if i+1 < len(words) && (words[i+1] == "of" || strings.HasPrefix(words[i+1], "night") || strings.HasPrefix(words[i+1], "day")) {
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
			case prev == "a" || prev == "one" || prev == "una" || prev == "un" || prev == "the" || prev == "per":
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
