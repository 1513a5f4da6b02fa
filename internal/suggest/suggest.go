// Package suggest finds the likely intended name among candidates, for
// the "did you mean ...?" of every diagnostic, CLI error and test-file
// error soni prints.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Levenshtein returns the edit distance between a and b: the least number of
// single-rune insertions, deletions and substitutions that turn a into b.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the candidate closest to name, or "" when none is close
// enough to be a likely misspelling. A candidate is close when its edit
// distance from name (ignoring case) is at most 2, or at most a third of
// name's length, and smaller than name's length (so that a short name is not
// "corrected" into an unrelated word). Ties go to the lexically smallest
// candidate, so the result does not depend on the candidates' order.
func Closest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	lname := strings.ToLower(name)
	n := utf8.RuneCountInString(name)
	limit := max(2, n/3)
	best, bestD := "", -1
	for _, c := range candidates {
		if c == "" {
			continue
		}
		d := Levenshtein(lname, strings.ToLower(c))
		if d > limit || d >= n {
			continue
		}
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}
