package convtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/soni-dev/soni/internal/yamlpos"
)

// Update rewrites, in place, the bot steps of every turn whose replies
// differ from the expected ones, so that the file expects what the flows
// now say. Everything else in the file stays byte for byte as it was:
// comments, key order, quoting, other steps. A bot step whose text
// differs gets the actual reply (in its own quoting style when the text
// allows it, else double quotes); a turn with more replies gets new bot
// steps after its last reply step, indented like it; a turn with fewer
// replies loses its surplus bot steps. bot_matches steps are never
// touched, nor is a turn that lists no reply step (its replies are not
// checked). It returns the files it changed, in order.
//
// A case it cannot rewrite (steps written as a flow list [...], a bot
// step whose value is not a string it can edit) is left as it is, and so
// is a file whose update would not parse or cannot be written; the other
// cases and files are still updated, and the error says what was left
// alone and why, one line each.
func Update(r *Report) ([]string, error) {
	var changed []string
	var problems []error
	for _, fr := range r.Files {
		if fr.target == nil {
			continue
		}
		f := fr.target.File
		u := newUpdater(f.Src)
		for _, c := range fr.Cases {
			kept := len(u.edits)
			for i, replies := range c.replies {
				if i >= len(c.c.Turns) {
					break
				}
				if err := u.turn(c.c, c.c.Turns[i], replies); err != nil {
					// Drop this case's edits: a case is updated whole or
					// not at all.
					u.edits = u.edits[:kept]
					problems = append(problems, fmt.Errorf("%s: test case %q was left as it is: %w", lineOf(c.Pos), c.Name, err))
					break
				}
			}
		}
		if len(u.edits) == 0 {
			continue
		}
		out := u.apply()
		if _, ds := ParseFile(f.Path, out); ds.HasErrors() {
			problems = append(problems, fmt.Errorf("%s: the updated file would not parse (%s); it was left unchanged", f.Path, ds[0].Message))
			continue
		}
		mode := os.FileMode(0o644)
		if info, err := os.Stat(f.Path); err == nil {
			mode = info.Mode().Perm()
		}
		if err := os.WriteFile(f.Path, out, mode); err != nil {
			problems = append(problems, fmt.Errorf("cannot write %q: %s", f.Path, errText(err)))
			continue
		}
		changed = append(changed, f.Path)
	}
	return changed, errors.Join(problems...)
}

// srcEdit replaces text[start:end] with text.
type srcEdit struct {
	start, end int
	text       string
}

// updater collects the edits of one file.
type updater struct {
	bom   bool
	text  []byte
	lines []int // byte offset of the start of each line
	nl    string
	edits []srcEdit
}

func newUpdater(src []byte) *updater {
	u := &updater{text: src, nl: "\n"}
	if b, ok := bytes.CutPrefix(src, []byte("\xef\xbb\xbf")); ok {
		u.bom, u.text = true, b
	}
	if bytes.Contains(u.text, []byte("\r\n")) {
		u.nl = "\r\n"
	}
	u.lines = []int{0}
	for i, c := range u.text {
		if c == '\n' && i+1 < len(u.text) {
			u.lines = append(u.lines, i+1)
		}
	}
	return u
}

// lineStart returns the offset of a 1-based line; past the last line it
// is the end of the text.
func (u *updater) lineStart(line int) int {
	if line-1 < len(u.lines) {
		return u.lines[line-1]
	}
	return len(u.text)
}

// lineText returns a line without its terminator.
func (u *updater) lineText(line int) string {
	start := u.lineStart(line)
	end := bytes.IndexByte(u.text[start:], '\n')
	if end < 0 {
		end = len(u.text) - start
	}
	return strings.TrimSuffix(string(u.text[start:start+end]), "\r")
}

// offset converts a 1-based line and rune column to a byte offset.
func (u *updater) offset(line, col int) int {
	off := u.lineStart(line)
	for i := 1; i < col && off < len(u.text) && u.text[off] != '\n'; i++ {
		_, n := utf8.DecodeRune(u.text[off:])
		off += n
	}
	return off
}

