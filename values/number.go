package values

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/soni-dev/soni/lexicon"
)

// number is a number read from text.
type number struct {
	// text is the number as written, sign included.
	text string
	// f is its value; i is its value as an integer when whole is true and
	// the number was written without a fraction, so large integers keep
	// every digit.
	f     float64
	i     int64
	exact bool
}

// integer returns the number as an int64, or why it is not one.
func (n number) integer() (int64, error) {
	if n.exact {
		return n.i, nil
	}
	return floatToInt(n.f)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// inWord reports whether s[start:end] touches a letter or a digit on
// either side: it is then part of a word, not a number of its own. A
// currency sign ("$15", "15€") or punctuation is no letter.
func inWord(s string, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:start])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		if (unicode.IsLetter(r) || unicode.IsDigit(r)) && !ordinalSuffix(s[end:]) {
			return true
		}
	}
	return false
}

// ordinalSuffixes are what may follow the digits of an ordinal: "st",
// "nd", "rd", "th", "º", "ª" (the lexicon's ordinal_suffixes).
var ordinalSuffixes = lexicon.Get("ordinal_suffixes")

// ordinalSuffix reports whether rest starts with an ordinal suffix that
// ends a word: "3rd", "1st", "2nd", "4th", "1º", "2ª".
func ordinalSuffix(rest string) bool {
	for _, suf := range ordinalSuffixes {
		if len(rest) >= len(suf) && strings.EqualFold(rest[:len(suf)], suf) {
			after := rest[len(suf):]
			if after == "" {
				return true
			}
			r, _ := utf8.DecodeRuneInString(after)
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}
	}
	return false
}

// maxExactDigits is how many significant digits a number slot (a float64)
// holds exactly.
const maxExactDigits = 15

// exactDigits reports whether a number's significant digits, as written,
// fit in a float64 without rounding: "1.23456789012345678901" does not.
func (n number) exactDigits() bool {
	if n.exact {
		return true
	}
	mantissa := n.text
	if i := strings.IndexAny(mantissa, "eE"); i >= 0 {
		mantissa = mantissa[:i]
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, mantissa)
	digits = strings.TrimLeft(digits, "0")
	if strings.ContainsAny(mantissa, ".,") {
		digits = strings.TrimRight(digits, "0")
	}
	return len(digits) <= maxExactDigits
}

// digitScale reads a multiplier right after digits: "k" ("5k") or, after
// a space, thousand, million, mil, millón, millones ("2 million", "3
// mil"). n is how many bytes it takes, or 0.
func digitScale(rest string) (scale float64, n int) {
	if len(rest) > 0 && (rest[0] == 'k' || rest[0] == 'K') && (len(rest) == 1 || !isAlnum(rest[1])) {
		return 1e3, 1
	}
	trimmed := strings.TrimLeft(rest, " ")
	if len(trimmed) == len(rest) {
		return 1, 0
	}
	end := 0
	for end < len(trimmed) && (isAlnum(trimmed[end])) {
		_, size := utf8.DecodeRuneInString(trimmed[end:])
		end += size
	}
	sc, ok := digitScales[Normalize(trimmed[:end])]
	if !ok {
		return 1, 0
	}
	return float64(sc), len(rest) - len(trimmed) + end
}

// digitScales are the lexicon's scales read right after digits:
// thousand, million, mil, millón, millones.
var digitScales = lexicon.Number("digit_scales")

// times multiplies a number by a scale.
func (n number) times(scale float64) number {
	n.f *= scale
	n.exact = false
	if n.f == math.Trunc(n.f) && math.Abs(n.f) < 1e15 {
		n.i, n.exact = int64(n.f), true
	}
	return n
}

// findNumber finds the one number in a text: "25 years" is 25, "$15" is
// 15, "1,200.50" is 1200.5, "1.200,50" is 1200.5. The same number written
// twice counts once; two different numbers are ambiguous.
func findNumber(s string) (number, error) {
	var found number
	count := 0
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		start := i
		// A decimal point right before the digits: ".5".
		if start > 0 && s[start-1] == '.' && (start < 2 || !isAlnum(s[start-2])) {
			start--
		}
		// A minus sign that is not a hyphen inside a word or a range ("3-5").
		if start > 0 && s[start-1] == '-' && (start < 2 || !isAlnum(s[start-2])) {
			start--
		}
		end := i
		for end < len(s) {
			if isDigit(s[end]) {
				end++
				continue
			}
			if (s[end] == ',' || s[end] == '.') && end+1 < len(s) && isDigit(s[end+1]) {
				end++
				continue
			}
			break
		}
		i = end
		scale, scaled := digitScale(s[end:])
		if scaled > 0 {
			i, end = end+scaled, end+scaled
		}
		if inWord(s, start, end) {
			// Digits inside a word are no number: "abc123", "12b", an
			// IBAN such as "ES9121000418450200051332" (language.md §11).
			continue
		}
		tok := s[start : end-scaled]
		n, err := parseNumberToken(tok)
		if err != nil {
			return number{}, errorf(ErrNoValue, "%q is not a number", quoted(strings.TrimSpace(s)))
		}
		if scale > 1 {
			n = n.times(scale)
		}
		if count == 0 {
			found = n
			count = 1
			continue
		}
		if n.f != found.f || (n.exact && found.exact && n.i != found.i) {
			return number{}, errorf(ErrAmbiguous, "%q contains more than one number", quoted(strings.TrimSpace(s)))
		}
	}
	if count == 0 {
		if n, ok, err := findNumberWord(s); ok || err != nil {
			return n, err
		}
		return number{}, errorf(ErrNoValue, "%q is not a number", quoted(strings.TrimSpace(s)))
	}
	return found, nil
}

