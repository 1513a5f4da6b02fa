package values

import "unicode/utf8"

// numericDates returns the numeric dates in s as regexp's
// FindAllStringSubmatchIndex gives the matches of
//
//	(?:^|[^0-9])([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})(?:$|[^0-9])          (iso)
//	(?:^|[^0-9])([0-9]{1,2})[-/.]([0-9]{1,2})[-/.]([0-9]{4})(?:$|[^0-9])          (day or month first)
//
// found by hand: the regular expressions took a tenth of reading a date
// answer. Each group is a whole run of digits (a longer run matches
// none), and a match takes the character before its first group unless it
// starts the text, and the one after its last unless it ends it.
// TestNumericDatesAreThePatterns holds it to the patterns.
func numericDates(s string, iso bool) [][]int {
	var out [][]int
	for i := 0; i < len(s); {
		if i == 0 {
			if m := numericDateAt(s, 0, 0, iso); m != nil {
				out = append(out, m)
				i = m[1]
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < '0' || r > '9' {
			if m := numericDateAt(s, i, i+size, iso); m != nil {
				out = append(out, m)
				i = m[1]
				continue
			}
		}
		i += size
	}
	return out
}

// numericDateAt matches a date whose match starts at start and whose first
// group starts at g, or returns nil.
func numericDateAt(s string, start, g int, iso bool) []int {
	first, last := 1, 4 // the widths of the first group and of the last
	if iso {
		first, last = 4, 1
	}
	e1, ok := digitGroup(s, g, first, true)
	if !ok {
		return nil
	}
	e2, ok := digitGroup(s, e1+1, 1, true)
	if !ok {
		return nil
	}
	e3, ok := digitGroup(s, e2+1, last, false)
	if !ok {
		return nil
	}
	end := e3
	if e3 < len(s) {
		_, size := utf8.DecodeRuneInString(s[e3:])
		end += size
	}
	return []int{start, end, g, e1, e1 + 1, e2, e2 + 1, e3}
}

// digitGroup matches a whole run of digits at i, of exactly 4 digits when
// width is 4 and of 1 or 2 when it is 1, followed by a separator when sep
// is set; it returns where the run ends.
func digitGroup(s string, i, width int, sep bool) (int, bool) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	n := j - i
	if width == 4 && n != 4 || width == 1 && (n < 1 || n > 2) {
		return 0, false
	}
	if sep && (j == len(s) || !isDateSeparator(s[j])) {
		return 0, false
	}
	return j, true
}

func isDateSeparator(c byte) bool { return c == '-' || c == '/' || c == '.' }
