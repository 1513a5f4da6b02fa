package understand

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWithinOneIsEditDistance checks withinOne against editDistance on
// every pair of words of up to five letters over three letters.
func TestWithinOneIsEditDistance(t *testing.T) {
	t.Parallel()
	words := []string{""}
	for n, level := 0, []string{""}; n < 5; n++ {
		var next []string
		for _, w := range level {
			for _, c := range "abc" {
				next = append(next, w+string(c))
			}
		}
		words = append(words, next...)
		level = next
	}
	for _, a := range words {
		for _, b := range words {
			require.Equal(t, editDistance(a, b, 1) <= 1, withinOne(a, b), "%q %q", a, b)
		}
	}
}

// TestTypoIndexIsTheScan checks the typo index against reading every known
// spelling, as typo correction did before it, on a lexicon's words and
// misspellings of them.
func TestTypoIndexIsTheScan(t *testing.T) {
	t.Parallel()
	r := New(testProgram())
	known := r.mean.known
	scan := func(w string) (string, bool) {
		if len(w) < 4 {
			return "", false
		}
		found := ""
		for spelling, c := range known {
			longer := max(len(w), len(spelling))
			if longer < 5 || abs(len(w)-len(spelling)) > 2 || (spelling[0] != w[0] && spelling[len(spelling)-1] != w[len(w)-1]) {
				continue
			}
			limit := 1
			if longer >= 8 {
				limit = 2
			}
			if editDistance(w, spelling, limit) <= limit {
				if found != "" && found != c {
					return "", false
				}
				found = c
			}
		}
		return found, found != ""
	}
	var probes []string
	for w := range known {
		probes = append(probes, w, w[1:], w+"s", w[:len(w)-1], "x"+w)
		if len(w) > 2 {
			probes = append(probes, w[:1]+w[2:], w[:1]+"q"+w[2:], w[1:2]+w[:1]+w[2:], w[:len(w)-2]+w[len(w)-1:]+w[len(w)-2:len(w)-1])
		}
	}
	probes = append(probes, "madrid", "lisbon", "flihgt", "transfre", "blaance", "")
	for _, w := range probes {
		gotC, gotOK := r.mean.typos.typoFix(w)
		wantC, wantOK := scan(w)
		require.Equal(t, wantOK, gotOK, "%q", w)
		require.Equal(t, wantC, gotC, "%q", w)
	}
}
