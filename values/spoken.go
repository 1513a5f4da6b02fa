package values

import (
	"time"

	"github.com/soni-dev/soni/internal/text"
)

// Dates as people say them, in English and Spanish: relative days
// ("tomorrow", "pasado mañana"), weekdays ("Friday", "next Friday", "el
// viernes"), spans from today ("in 3 days", "dentro de una semana",
// "next week") and a day of the month alone ("the 5th", "el día 5").
// Each is read against the clock's calendar day (docs/understanding.md,
// "Dates").

// relative maps normalized relative-day phrases to a day offset. Longer
// phrases are tried first so "pasado mañana" is not read as "mañana".
var relative = []struct {
	words  []string
	offset int
}{
	{[]string{"day", "after", "tomorrow"}, 2},
	{[]string{"day", "before", "yesterday"}, -2},
	{[]string{"pasado", "manana"}, 2},
	{[]string{"next", "week"}, 7},
	{[]string{"la", "semana", "que", "viene"}, 7},
	{[]string{"la", "proxima", "semana"}, 7},
	{[]string{"la", "semana", "proxima"}, 7},
	{[]string{"today"}, 0},
	{[]string{"tonight"}, 0},
	{[]string{"hoy"}, 0},
	{[]string{"tomorrow"}, 1},
	{[]string{"tmrw"}, 1},
	{[]string{"tomorow"}, 1},
	{[]string{"tommorow"}, 1},
	{[]string{"tommorrow"}, 1},
	{[]string{"manana"}, 1},
	{[]string{"yesterday"}, -1},
	{[]string{"ayer"}, -1},
	{[]string{"anteayer"}, -2},
}

// weekdays are the English and Spanish day names, normalized.
var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
	"sunday": time.Sunday,
	"lunes":  time.Monday, "martes": time.Tuesday, "miercoles": time.Wednesday,
	"jueves": time.Thursday, "viernes": time.Friday, "sabado": time.Saturday,
	"domingo": time.Sunday,
}

// How a weekday is qualified.
const (
	weekdayComing = iota // "Friday", "this Friday", "el viernes": on or after today
	weekdayNext          // "next Friday": the Friday of next week
	weekdayAfter         // "el próximo viernes", "el viernes que viene": after today
	weekdayLast          // "last Friday", "el viernes pasado": before today
)

var weekdayLeads = map[string]int{
	"this": weekdayComing, "coming": weekdayComing, "este": weekdayComing,
	"next": weekdayNext, "proximo": weekdayAfter, "last": weekdayLast,
	"pasado": weekdayLast,
}

// spanUnits are the units of "in 3 days", in days.
var spanUnits = map[string]int{
	"day": 1, "days": 1, "dia": 1, "dias": 1, "week": 7, "weeks": 7,
	"semana": 7, "semanas": 7, "fortnight": 14,
}

// spanCounts are the words that count a span: "in a week", "en dos días".
var spanCounts = map[string]int{"a": 1, "an": 1, "one": 1, "un": 1, "una": 1, "uno": 1}