// numberWords are the small numbers users write as words (the lexicon's
// number_small), normalized. "once" (Spanish 11) is left out: in English
// it is not a number, and "un", "una", "a" and "an" are articles more
// often than counts.
var numberWords = lexicon.Number("number_small")

// findNumberWord finds the one number in words in a text with no digits:
// "two adults" is 2, "tres noches" is 3, "two hundred and ten euros" is
// 210 (numwords.go). ok is false when there is none; two different ones
// are ambiguous.
func findNumberWord(s string) (number, bool, error) {
	v, ok, ambiguous := wordNumber(Normalize(s))
	if ambiguous {
		return number{}, false, errorf(ErrAmbiguous, "%q contains more than one number", quoted(strings.TrimSpace(s)))
	}
	if !ok {
		return number{}, false, nil
	}
	return number{text: strings.TrimSpace(s), f: float64(v), i: v, exact: true}, true, nil
}

// errBadNumber is returned by parseNumberToken; callers replace it with a
// user-facing message.
var errBadNumber = &Error{Msg: "not a number", Err: ErrNoValue}

// parseNumberToken reads one number token: an optional sign, digits and
// the separators ',' and '.'. With both separators the last one is the
// decimal point and the other groups thousands ("1,200.50", "1.200,50").
// A single comma followed by exactly three digits groups thousands
// ("1,200"); otherwise a single comma is a decimal comma ("2,5"). A single
// dot is always a decimal point ("1.200" is 1.2). Repeated separators of
// one kind group thousands ("1,200,000", "1.200.000"). Thousands groups
// must have three digits. Exponents ("1e5") are accepted only when the
// whole token is a plain Go float, as in a json.Number.
func parseNumberToken(tok string) (number, error) {
	tok = strings.TrimSpace(tok)
	neg := false
	body := tok
	if strings.HasPrefix(body, "-") || strings.HasPrefix(body, "+") {
		neg = body[0] == '-'
		body = body[1:]
	}
	if body == "" {
		return number{}, errBadNumber
	}
	if strings.ContainsAny(body, "eE") {
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return number{}, errBadNumber
		}
		return number{text: tok, f: f}, nil
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !isDigit(c) && c != ',' && c != '.' {
			return number{}, errBadNumber
		}
	}
	commas := strings.Count(body, ",")
	dots := strings.Count(body, ".")
	var intPart, frac string
	switch {
	case commas == 0 && dots == 0:
		intPart = body
	case commas > 0 && dots > 0:
		dec := byte('.')
		if strings.LastIndexByte(body, ',') > strings.LastIndexByte(body, '.') {
			dec = ','
		}
		k := strings.LastIndexByte(body, dec)
		if strings.Count(body, string(dec)) != 1 {
			return number{}, errBadNumber
		}
		var ok bool
		if intPart, ok = ungroup(body[:k], otherSep(dec)); !ok {
			return number{}, errBadNumber
		}
		frac = body[k+1:]
	case commas == 1:
		k := strings.IndexByte(body, ',')
		before, after := body[:k], body[k+1:]
		if len(after) == 3 && len(before) >= 1 && len(before) <= 3 && before != "0" && before != "" {
			intPart = before + after
		} else {
			intPart, frac = before, after
		}
	case dots == 1:
		k := strings.IndexByte(body, '.')
		intPart, frac = body[:k], body[k+1:]
	case commas > 1:
		var ok bool
		if intPart, ok = ungroup(body, ','); !ok {
			return number{}, errBadNumber
		}
	default: // dots > 1
		var ok bool
		if intPart, ok = ungroup(body, '.'); !ok {
			return number{}, errBadNumber
		}
	}
	if strings.ContainsAny(frac, ",.") || (intPart == "" && frac == "") {
		return number{}, errBadNumber
	}
	if intPart == "" {
		intPart = "0"
	}
	clean := intPart
	if frac != "" {
		clean += "." + frac
	}
	if neg {
		clean = "-" + clean
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil || math.IsInf(f, 0) {
		return number{}, errBadNumber
	}
	n := number{text: tok, f: f}
	if frac == "" || strings.Trim(frac, "0") == "" {
		digits := intPart
		if neg {
			digits = "-" + digits
		}
		if i, err := strconv.ParseInt(digits, 10, 64); err == nil {
			n.i, n.exact = i, true
		}
	}
	return n, nil
}

func otherSep(c byte) byte {
	if c == ',' {
		return '.'
	}
	return ','
}

// ungroup removes thousands separators, checking that the first group has
// one to three digits and every other group exactly three.
func ungroup(s string, sep byte) (string, bool) {
	groups := strings.Split(s, string(sep))
	if len(groups[0]) < 1 || len(groups[0]) > 3 {
		return "", false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return "", false
		}
	}
	if len(groups) == 1 {
		return s, true
	}
	return strings.Join(groups, ""), true
}

// Float64 returns a Go number (any int or float size, or a json.Number)
// as a float64; ok is false for anything else.
func Float64(v any) (f float64, ok bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}
