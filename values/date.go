package values

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/tmpl"
)

// months maps normalized month names and abbreviations (the lexicon's
// months) to month numbers. A month counts only next to a day number, so
// "mar" (also Spanish for "sea") and "may" are read as months only in
// "Mar 5" or "5 mar".
var months = func() map[string]time.Month {
	m := map[string]time.Month{}
	for w, n := range lexicon.Number("months") {
		m[w] = time.Month(n)
	}
	return m
}()

// dateFinder collects the dates found in a text.
type dateFinder struct {
	found   []string
	invalid string
	// ambiguous is an all-numeric date that reads both day-first and
	// month-first.
	ambiguous string
}

func (d *dateFinder) add(y int, m time.Month, day int, written string) {
	if !validDate(y, m, day) {
		if d.invalid == "" {
			d.invalid = written
		}
		return
	}
	iso := isoDate(y, m, day, written)
	for _, f := range d.found {
		if f == iso {
			return
		}
	}
	d.found = append(d.found, iso)
}

// isoDate is fmt.Sprintf("%04d-%02d-%02d", y, m, day) for a valid date,
// made without fmt: the text as written when it is that already (a date
// typed as 2027-03-05), else one string of ten bytes.
func isoDate(y int, m time.Month, day int, written string) string {
	var b [10]byte
	put := func(at, n, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, y, 4)
	b[4] = '-'
	put(5, int(m), 2)
	b[7] = '-'
	put(8, day, 2)
	if written == string(b[:]) { // compared without a copy
		return written
	}
	return string(b[:])
}

func validDate(y int, m time.Month, day int) bool {
	if y < 1 || y > 9999 || m < 1 || m > 12 || day < 1 || day > 31 {
		return false
	}
	t := time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
	return t.Year() == y && t.Month() == m && t.Day() == day
}

