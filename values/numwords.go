package values

import (
	"strings"

	"github.com/soni-dev/soni/lexicon"
)

// Numbers in words, in English and Spanish, up to the billions: "seventy
// five", "two hundred and ten", "a thousand", "cincuenta", "treinta y
// cinco", "doscientos cuarenta", "dos millones". A message's words are
// read in runs: consecutive number words, with "and" or "y" between them.
// Each run is one number; a run that reads as no one number ("five
// twenty") makes the message ambiguous.

// wordKind says what a number word does in a run.
type wordKind int

const (
	kindSmall    wordKind = iota + 1 // 0-99: added to the group
	kindTens                         // 20, 30, ... 90: a unit may follow
	kindHundred                      // "hundred": multiplies the group by 100
	kindHundreds                     // Spanish cien, doscientos...: a whole hundred
	kindScale                        // thousand, million, mil, millón: closes the group
	kindDozen                        // dozen, docena: multiplies the group by 12
	kindArticle                      // a, an, un, una: 1, before a multiplier only
)

type numberWord struct {
	kind wordKind
	v    int64
}

// numberLexicon is every number word of the lexicon with what it does.
// A word in two sections takes the later one's kind ("twenty" is small
// and tens: tens).
var numberLexicon = func() map[string]numberWord {
	m := map[string]numberWord{}
	for _, sec := range []struct {
		name string
		kind wordKind
	}{
		{"number_small", kindSmall},
		{"number_tens", kindTens},
		{"number_compounds", kindSmall},
		{"number_hundred", kindHundred},
		{"number_hundreds", kindHundreds},
		{"number_scales", kindScale},
		{"number_dozen", kindDozen},
	} {
		for w, v := range lexicon.Number(sec.name) {
			m[w] = numberWord{sec.kind, v}
		}
	}
	for _, w := range lexicon.Get("number_articles") {
		m[w] = numberWord{kindArticle, 1}
	}
	return m
}()

// countOne are the words for one ("one", "un") that are no count before
// a notCounts word: "one moment", "one sec", "un momento", "one of
// them".
var countOne, notCounts = lexicon.Set("count_one"), lexicon.Set("not_counts")

// numberJoiners may join two number words of one number: "two hundred
// and ten", "treinta y cinco".
var numberJoiners = lexicon.Set("number_joiners")

// multiplies reports whether a number word needs a count before it, so an
// article can be that count: "a hundred", "a dozen", "un millón".
func multiplies(w string) bool {
	k := numberLexicon[w].kind
	return k == kindHundred || k == kindScale || k == kindDozen
}

// wordNumber finds the one number written in words in a normalized text.
// ok is false when there is none; two different numbers are ambiguous.
func wordNumber(norm string) (v int64, ok bool, ambiguous bool) {
	words := strings.Fields(norm)
	for i := 0; i < len(words); {
		w := words[i]
		nw, isNum := numberLexicon[w]
		if !isNum || (nw.kind == kindArticle && (i+1 >= len(words) || !multiplies(words[i+1]))) {
			i++
			continue
		}
		if countOne[w] && i+1 < len(words) && notCounts[words[i+1]] {
			i += 2
			continue
		}
		// The run: number words, with "and" or "y" between two of them.
		j := i + 1
		for j < len(words) {
			if _, isNum := numberLexicon[words[j]]; isNum && numberLexicon[words[j]].kind != kindArticle {
				j++
				continue
			}
			if numberJoiners[words[j]] && j+1 < len(words) {
				if nx, isNum := numberLexicon[words[j+1]]; isNum && nx.kind != kindArticle && nx.kind != kindScale {
					j += 2
					continue
				}
			}
			break
		}
		n, good := parseRun(words[i:j])
		if !good || (ok && n != v) {
			return 0, false, true
		}
		v, ok = n, true
		i = j
	}
	return v, ok, false
}

// parseRun reads a run of number words as one number.
func parseRun(run []string) (int64, bool) {
	var total, group int64
	var lastScale int64
	lastTens := false
	for _, w := range run {
		if numberJoiners[w] {
			continue
		}
		nw := numberLexicon[w]
		switch nw.kind {
		case kindSmall, kindTens:
			switch {
			case lastTens && nw.v < 10 && nw.kind == kindSmall:
			case group%100 == 0:
			default:
				return 0, false
			}
			group += nw.v
			lastTens = nw.kind == kindTens
			continue
		case kindArticle:
			if group != 0 {
				return 0, false
			}
			group = 1
		case kindHundred:
			if group == 0 {
				group = 1
			}
			if group >= 100 {
				return 0, false
			}
			group *= 100
		case kindHundreds:
			if group != 0 {
				return 0, false
			}
			group = nw.v
		case kindDozen:
			if group == 0 {
				group = 1
			}
			group *= 12
		case kindScale:
			if group == 0 {
				group = 1
			}
			if lastScale != 0 && nw.v >= lastScale {
				return 0, false
			}
			total += group * nw.v
			group, lastScale = 0, nw.v
		}
		lastTens = false
	}
	return total + group, true
}

// IsNumberWord reports whether a normalized word is a number word
// ("two", "fifty", "cien", "thousand").
func IsNumberWord(w string) bool {
	nw, ok := numberLexicon[w]
	return ok && nw.kind != kindArticle
}
