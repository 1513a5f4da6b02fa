// Package values converts raw values (a user's text, a command's value, an
// action's output) to a slot's type, and checks a slot's static constraints
// (min, max, pattern, categorical values). The understanding layer and the
// VM share it, so a value means the same wherever it comes from.
//
// Conversion from text is forgiving: numbers, yes/no words, categorical
// values and dates are found inside a longer message ("25 years", "yes
// please", "business class please", "on March 5, 2027"). It is also strict:
// a message with two different candidates is ambiguous and converts to
// nothing. docs/understanding.md describes every accepted form.
package values

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
)

// ErrNoValue means the raw value holds nothing of the slot's type. Errors
// returned by Convert wrap it when nothing was found.
var ErrNoValue = errors.New("no value of the slot's type")

// ErrAmbiguous means the raw value holds more than one different value of
// the slot's type ("between 3 and 5" for a number).
var ErrAmbiguous = errors.New("more than one value of the slot's type")

// ErrDateOrder means an all-numeric date reads both day-first and
// month-first (12/04/2026) and no date order was set. It is an
// ErrAmbiguous.
var ErrDateOrder = fmt.Errorf("%w: the date reads day-first and month-first", ErrAmbiguous)

// ErrInvalid means a value of the slot's type was found but breaks one of
// the slot's constraints (min, max, pattern, a real calendar date, a whole
// number for an integer slot).
var ErrInvalid = errors.New("the value breaks a constraint of the slot")

// Error is a conversion error. Msg is meant for the user; Err is one of
// ErrNoValue, ErrAmbiguous or ErrInvalid, for errors.Is.
type Error struct {
	Msg string
	Err error
}

// Error returns the user-facing message.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel error: ErrNoValue, ErrAmbiguous or ErrInvalid.
func (e *Error) Unwrap() error { return e.Err }