// entryEnd returns the last line of a block list entry that starts at a
// '-' on line at column col: the lines after it that are indented deeper
// than the '-' belong to it.
func (u *updater) entryEnd(line, col int) int {
	end := line
	for l := line + 1; l <= len(u.lines); l++ {
		s := u.lineText(l)
		t := strings.TrimLeft(s, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(s)-len(t) > col-1 {
			end = l
			continue
		}
		break
	}
	return end
}

// turn adds the edits that make one turn's reply steps match replies.
func (u *updater) turn(c *Case, t *Turn, replies []string) error {
	var steps []*Step
	for _, st := range t.Checks {
		if isReplyStep(st.Kind) {
			steps = append(steps, st)
		}
	}
	if len(steps) == 0 {
		// A turn that lists no reply does not check its replies, so it
		// never fails on them and --update leaves it alone.
		return nil
	}
	same := len(steps) == len(replies)
	for i := 0; same && i < len(steps); i++ {
		if steps[i].Kind == StepBot && steps[i].Text != replies[i] {
			same = false
		}
	}
	if same {
		return nil
	}
	if c.flowStyle || !t.User.entry.IsValid() {
		return fmt.Errorf("turn %d: its steps are a flow-style list ([...]), which --update does not rewrite", t.Index)
	}
	for i := 0; i < len(steps) && i < len(replies); i++ {
		if steps[i].Kind == StepBot && steps[i].Text != replies[i] {
			e, err := u.replace(steps[i], replies[i])
			if err != nil {
				return fmt.Errorf("turn %d: %w", t.Index, err)
			}
			u.edits = append(u.edits, e)
		}
	}
	for i := len(replies); i < len(steps); i++ {
		st := steps[i]
		if st.Kind != StepBot {
			continue
		}
		end := u.entryEnd(st.entry.Line, st.entry.Col)
		u.edits = append(u.edits, srcEdit{start: u.lineStart(st.entry.Line), end: u.lineStart(end + 1), text: ""})
	}
	if len(replies) > len(steps) {
		anchor := steps[len(steps)-1]
		prefix := u.lineText(anchor.entry.Line)
		if anchor.entry.Col-1 > len(prefix) || strings.TrimLeft(prefix[:anchor.entry.Col-1], " ") != "" {
			return fmt.Errorf("turn %d: cannot tell the indentation of its steps", t.Index)
		}
		indent := prefix[:anchor.entry.Col-1]
		style := caseStyle(c)
		var b strings.Builder
		at := u.lineStart(u.entryEnd(anchor.entry.Line, anchor.entry.Col) + 1)
		if at == len(u.text) && len(u.text) > 0 && u.text[len(u.text)-1] != '\n' {
			b.WriteString(u.nl)
		}
		for _, r := range replies[len(steps):] {
			b.WriteString(indent + "- bot: " + quoteYAML(r, style, false) + u.nl)
		}
		u.edits = append(u.edits, srcEdit{start: at, end: at, text: b.String()})
	}
	return nil
}

// The quoting styles of scalars.
const (
	stylePlain  = "plain"
	styleSingle = "single"
	styleDouble = "double"
)

// caseStyle is the quoting style of the case's first bot step, for new
// steps; plain when it has none.
func caseStyle(c *Case) string {
	for _, st := range c.Steps {
		if st.Kind == StepBot {
			return st.value.style
		}
	}
	return stylePlain
}

// replace returns the edit that replaces a bot step's value with text.
func (u *updater) replace(st *Step, text string) (srcEdit, error) {
	v := st.value
	switch v.form {
	case styleDouble, styleSingle, stylePlain:
		start := u.offset(v.line, v.col)
		switch v.form {
		case styleDouble:
			return srcEdit{start, scanDouble(u.text, start), quoteYAML(text, styleDouble, st.inFlow)}, nil
		case styleSingle:
			return srcEdit{start, scanSingle(u.text, start), quoteYAML(text, styleSingle, st.inFlow)}, nil
		}
		end := scanPlain(u.text, start, st.inFlow)
		if string(u.text[start:end]) != v.text {
			// A plain scalar folded over several lines: replace it up to
			// the end of the entry.
			if st.inFlow {
				return srcEdit{}, fmt.Errorf("the bot step at line %d spans several lines inside {...}; rewrite it by hand", st.Pos.Line)
			}
			last := u.entryEnd(st.entry.Line, st.entry.Col)
			return srcEdit{start, u.offset(last, utf8.RuneCountInString(u.lineText(last))+1), quoteYAML(text, styleDouble, false)}, nil
		}
		return srcEdit{start, end, quoteYAML(text, stylePlain, st.inFlow)}, nil
	case formLiteral:
		if st.inFlow || !st.entry.IsValid() {
			break
		}
		start := u.offset(v.line, v.col)
		last := u.entryEnd(st.entry.Line, st.entry.Col)
		return srcEdit{start, u.offset(last, utf8.RuneCountInString(u.lineText(last))+1), quoteYAML(text, styleDouble, false)}, nil
	}
	return srcEdit{}, fmt.Errorf("cannot rewrite the bot step at line %d: its value is not a plain or quoted string", st.Pos.Line)
}

// scanDouble returns the offset after the double-quoted scalar at start.
func scanDouble(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// scanSingle returns the offset after the single-quoted scalar at start.
func scanSingle(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		if b[i] == '\'' {
			if i+1 < len(b) && b[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(b)
}

// scanPlain returns the offset after a plain scalar's text on its first
// line: before a comment, trailing blanks and, inside {...}, the next
// ',' or '}'.
func scanPlain(b []byte, start int, flow bool) int {
	end := start
	for i := start; i < len(b); i++ {
		c := b[i]
		if c == '\n' || c == '\r' {
			break
		}
		if c == '#' && i > start && (b[i-1] == ' ' || b[i-1] == '\t') {
			break
		}
		if flow && (c == ',' || c == '}' || c == ']') {
			break
		}
		if c != ' ' && c != '\t' {
			end = i + 1
		}
	}
	return end
}

// quoteYAML renders s as a YAML scalar in the given style when s can be
// written that way and read back unchanged, else double-quoted.
func quoteYAML(s, style string, flow bool) string {
	switch style {
	case stylePlain:
		if plainSafe(s, flow) {
			return s
		}
	case styleSingle:
		if singleSafe(s) {
			return "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
	}
	return doubleQuote(s)
}

// plainSafe reports whether s reads back as the same string when written
// as a plain scalar.
func plainSafe(s string, flow bool) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "\"'") {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u0085' || r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			return false
		}
	}
	if flow && strings.ContainsAny(s, ",[]{}") {
		return false
	}
	doc := "k: " + s + "\n"
	if flow {
		doc = "{k: " + s + "}\n"
	}
	f, err := parser.ParseBytes([]byte(doc), 0)
	if err != nil || len(f.Docs) != 1 {
		return false
	}
	pairs, _ := yamlpos.Pairs(f.Docs[0].Body)
	if len(pairs) != 1 {
		return false
	}
	v, ok := pairs[0].Value.(*ast.StringNode)
	return ok && v.Value == s && v.Token != nil && v.Token.Type != token.DoubleQuoteType && v.Token.Type != token.SingleQuoteType
}

// singleSafe reports whether s can be single-quoted on one line.
func singleSafe(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u0085' || r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// doubleQuote renders s as a double-quoted YAML scalar.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case r == utf8.RuneError:
				b.WriteString(`\uFFFD`)
			case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\ufeff':
				if r <= 0xff {
					b.WriteString(`\x` + fmt.Sprintf("%02X", r))
				} else {
					b.WriteString(`\u` + fmt.Sprintf("%04X", r))
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// apply applies the edits, last first, and returns the new file.
func (u *updater) apply() []byte {
	edits := append([]srcEdit(nil), u.edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), u.text...)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	if u.bom {
		out = append([]byte("\xef\xbb\xbf"), out...)
	}
	return out
}
