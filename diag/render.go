package diag

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The renderers in this package turn an already sorted List into one of the
// output formats of `soni validate --format`:
//
//   - WriteText: the human format, with source snippets and a summary line;
//   - WriteJSON: an array of plain objects;
//   - WriteGitHub: GitHub Actions workflow commands (annotations);
//   - WriteSARIF: SARIF 2.1.0 for code-scanning upload.
//
// Every renderer is deterministic: the same list (and sources) always gives
// the same bytes. Renderers never sort; call List.Sort first.

// Sources gives renderers the bytes of the files that diagnostics point at.
// Source returns nil when the file's contents are not available, in which
// case the text renderer prints the diagnostic without a snippet.
type Sources interface {
	Source(file string) []byte
}

// SourceMap is a Sources backed by a map from file name (exactly as it
// appears in Pos.File) to contents.
type SourceMap map[string][]byte

// Source returns the contents of file, or nil when the map does not hold it.
func (m SourceMap) Source(file string) []byte { return m[file] }

// sourceLine returns line n (1-based) of src without its line terminator,
// and whether the line exists. A final line terminator does not start a new
// line: "a\nb\n" has two lines.
func sourceLine(src []byte, n int) (string, bool) {
	if n < 1 || len(src) == 0 {
		return "", false
	}
	rest := src
	for i := 1; ; i++ {
		j := bytes.IndexByte(rest, '\n')
		if i == n {
			if j >= 0 {
				rest = rest[:j]
			}
			return strings.TrimSuffix(string(rest), "\r"), true
		}
		if j < 0 || j == len(rest)-1 {
			return "", false
		}
		rest = rest[j+1:]
	}
}

// displayLine makes a source line safe to echo on a terminal: invalid UTF-8
// and control characters other than tab become U+FFFD, one replacement per
// rune, so rune columns still line up.
func displayLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r != '\t' && (r == utf8.RuneError || unicode.IsControl(r)) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

// caretPrefix returns the padding that puts a caret under rune column col
// (1-based) of line. Tabs are copied so the caret lines up whatever the
// tab width; wide (East Asian) runes take two cells and combining marks
// none. A column past the end of the line puts the caret just after it.
func caretPrefix(line string, col int) string {
	var b strings.Builder
	n := 1
	for _, r := range line {
		if n >= col {
			break
		}
		n++
		switch {
		case r == '\t':
			b.WriteByte('\t')
		case isZeroWidth(r):
		case isWide(r):
			b.WriteString("  ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// isZeroWidth reports whether r takes no cell of its own on a terminal.
func isZeroWidth(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me) || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\ufeff'
}

// isWide reports whether r takes two cells on a terminal: CJK ideographs,
// kana, hangul, fullwidth forms and the common emoji blocks.
func isWide(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r <= 0x115f, // hangul jamo initial consonants
		r >= 0x2e80 && r <= 0x303e,   // CJK radicals, kangxi, CJK symbols
		r >= 0x3041 && r <= 0x33ff,   // kana, bopomofo, CJK compatibility
		r >= 0x3400 && r <= 0x4dbf,   // CJK extension A
		r >= 0x4e00 && r <= 0x9fff,   // CJK unified ideographs
		r >= 0xa000 && r <= 0xa4cf,   // yi
		r >= 0xac00 && r <= 0xd7a3,   // hangul syllables
		r >= 0xf900 && r <= 0xfaff,   // CJK compatibility ideographs
		r >= 0xfe30 && r <= 0xfe4f,   // CJK compatibility forms
		r >= 0xff00 && r <= 0xff60,   // fullwidth forms
		r >= 0xffe0 && r <= 0xffe6,   // fullwidth signs
		r >= 0x1f300 && r <= 0x1f64f, // pictographs, emoticons
		r >= 0x1f900 && r <= 0x1f9ff, // supplemental pictographs
		r >= 0x20000 && r <= 0x3fffd: // CJK extensions B and later
		return true
	}
	return false
}

// messageWithSuggestion is the message as the machine formats show it: the
// suggestion, when there is one, follows in parentheses exactly as
// Diagnostic.String prints it.
func messageWithSuggestion(d Diagnostic) string {
	if d.Suggestion == "" {
		return d.Message
	}
	return d.Message + " (" + d.Suggestion + ")"
}