func errorf(sentinel error, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// Now is the clock that relative dates (today, tomorrow, hoy, mañana) are
// read against by Convert. Tests and embedders may replace it; a Converter
// with its own clock avoids touching this variable.
var Now = time.Now

// Converter converts raw values with its own clock and date order.
type Converter struct {
	// Now returns the current time; nil means the package variable Now.
	// Relative dates use its calendar day in its location.
	Now func() time.Time
	// DateOrder says how an all-numeric date whose first two numbers
	// could each be the day or the month (12/04/2026) is read; the zero
	// value refuses it as ambiguous.
	DateOrder DateOrder
}

// DateOrder is how all-numeric dates are read: the project's date_order
// setting.
type DateOrder string

// The date orders. DateAsk, the zero value, refuses a date that reads
// both ways.
const (
	DateAsk DateOrder = ""
	DateDMY DateOrder = "dmy"
	DateMDY DateOrder = "mdy"
)

// Convert converts a raw value to the slot's type and checks min, max,
// pattern and categorical values, reading relative dates against the
// package clock Now. See Converter.Convert.
func Convert(slot *ir.Slot, raw any) (any, error) {
	return Converter{}.Convert(slot, raw)
}

// Convert converts a raw value to the slot's type and checks min, max,
// pattern and categorical values. raw is a user's text or a typed value
// (string, bool, any Go integer or float, json.Number, time.Time for
// dates). The result is int64 for integer slots, float64 for number
// slots, bool, a canonical categorical value, an ISO date string
// (YYYY-MM-DD), the trimmed text (non-strings formatted as templates show
// them), or for any slots the trimmed string or the value as given. A nil
// slot converts like an any slot. The error is an *Error meant for the
// user, naming the value with %q.
func (c Converter) Convert(slot *ir.Slot, raw any) (any, error) {
	if slot == nil {
		return convertAny(raw), nil
	}
	switch slot.Type {
	case ir.TypeAny, "":
		return convertAny(raw), nil
	case ir.TypeInteger:
		v, err := toInteger(raw)
		if err != nil {
			return nil, err
		}
		if err := checkRange(slot, float64(v), v); err != nil {
			return nil, err
		}
		return v, nil
	case ir.TypeNumber:
		v, err := toNumber(raw)
		if err != nil {
			return nil, err
		}
		if err := checkRange(slot, v, v); err != nil {
			return nil, err
		}
		return v, nil
	case ir.TypeBoolean:
		return toBoolean(raw)
	case ir.TypeCategorical:
		return toCategorical(slot, raw)
	case ir.TypeList:
		return toList(slot, raw)
	case ir.TypeDate:
		now := Now
		if c.Now != nil {
			now = c.Now
		}
		return toDate(raw, now, c.DateOrder)
	default:
		// text, and any type the language does not know (treated as text).
		return toText(slot, raw)
	}
}

func convertAny(raw any) any {
	if s, ok := raw.(string); ok {
		return strings.TrimSpace(s)
	}
	return raw
}

func toText(slot *ir.Slot, raw any) (any, error) {
	if raw == nil {
		return nil, errorf(ErrNoValue, "no value was given")
	}
	s, ok := raw.(string)
	if !ok {
		s = tmpl.Format(raw)
	}
	s = strings.TrimSpace(s)
	if slot.Pattern != "" {
		re, err := compilePattern(slot.Pattern)
		if err != nil {
			return nil, errorf(ErrInvalid, "the pattern %q of slot %q is not a valid regular expression", slot.Pattern, slot.Name)
		}
		if !re.MatchString(s) {
			// "my code is 654321": one word of the text that matches
			// in full is the value, as numbers are found inside text.
			w, ok := onlyMatchingWord(re, s)
			if !ok {
				if w, ok = normalizedMatch(re, s); !ok {
					return nil, errorf(ErrInvalid, "%q is not in the expected format", quoted(s))
				}
			}
			s = w
		}
	}
	return s, nil
}

// patterns caches compiled full-match patterns by pattern source. Values
// are *regexp.Regexp or error.
var patterns sync.Map

func compilePattern(p string) (*regexp.Regexp, error) {
	if v, ok := patterns.Load(p); ok {
		if re, ok := v.(*regexp.Regexp); ok {
			return re, nil
		}
		return nil, v.(error)
	}
	re, err := regexp.Compile(`^(?:` + p + `)$`)
	if err != nil {
		patterns.Store(p, err)
		return nil, err
	}
	v, _ := patterns.LoadOrStore(p, re)
	if re, ok := v.(*regexp.Regexp); ok {
		return re, nil
	}
	return nil, v.(error)
}

func checkRange(slot *ir.Slot, f float64, v any) error {
	if slot.Min != nil && f < *slot.Min {
		return errorf(ErrInvalid, "%s is below the minimum of %s", tmpl.Format(v), tmpl.Format(*slot.Min))
	}
	if slot.Max != nil && f > *slot.Max {
		return errorf(ErrInvalid, "%s is above the maximum of %s", tmpl.Format(v), tmpl.Format(*slot.Max))
	}
	return nil
}

func toInteger(raw any) (int64, error) {
	switch x := raw.(type) {
	case int:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case uint:
		return uintToInt(uint64(x))
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		return uintToInt(x)
	case float32:
		return floatToInt(float64(x))
	case float64:
		return floatToInt(x)
	case json.Number:
		n, err := parseNumberToken(string(x))
		if err != nil {
			return 0, errorf(ErrNoValue, "%q is not a number", quoted(string(x)))
		}
		return n.integer()
	case string:
		n, err := findNumber(x)
		if err != nil {
			return 0, err
		}
		return n.integer()
	case nil:
		return 0, errorf(ErrNoValue, "no value was given")
	}
	return 0, errorf(ErrNoValue, "%q is not a number", quoted(tmpl.Format(raw)))
}

func uintToInt(u uint64) (int64, error) {
	if u > math.MaxInt64 {
		return 0, errorf(ErrInvalid, "%d is too large", u)
	}
	return int64(u), nil
}

// float64(math.MaxInt64) rounds up to 2^63, which does not fit; anything
// at or above it is too large.
const twoTo63 = 9223372036854775808.0

func floatToInt(f float64) (int64, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errorf(ErrNoValue, "%q is not a number", tmpl.Format(f))
	}
	if f != math.Trunc(f) {
		return 0, errorf(ErrInvalid, "%s is not a whole number", tmpl.Format(f))
	}
	if f >= twoTo63 || f < -twoTo63 {
		return 0, errorf(ErrInvalid, "%s is too large", tmpl.Format(f))
	}
	return int64(f), nil
}

func toNumber(raw any) (float64, error) {
	var f float64
	switch x := raw.(type) {
	case int:
		f = float64(x)
	case int8:
		f = float64(x)
	case int16:
		f = float64(x)
	case int32:
		f = float64(x)
	case int64:
		f = float64(x)
	case uint:
		f = float64(x)
	case uint8:
		f = float64(x)
	case uint16:
		f = float64(x)
	case uint32:
		f = float64(x)
	case uint64:
		f = float64(x)
	case float32:
		f = float64(x)
	case float64:
		f = x
	case json.Number:
		n, err := parseNumberToken(string(x))
		if err != nil {
			return 0, errorf(ErrNoValue, "%q is not a number", quoted(string(x)))
		}
		f = n.f
	case string:
		n, err := findNumber(x)
		if err != nil {
			return 0, err
		}
		if !n.exactDigits() {
			// Never rounded silently (language.md §11).
			return 0, errorf(ErrInvalid, "%s has more digits than a number holds exactly (%d)", n.text, maxExactDigits)
		}
		f = n.f
	case nil:
		return 0, errorf(ErrNoValue, "no value was given")
	default:
		return 0, errorf(ErrNoValue, "%q is not a number", quoted(tmpl.Format(raw)))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errorf(ErrNoValue, "%q is not a number", tmpl.Format(f))
	}
	return f, nil
}

