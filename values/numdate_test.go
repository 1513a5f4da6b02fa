package values

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNumericDatesAreThePatterns holds numericDates to the regular
// expressions it replaces, on random strings of digits, separators,
// spaces, letters, multi-byte characters and invalid bytes.
func TestNumericDatesAreThePatterns(t *testing.T) {
	isoRE := regexp.MustCompile(`(?:^|[^0-9])([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})(?:$|[^0-9])`)
	dmyRE := regexp.MustCompile(`(?:^|[^0-9])([0-9]{1,2})[-/.]([0-9]{1,2})[-/.]([0-9]{4})(?:$|[^0-9])`)
	pieces := []string{"0", "1", "2", "3", "9", "20", "2027", "12", "-", "/", ".", " ", "a", "é", "年", "\xff", "2027-03-05", "05/03/2027", "5.3.2027"}
	r := rand.New(rand.NewPCG(5, 6))
	matched := 0
	for range 300000 {
		s := ""
		for range r.IntN(9) {
			s += pieces[r.IntN(len(pieces))]
		}
		require.Equal(t, isoRE.FindAllStringSubmatchIndex(s, -1), numericDates(s, true), "iso %q", s)
		require.Equal(t, dmyRE.FindAllStringSubmatchIndex(s, -1), numericDates(s, false), "dmy %q", s)
		if len(numericDates(s, true))+len(numericDates(s, false)) > 1 {
			matched++
		}
	}
	require.Greater(t, matched, 1000, "strings with two dates or more")
}
