package values

import (
	"sort"
	"strings"
	"time"

	"github.com/soni-dev/soni/internal/text"
	"github.com/soni-dev/soni/lexicon"
)

// Dates as people say them, in English and Spanish: relative days
// ("tomorrow", "pasado mañana"), weekdays ("Friday", "next Friday", "el
// viernes"), spans from today ("in 3 days", "dentro de una semana",
// "next week") and a day of the month alone ("the 5th", "el día 5").
// Each is read against the clock's calendar day (docs/understanding.md,
// "Dates").

// relative holds the lexicon's relative_days: phrases that name a day by
// its offset from today. Longer phrases are tried first so "pasado
// mañana" is not read as "mañana".
var relative = longestFirst(lexicon.Number("relative_days"))

// countedPhrase is a phrase of words with a number.
type countedPhrase struct {
	words []string
	n     int
}

// longestFirst orders a lexicon section's phrases by their number of
// words, longest first, then alphabetically.
func longestFirst(m map[string]int64) []countedPhrase {
	out := make([]countedPhrase, 0, len(m))
	for p, n := range m {
		out = append(out, countedPhrase{strings.Fields(p), int(n)})
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].words) != len(out[j].words) {
			return len(out[i].words) > len(out[j].words)
		}
		return strings.Join(out[i].words, " ") < strings.Join(out[j].words, " ")
	})
	return out
}

// weekdays are the lexicon's day names, normalized.
var weekdays = func() map[string]time.Weekday {
	m := map[string]time.Weekday{}
	for w, n := range lexicon.Number("weekdays") {
		m[w] = time.Weekday(n)
	}
	return m
}()

// How a weekday is qualified.
const (
	weekdayComing = iota // "Friday", "this Friday", "el viernes": on or after today
	weekdayNext          // "next Friday": the Friday of next week
	weekdayAfter         // "el próximo viernes", "el viernes que viene": after today
	weekdayLast          // "last Friday", "el viernes pasado": before today
)

// weekdayHow reads a weekday qualifier as the lexicon names it.
var weekdayHow = map[string]int{"coming": weekdayComing, "next": weekdayNext, "after": weekdayAfter, "last": weekdayLast}

// qualifiers reads a lexicon section of phrases that qualify a day, with
// how, longest first.
func qualifiers(section string) []countedPhrase {
	m := map[string]int64{}
	for w, h := range lexicon.Map(section) {
		m[w] = int64(weekdayHow[h])
	}
	return longestFirst(m)
}

// weekdayLeads qualify a day name before it ("next Friday", "este
// viernes"), weekdayTrails after it ("el viernes que viene"), and
// weekends name the coming or next Saturday ("this weekend", "el fin de
// semana").
var (
	weekdayLeads = func() map[string]int {
		m := map[string]int{}
		for w, h := range lexicon.Map("weekday_leads") {
			m[w] = weekdayHow[h]
		}
		return m
	}()
	weekdayTrails = qualifiers("weekday_trails")
	weekends      = qualifiers("weekends")
)

// spanLeads come before a span from today: "in", "en", "dentro de".
var spanLeads = lexicon.Phrases("span_leads")

// monthLinks join a day and its month or a month and its year ("5th of
// march", "5 de marzo de 2027"); monthDayArticles may stand between a
// month and its day ("march the 5th").
var monthLinks, monthDayArticles = lexicon.Set("month_links"), lexicon.Set("month_day_articles")

// dayLeads come before the day of a month said alone ("the 5th", "el día
// 5"); after dayNouns ("día") the number is a day even without an
// ordinal's ending.
var dayLeads, dayNouns = lexicon.Set("day_leads"), lexicon.Set("day_nouns")

// morningWords are words for tomorrow that also mean the morning, as
// they do after a morningLeads word ("por la mañana", "esta mañana").
var morningWords, morningLeads = lexicon.Set("morning_words"), lexicon.Set("morning_leads")

// spanUnits are the units of "in 3 days", in days.
var spanUnits = lexicon.Number("span_units")

// spanCounts are the words that count a span: "in a week", "en dos
// días", "a couple of days".
var spanCounts = longestFirst(lexicon.Number("span_counts"))

// spokenDate reads a date said in words at words[i]: it returns the date
// and how many words it took, or 0.
func spokenDate(words []string, i int, today func() time.Time) (time.Time, int) {
	w := words[i]
	for _, r := range relative {
		if text.HasPrefixWords(words[i:], r.words) {
			if morningWords[r.words[0]] && i > 0 && morningLeads[words[i-1]] {
				// "por la mañana" is "in the morning".
				continue
			}
			return today().AddDate(0, 0, r.n), len(r.words)
		}
	}
	// Weekdays.
	if lead, ok := weekdayLeads[w]; ok && i+1 < len(words) {
		if wd, ok := weekdays[words[i+1]]; ok {
			return weekday(today(), wd, lead), 2
		}
	}
	if wd, ok := weekdays[w]; ok {
		for _, t := range weekdayTrails {
			if text.HasPrefixWords(words[i+1:], t.words) {
				return weekday(today(), wd, t.n), 1 + len(t.words)
			}
		}
		return weekday(today(), wd, weekdayComing), 1
	}
	for _, we := range weekends {
		if text.HasPrefixWords(words[i:], we.words) {
			return weekday(today(), time.Saturday, we.n), len(we.words)
		}
	}
	// "in 3 days", "en dos semanas", "dentro de una semana".
	for _, lead := range spanLeads {
		if !text.HasPrefixWords(words[i:], lead) {
			continue
		}
		j := i + len(lead)
		if n, k := spanCount(words, j); k > 0 && j+k < len(words) {
			if unit, ok := spanUnits[words[j+k]]; ok {
				return today().AddDate(0, 0, n*int(unit)), j + k + 1 - i
			}
		}
	}
	// "the 5th", "on the 22nd", "el día 5": the next such day of a month.
	if dayLeads[w] && i+1 < len(words) {
		next := words[i+1]
		ordinal := dayNouns[w] || (len(next) > 2 && !isDigit(next[len(next)-1]))
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
	for _, c := range spanCounts {
		if text.HasPrefixWords(words[j:], c.words) {
			return c.n, len(c.words)
		}
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
		if !monthLinks[words[k]] {
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
