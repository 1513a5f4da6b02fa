package convtest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// diffContext is how many unchanged lines surround each change.
const diffContext = 3

// edit is one line of an edit script: ' ' kept, '-' only in a, '+' only
// in b; ai and bi are the line's indexes in a and b.
type edit struct {
	op     byte
	text   string
	ai, bi int
}

// UnifiedDiff returns a unified diff of a against b (one reply per line),
// with the names in its --- and +++ header and three lines of context, or
// "" when they are equal. It uses a longest-common-subsequence edit
// script, deletions before insertions. A line holding a newline or another
// control character is shown as a quoted Go string, so that every reply
// stays on one line.
func UnifiedDiff(aName, bName string, a, b []string) string {
	if slicesEqual(a, b) {
		return ""
	}
	script := editScript(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", aName, bName)
	for i := 0; i < len(script); {
		// Find the next change.
		for i < len(script) && script[i].op == ' ' {
			i++
		}
		if i == len(script) {
			break
		}
		start := max(0, i-diffContext)
		end := i
		// Extend the hunk while changes are close enough to merge.
		for j := i; j < len(script); j++ {
			if script[j].op != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*diffContext {
				break
			}
		}
		end = min(len(script), end+diffContext)
		writeHunk(&sb, script[start:end], a, b)
		i = end
	}
	return sb.String()
}

// writeHunk writes one hunk with its @@ header.
func writeHunk(sb *strings.Builder, h []edit, a, b []string) {
	aStart, bStart := -1, -1
	aLen, bLen := 0, 0
	for _, e := range h {
		if e.op != '+' {
			if aStart < 0 {
				aStart = e.ai
			}
			aLen++
		}
		if e.op != '-' {
			if bStart < 0 {
				bStart = e.bi
			}
			bLen++
		}
	}
	if aStart < 0 {
		aStart = h[0].ai
	}
	if bStart < 0 {
		bStart = h[0].bi
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, e := range h {
		sb.WriteByte(e.op)
		sb.WriteString(diffLine(e.text))
		sb.WriteByte('\n')
	}
}

// hunkRange renders a 0-based start and a length as GNU diff does: the
// 1-based first line, ",len" unless it is 1, and the line before an
// empty range.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

// diffLine keeps a line on one line.
func diffLine(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' {
			return strconv.Quote(s)
		}
	}
	return s
}

// editScript returns the edit script of the longest common subsequence.
// Indexes of '+' lines in a, and '-' lines in b, are where they would be.
func editScript(a, b []string) []edit {
	n, m := len(a), len(b)
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []edit
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, edit{' ', a[i], i, j})
			i++
			j++
		case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, edit{'-', a[i], i, j})
			i++
		default:
			out = append(out, edit{'+', b[j], i, j})
			j++
		}
	}
	return out
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