// toDate finds the one date in raw and returns it as YYYY-MM-DD. It
// accepts YYYY-MM-DD (also with / or .), DD/MM/YYYY (also with - or .;
// read as MM/DD/YYYY only when that is the one valid reading), a day and
// an English or Spanish month name with an optional year ("March 5,
// 2027", "5 March 2027", "5th of March", "5 de marzo de 2027"; without a
// year, the next such day from today), and today, tomorrow, the day after
// tomorrow, yesterday, hoy, mañana, pasado mañana, ayer.
func toDate(raw any, now func() time.Time, order DateOrder) (any, error) {
	var s string
	switch x := raw.(type) {
	case nil:
		return nil, errorf(ErrNoValue, "no value was given")
	case string:
		s = x
	case time.Time:
		return x.Format("2006-01-02"), nil
	default:
		s = tmpl.Format(raw)
	}
	s = strings.TrimSpace(s)
	var d dateFinder
	for _, m := range numericDates(s, true) {
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		day, _ := strconv.Atoi(s[m[6]:m[7]])
		d.add(y, time.Month(mo), day, s[m[2]:m[7]])
	}
	for _, m := range numericDates(s, false) {
		a, _ := strconv.Atoi(s[m[2]:m[3]])
		b, _ := strconv.Atoi(s[m[4]:m[5]])
		y, _ := strconv.Atoi(s[m[6]:m[7]])
		written := s[m[2]:m[7]]
		dayFirst, monthFirst := validDate(y, time.Month(b), a), validDate(y, time.Month(a), b)
		switch {
		case a == b || (dayFirst && !monthFirst):
		case monthFirst && !dayFirst:
			a, b = b, a
		case order == DateMDY:
			a, b = b, a
		case order != DateDMY && dayFirst:
			// 12/04/2026 is the 12th of April or December 4th: only the
			// project's date_order can say which.
			d.ambiguous = written
			continue
		}
		d.add(y, time.Month(b), a, written)
	}
	words := strings.Fields(Normalize(s))
	var today time.Time
	todaySet := false
	getToday := func() time.Time {
		if !todaySet {
			t := now()
			today = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
			todaySet = true
		}
		return today
	}
	// A weekday said alone beside a date that falls on it names that
	// date ("Friday, March 19, 2027"), not the coming Friday: the
	// weekdays alone are added after the other dates are found.
	var alone []time.Time
	for i := 0; i < len(words); i++ {
		if t, n := spokenDate(words, i, getToday); n > 0 {
			if _, ok := weekdays[words[i]]; ok && n == 1 {
				alone = append(alone, t)
				continue
			}
			d.add(t.Year(), t.Month(), t.Day(), strings.Join(words[i:i+n], " "))
			i += n - 1
			continue
		}
		m, ok := months[words[i]]
		if !ok {
			continue
		}
		day, year := 0, 0
		written := words[i]
		// The day before the month: "5 march", "5th of march", "5 de marzo".
		if i >= 1 {
			if dd, ok := dayNumber(words[i-1]); ok {
				day = dd
				written = words[i-1] + " " + written
			} else if i >= 2 && monthLinks[words[i-1]] {
				if dd, ok := dayNumber(words[i-2]); ok {
					day = dd
					written = words[i-2] + " " + words[i-1] + " " + written
				}
			}
		}
		j := i + 1
		// Or after it: "march 5", "march 5th", "march the 5th".
		if day == 0 && j+1 < len(words) && monthDayArticles[words[j]] {
			if _, ok := dayNumber(words[j+1]); ok {
				j++
			}
		}
		if day == 0 && j < len(words) {
			if dd, ok := dayNumber(words[j]); ok {
				day = dd
				written += " " + words[j]
				j++
			}
		}
		if day == 0 {
			continue
		}
		// An optional year: "2027", "of 2027", "de 2027".
		if j < len(words) && monthLinks[words[j]] && j+1 < len(words) && isYear(words[j+1]) {
			j++
		}
		if j < len(words) && isYear(words[j]) {
			year, _ = strconv.Atoi(words[j])
			written += " " + words[j]
		}
		if year == 0 {
			year = nextYear(getToday(), m, day)
		}
		d.add(year, m, day, written)
	}
	found := len(d.found)
	for _, t := range alone {
		if !slices.ContainsFunc(d.found[:found], func(f string) bool {
			at, err := time.Parse("2006-01-02", f)
			return err == nil && at.Weekday() == t.Weekday()
		}) {
			d.add(t.Year(), t.Month(), t.Day(), t.Format("2006-01-02"))
		}
	}
	switch {
	case d.ambiguous != "":
		return nil, errorf(ErrDateOrder, "%q could be day/month/year or month/day/year: please write the month in words, such as 5 March 2027", quoted(d.ambiguous))
	case len(d.found) == 1:
		return d.found[0], nil
	case len(d.found) > 1:
		return nil, errorf(ErrAmbiguous, "%q contains more than one date", quoted(s))
	case d.invalid != "":
		return nil, errorf(ErrInvalid, "%q is not a valid date", quoted(d.invalid))
	}
	// Most messages hold no date: their error is made without fmt (as
	// %q writes it).
	return nil, &Error{Msg: strconv.Quote(quoted(s)) + " is not a date", Err: ErrNoValue}
}

// dayNumber reads a day of the month: "5", "05", "5th", "1st", "22nd",
// "3rd", and the Spanish ordinal "1º".
func dayNumber(w string) (int, bool) {
	for _, suf := range ordinalSuffixes {
		if strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) < 1 || len(w) > 2 || !isDigit(w[0]) || !isDigit(w[len(w)-1]) {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1 || n > 31 {
		return 0, false
	}
	return n, true
}

func isYear(w string) bool {
	if len(w) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return true
}

// nextYear returns the year of the next month/day on or after today. A
// day that exists in no year within eight (31 April) keeps today's year,
// so the date is reported as invalid.
func nextYear(today time.Time, m time.Month, day int) int {
	for y := today.Year(); y < today.Year()+8; y++ {
		if !validDate(y, m, day) {
			continue
		}
		if !time.Date(y, m, day, 0, 0, 0, 0, time.UTC).Before(today) {
			return y
		}
	}
	return today.Year()
}
