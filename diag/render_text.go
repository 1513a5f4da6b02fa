package diag

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TextOptions configures WriteText.
type TextOptions struct {
	// Color adds ANSI colours: a bold position, a red "error" and a yellow
	// "warning". The caller decides (soni colours only when stdout is a
	// terminal and NO_COLOR is unset); the renderer never looks at the
	// environment.
	Color bool
}

// ANSI escape sequences used when TextOptions.Color is set.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
)

// WriteText writes l in the human format. Each diagnostic starts with the
// line Diagnostic.String prints (file:line:col: severity: message [code]).
// When src holds the file and the line exists, the source line follows
// behind a line-number gutter, with a caret under the column on the next
// line (the suggestion is part of the header). A blank line ends
// each diagnostic, and a summary line ("2 errors, 1 warning", or "no
// problems found") ends the output. src may be nil.
func WriteText(w io.Writer, l List, src Sources, opts TextOptions) error {
	var b strings.Builder
	for _, d := range l {
		writeTextDiagnostic(&b, d, src, opts)
		b.WriteByte('\n')
	}
	b.WriteString(Summary(l))
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary returns the summary line of l without a newline: "no problems
// found" when l is empty, otherwise "N errors, M warnings" with singular
// forms for one.
func Summary(l List) string {
	if len(l) == 0 {
		return "no problems found"
	}
	errs, warns := l.Count()
	return plural(errs, "error") + ", " + plural(warns, "warning")
}

// plural returns "1 error" or "N errors".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// writeTextDiagnostic writes one diagnostic: header and snippet.
func writeTextDiagnostic(b *strings.Builder, d Diagnostic, src Sources, opts TextOptions) {
	sevColor := ansiRed
	if d.Severity == Warning {
		sevColor = ansiYellow
	}
	paint := func(color, s string) string {
		if !opts.Color {
			return s
		}
		return color + s + ansiReset
	}

	// The header is Diagnostic.String, with the position and severity
	// painted when colour is on.
	header := d.String()
	if opts.Color {
		prefix := ""
		if pos := d.Pos.String(); pos != "" {
			prefix = pos + ": "
			b.WriteString(paint(ansiBold, pos+":") + " ")
		}
		sev := d.Severity.String()
		b.WriteString(paint(sevColor, sev))
		header = strings.TrimPrefix(header, prefix+sev)
	}
	b.WriteString(header)
	b.WriteByte('\n')

	if line, ok := snippetLine(d.Pos, src); ok {
		num := strconv.Itoa(d.Pos.Line)
		gutter := strings.Repeat(" ", len(num)) + " |"
		text := displayLine(line)
		if text == "" {
			fmt.Fprintf(b, "%s |\n", num)
		} else {
			fmt.Fprintf(b, "%s | %s\n", num, text)
		}
		if d.Pos.Col > 0 {
			fmt.Fprintf(b, "%s %s%s\n", gutter, caretPrefix(text, d.Pos.Col), paint(sevColor, "^"))
		}
	}
}

// snippetLine returns the source line a position points at, when the
// source is available and the line exists.
func snippetLine(p Pos, src Sources) (string, bool) {
	if src == nil || p.File == "" || !p.IsValid() {
		return "", false
	}
	return sourceLine(src.Source(p.File), p.Line)
}