// spokenDate reads a date said in words at words[i]: it returns the date
// and how many words it took, or 0.
func spokenDate(words []string, i int, today func() time.Time) (time.Time, int) {
	w := words[i]
	for _, r := range relative {
		if text.HasPrefixWords(words[i:], r.words) {
			if r.words[0] == "manana" && i > 0 && (words[i-1] == "la" || words[i-1] == "esta") {
				// "por la mañana" is "in the morning".
				continue
			}
			return today().AddDate(0, 0, r.offset), len(r.words)
		}
	}
	// Weekdays.
	if lead, ok := weekdayLeads[w]; ok && i+1 < len(words) {
		if wd, ok := weekdays[words[i+1]]; ok {
			return weekday(today(), wd, lead), 2
		}
		if w == "this" && i+1 < len(words) && words[i+1] == "weekend" {
			return weekday(today(), time.Saturday, weekdayComing), 2
		}
		if w == "next" && i+1 < len(words) && words[i+1] == "weekend" {
			return weekday(today(), time.Saturday, weekdayNext), 2
		}
	}
	if wd, ok := weekdays[w]; ok {
		if text.HasPrefixWords(words[i+1:], []string{"que", "viene"}) {
			return weekday(today(), wd, weekdayAfter), 3
		}
		if i+1 < len(words) && (words[i+1] == "proximo" || words[i+1] == "pasado") {
			return weekday(today(), wd, weekdayLeads[words[i+1]]), 2
		}
		return weekday(today(), wd, weekdayComing), 1
	}
	if text.HasPrefixWords(words[i:], []string{"fin", "de", "semana"}) {
		return weekday(today(), time.Saturday, weekdayComing), 3
	}
	// "in 3 days", "en dos semanas", "dentro de una semana".
	if w == "in" || w == "en" || (w == "dentro" && i+1 < len(words) && words[i+1] == "de") {
		j := i + 1
		if w == "dentro" {
			j++
		}
		if n, k := spanCount(words, j); k > 0 && j+k < len(words) {
			if unit, ok := spanUnits[words[j+k]]; ok {
				return today().AddDate(0, 0, n*unit), j + k + 1 - i
			}
		}
	}
	// "the 5th", "on the 22nd", "el día 5": the next such day of a month.
	if (w == "the" || w == "dia") && i+1 < len(words) {
		next := words[i+1]
		ordinal := w == "dia" || (len(next) > 2 && !isDigit(next[len(next)-1]))
		if day, ok := dayNumber(next); ok && ordinal && !monthNear(words, i, i+2) {
			return nextMonthDay(today(), day), 2
		}
	}
	return time.Time{}, 0
}

// spanCount reads the count of a span at words[j]: digits, a number word
// or an article ("a week"), and "a couple of". k is how many words it
// took, or 0.
func spanCount(words []string, j int) (n, k int) {
	if j >= len(words) {
		return 0, 0
	}
	w := words[j]
	if text.HasPrefixWords(words[j:], []string{"a", "couple", "of"}) {
		return 2, 3
	}
	if c, ok := spanCounts[w]; ok {
		return c, 1
	}
	if v, ok := smallNumber(w); ok && v > 0 && v < 400 {
		return int(v), 1
	}
	return 0, 0
}

// smallNumber reads one word as a whole number: digits or a number word.
func smallNumber(w string) (int64, bool) {
	if v, ok := numberWords[w]; ok {
		return v, true
	}
	if len(w) == 0 || len(w) > 4 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return 0, false
		}
		v = v*10 + int64(w[i]-'0')
	}
	return v, true
}

// monthNear reports whether a month name is next to the words
// words[from:to] ("the 5th of March", "March the 5th"): the month reading
// takes the day then.
func monthNear(words []string, from, to int) bool {
	if from > 0 {
		if _, ok := months[words[from-1]]; ok {
			return true
		}
	}
	for k := to; k < len(words) && k <= to+1; k++ {
		if _, ok := months[words[k]]; ok {
			return true
		}
		if words[k] != "of" && words[k] != "de" {
			break
		}
	}
	return false
}

// weekday returns the day named wd relative to today, as qualified by
// how.
func weekday(today time.Time, wd time.Weekday, how int) time.Time {
	ahead := (int(wd) - int(today.Weekday()) + 7) % 7
	switch how {
	case weekdayNext:
		// The week starts on Monday: next week's Monday, then the day.
		toMonday := (8 - int(today.Weekday())) % 7
		if toMonday == 0 {
			toMonday = 7
		}
		return today.AddDate(0, 0, toMonday+(int(wd)+6)%7)
	case weekdayAfter:
		if ahead == 0 {
			ahead = 7
		}
	case weekdayLast:
		back := (int(today.Weekday()) - int(wd) + 7) % 7
		if back == 0 {
			back = 7
		}
		return today.AddDate(0, 0, -back)
	}
	return today.AddDate(0, 0, ahead)
}

// nextMonthDay is the next day numbered day of a month, on or after
// today.
func nextMonthDay(today time.Time, day int) time.Time {
	y, m := today.Year(), today.Month()
	for range 13 {
		if validDate(y, m, day) {
			t := time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
			if !t.Before(today) {
				return t
			}
		}
		m++
		if m > 12 {
			m, y = 1, y+1
		}
	}
	return today
}

// IsDateWord reports whether a normalized word names a month or a day of
// the week ("march", "viernes").
func IsDateWord(w string) bool {
	if _, ok := months[w]; ok {
		return true
	}
	_, ok := weekdays[w]
	return ok
}
