package values

import "strings"

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

var numberLexicon = func() map[string]numberWord {
	m := map[string]numberWord{}
	for w, v := range numberWords {
		m[w] = numberWord{kindSmall, v}
	}
	for w, v := range map[string]int64{
		"thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
		"eighty": 80, "ninety": 90, "twenty": 20,
		"treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60,
		"setenta": 70, "ochenta": 80, "noventa": 90,
	} {
		m[w] = numberWord{kindTens, v}
	}
	for w, v := range map[string]int64{
		"veintiuno": 21, "veintiun": 21, "veintiuna": 21, "veintidos": 22, "veintitres": 23,
		"veinticuatro": 24, "veinticinco": 25, "veintiseis": 26, "veintisiete": 27,
		"veintiocho": 28, "veintinueve": 29, "dieciseis": 16,
	} {
		m[w] = numberWord{kindSmall, v}
	}
	m["hundred"] = numberWord{kindHundred, 100}
	for w, v := range map[string]int64{
		"cien": 100, "ciento": 100, "doscientos": 200, "doscientas": 200,
		"trescientos": 300, "trescientas": 300, "cuatrocientos": 400,
		"cuatrocientas": 400, "quinientos": 500, "quinientas": 500,
		"seiscientos": 600, "seiscientas": 600, "setecientos": 700,
		"setecientas": 700, "ochocientos": 800, "ochocientas": 800,
		"novecientos": 900, "novecientas": 900,
	} {
		m[w] = numberWord{kindHundreds, v}
	}
	for w, v := range map[string]int64{
		"thousand": 1e3, "mil": 1e3, "million": 1e6, "millon": 1e6,
		"millones": 1e6, "billion": 1e9,
	} {
		m[w] = numberWord{kindScale, v}
	}
	m["dozen"] = numberWord{kindDozen, 12}
	m["docena"] = numberWord{kindDozen, 12}
	for _, w := range []string{"a", "an", "un", "una"} {
		m[w] = numberWord{kindArticle, 1}
	}
	return m
}()

// notCounts are the words after "one" or "un" that make it no count:
// "one moment", "one sec", "un momento", "one of them".
var notCounts = map[string]bool{
	"moment": true, "sec": true, "second": true, "minute": true, "min": true,
	"mo": true, "momento": true, "momentito": true, "segundo": true, "minuto": true,
	"of": true, "more": true, "last": true, "thing": true, "day": true, "time": true,
	"way": true, "que": true, "poco": true, "rato": true,
}

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
		if (w == "one" || w == "un" || w == "una" || w == "uno") && i+1 < len(words) && notCounts[words[i+1]] {
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
			if (words[j] == "and" || words[j] == "y") && j+1 < len(words) {
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
		if w == "and" || w == "y" {
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