func toBoolean(raw any) (any, error) {
	switch x := raw.(type) {
	case bool:
		return x, nil
	case string:
		if yes, ok := YesNo(x); ok {
			return yes, nil
		}
		return nil, errorf(ErrNoValue, "%q is not a yes or a no", quoted(strings.TrimSpace(x)))
	case nil:
		return nil, errorf(ErrNoValue, "no value was given")
	}
	return nil, errorf(ErrNoValue, "%q is not a yes or a no", quoted(tmpl.Format(raw)))
}

// maxQuote is how many runes of a raw value an error message quotes.
const maxQuote = 60

// quoted shortens a value for an error message: a long message is cut
// after maxQuote runes and marked with "...".
func quoted(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	n := 0
	for i := range s {
		if n == maxQuote {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

// onlyMatchingWord returns the one distinct word of s (split at spaces,
// trimmed of surrounding punctuation) that re matches in full; ok is false
// when none or several do.
// normalizedMatch tries the forms people type a code in against a
// pattern: without the spaces, dashes and dots between its parts ("482
// 913" is 482913), in capitals ("t-44556"), and with a dash between its
// letters and its digits ("t 44556" is T-44556). The value is the one
// form that matches; none, or two different ones, is no match. Only a
// text of at most three words is tried, so a sentence is never squeezed
// into a code.
//
// A word before the code that names it ("number t12345", "ref T 12345")
// is dropped: the forms of each ending of the text are tried, longest
// first. Nothing is added: "12345" is no T-12345.
func normalizedMatch(re *regexp.Regexp, s string) (string, bool) {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '-' || r == '.' || r == '_' || r == '/' || r == '#' || r == ':'
	})
	if len(fields) == 0 || len(fields) > 4 {
		return "", false
	}
	found := ""
	try := func(c string) bool {
		if c == "" || !re.MatchString(c) {
			return true
		}
		if found != "" && found != c {
			return false
		}
		found = c
		return true
	}
	for start := range fields {
		if start > 0 && (!lettersOnly(fields[start-1]) || re.MatchString(fields[start-1]) || re.MatchString(strings.ToUpper(fields[start-1]))) {
			// Only words that are no code and have no digits may come
			// before the code ("MAD or BCN" is two codes).
			break
		}
		if len(fields)-start > 3 {
			continue
		}
		joined := strings.Join(fields[start:], "")
		var dashed string
		if i := strings.IndexFunc(joined, func(r rune) bool { return r >= '0' && r <= '9' }); i > 0 {
			dashed = joined[:i] + "-" + joined[i:]
		}
		for _, c := range []string{joined, strings.ToUpper(joined), dashed, strings.ToUpper(dashed)} {
			if !try(c) {
				return "", false
			}
		}
		if found != "" {
			// The longest ending that reads is the code: "ref T 12345"
			// is T-12345 before 12345 alone is tried.
			break
		}
	}
	return found, found != ""
}

func lettersOnly(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '\'' && r != '’' {
			return false
		}
	}
	return w != ""
}

func onlyMatchingWord(re *regexp.Regexp, s string) (string, bool) {
	found := ""
	for _, w := range strings.Fields(s) {
		w = strings.TrimFunc(w, func(r rune) bool { return strings.ContainsRune(".,;:!?¿¡\"'()[]", r) })
		if w != "" && !re.MatchString(w) && re.MatchString(strings.ToUpper(w)) {
			w = strings.ToUpper(w)
		}
		if w == "" || !re.MatchString(w) {
			continue
		}
		if found != "" && found != w {
			return "", false
		}
		found = w
	}
	return found, found != ""
}

// ParseNow reads a clock setting (now: in conversation test and eval
// files, --now on soni chat and soni eval): a date, 2027-03-10, which
// is that day at noon UTC, or an RFC 3339 time, 2027-03-10T09:30:00+01:00.
func ParseNow(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.Add(12 * time.Hour), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date or a time: write 2027-03-10 or 2027-03-10T09:30:00Z", s)
}
