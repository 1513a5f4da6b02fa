package syntax

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/soni-dev/soni/internal/yamlpos"
)

// EncodeTests writes a test file.
//
// A file DecodeTests read is written as it was, byte for byte (comments,
// key order, quoting, line ends), with only what the model changed
// rewritten: a step whose Text changed gets the new text in its own
// quoting style when the text allows it, else double quotes; a step
// removed from a case's Steps loses its lines; a step added (a bot,
// user or other one-value step) is written after the step before it,
// indented like it, in the quoting style of the case's first bot step. A
// case whose changes cannot be written that way (steps in a flow list
// [...], a value with a tag, a multi-line value inside {...}) is left as
// it was, and the error, a *CaseError for each, says why; the other
// cases are still written.
//
// A file built in code is written whole: the comments, flows, now,
// stubs and cases in the layout of docs/testing.md.
func EncodeTests(f *TestFile) ([]byte, error) {
	if f.src == nil {
		return encodeNew(f), nil
	}
	return encodeEdits(f)
}

// CaseError is a case EncodeTests left as it was, and why.
type CaseError struct {
	Case *TestCase
	// Step is the step that could not be written (for a new step, the
	// one it follows).
	Step *TestStep
	Err  error
}

func (e *CaseError) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *CaseError) Unwrap() error { return e.Err }

// srcEdit replaces text[start:end] with text.
type srcEdit struct {
	start, end int
	text       string
}

// editor collects the edits of one decoded file.
type editor struct {
	bom   bool
	text  []byte
	lines []int // byte offset of the start of each line
	nl    string
	edits []srcEdit
}

func newEditor(src []byte) *editor {
	u := &editor{text: src, nl: "\n"}
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

// encodeEdits writes a decoded file with the model's changes.
func encodeEdits(f *TestFile) ([]byte, error) {
	u := newEditor(f.src)
	var problems []error
	for _, c := range f.Cases {
		kept := len(u.edits)
		if err := u.testCase(c); err != nil {
			// A case is written whole or not at all.
			u.edits = u.edits[:kept]
			problems = append(problems, err)
		}
	}
	return u.apply(), errors.Join(problems...)
}

// testCase adds the edits of one case.
func (u *editor) testCase(c *TestCase) error {
	in := map[*TestStep]bool{}
	for _, st := range c.Steps {
		in[st] = true
	}
	fail := func(st *TestStep, format string, args ...any) error {
		return &CaseError{Case: c, Step: st, Err: fmt.Errorf(format, args...)}
	}
	flowList := func(st *TestStep) error {
		return fail(st, "its steps are a flow-style list ([...]), which --update does not rewrite")
	}
	if c.FlowStyle {
		if st := c.firstChange(in); st != nil {
			return flowList(st)
		}
		return nil
	}
	// Removed steps.
	for _, st := range c.orig {
		if in[st] {
			continue
		}
		if c.FlowStyle || !st.entry.IsValid() {
			return flowList(st)
		}
		end := u.entryEnd(st.entry.Line, st.entry.Col)
		u.edits = append(u.edits, srcEdit{start: u.lineStart(st.entry.Line), end: u.lineStart(end + 1), text: ""})
	}
	// Changed and added steps, in order.
	var anchor *TestStep
	var added []*TestStep
	flush := func() error {
		if len(added) == 0 {
			return nil
		}
		defer func() { added = nil }()
		if anchor == nil {
			return fail(added[0], "a new step needs a step of the case before it")
		}
		if c.FlowStyle || !anchor.entry.IsValid() {
			return flowList(anchor)
		}
		prefix := u.lineText(anchor.entry.Line)
		if anchor.entry.Col-1 > len(prefix) || strings.TrimLeft(prefix[:anchor.entry.Col-1], " ") != "" {
			return fail(anchor, "cannot tell the indentation of its steps")
		}
		indent := prefix[:anchor.entry.Col-1]
		style := caseStyle(c)
		var b strings.Builder
		at := u.lineStart(u.entryEnd(anchor.entry.Line, anchor.entry.Col) + 1)
		if at == len(u.text) && len(u.text) > 0 && u.text[len(u.text)-1] != '\n' {
			b.WriteString(u.nl)
		}
		for _, st := range added {
			if !st.oneValue() {
				return fail(st, "a new %s step cannot be written into a file: only steps with one value can", st.Kind)
			}
			b.WriteString(indent + "- " + st.Kind + ": " + quoteYAML(st.Text, style, false) + u.nl)
		}
		u.edits = append(u.edits, srcEdit{start: at, end: at, text: b.String()})
		return nil
	}
	for _, st := range c.Steps {
		if st.value == nil {
			added = append(added, st)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		anchor = st
		if st.Text == st.value.Text || !st.oneValue() {
			continue
		}
		if c.FlowStyle {
			return flowList(st)
		}
		e, err := u.replace(st, st.Text)
		if err != nil {
			return fail(st, "%w", err)
		}
		u.edits = append(u.edits, e)
	}
	return flush()
}

// firstChange is the first decoded step of the case, in file order, that
// was removed or changed or that a new step follows; nil when the case
// did not change.
func (c *TestCase) firstChange(in map[*TestStep]bool) *TestStep {
	follows := map[*TestStep]bool{}
	var prev *TestStep
	for _, st := range c.Steps {
		if st.value == nil {
			follows[prev] = true
			continue
		}
		prev = st
	}
	if follows[nil] && len(c.orig) > 0 {
		return c.orig[0]
	}
	for _, st := range c.orig {
		if !in[st] || follows[st] || st.Text != st.value.Text {
			return st
		}
	}
	return nil
}

// oneValue reports whether a step's value is its Text.
func (st *TestStep) oneValue() bool {
	return st.Kind != "slot_was_set" && st.Kind != "slot_was_not_set" && len(st.Commands) == 0 && len(st.Assertions) == 0
}

// caseStyle is the quoting style of the case's first decoded bot step,
// for new steps; plain when it has none.
func caseStyle(c *TestCase) string {
	for _, st := range c.orig {
		if st.Kind == "bot" {
			return st.value.Quote
		}
	}
	return StylePlain
}

// lineStart returns the offset of a 1-based line; past the last line it
// is the end of the text.
func (u *editor) lineStart(line int) int {
	if line-1 < len(u.lines) {
		return u.lines[line-1]
	}
	return len(u.text)
}

// lineText returns a line without its terminator.
func (u *editor) lineText(line int) string {
	start := u.lineStart(line)
	end := bytes.IndexByte(u.text[start:], '\n')
	if end < 0 {
		end = len(u.text) - start
	}
	return strings.TrimSuffix(string(u.text[start:start+end]), "\r")
}

// offset converts a 1-based line and rune column to a byte offset.
func (u *editor) offset(line, col int) int {
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
func (u *editor) entryEnd(line, col int) int {
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

// replace returns the edit that replaces a step's value with text.
func (u *editor) replace(st *TestStep, text string) (srcEdit, error) {
	v := st.value
	switch v.form {
	case StyleDouble, StyleSingle, StylePlain:
		start := u.offset(int(v.line), int(v.col))
		switch v.form {
		case StyleDouble:
			return srcEdit{start, scanDouble(u.text, start), quoteYAML(text, StyleDouble, st.inFlow)}, nil
		case StyleSingle:
			return srcEdit{start, scanSingle(u.text, start), quoteYAML(text, StyleSingle, st.inFlow)}, nil
		}
		end := scanPlain(u.text, start, st.inFlow)
		if string(u.text[start:end]) != v.Text {
			// A plain scalar folded over several lines: replace it up to
			// the end of the entry.
			if st.inFlow || !st.entry.IsValid() {
				return srcEdit{}, fmt.Errorf("the %s step at line %d spans several lines inside {...}; rewrite it by hand", st.Kind, st.Pos.Line)
			}
			last := u.entryEnd(st.entry.Line, st.entry.Col)
			return srcEdit{start, u.offset(last, utf8.RuneCountInString(u.lineText(last))+1), quoteYAML(text, StyleDouble, false)}, nil
		}
		return srcEdit{start, end, quoteYAML(text, StylePlain, st.inFlow)}, nil
	case StyleBlock:
		if st.inFlow || !st.entry.IsValid() {
			break
		}
		start := u.offset(int(v.line), int(v.col))
		last := u.entryEnd(st.entry.Line, st.entry.Col)
		return srcEdit{start, u.offset(last, utf8.RuneCountInString(u.lineText(last))+1), quoteYAML(text, StyleDouble, false)}, nil
	}
	return srcEdit{}, fmt.Errorf("cannot rewrite the %s step at line %d: its value is not a plain or quoted string", st.Kind, st.Pos.Line)
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

// apply applies the edits, last first, and returns the new file.
func (u *editor) apply() []byte {
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

// quoteYAML renders s as a YAML scalar in the given style when s can be
// written that way and read back unchanged, else double-quoted. flow says
// the scalar is inside {...} or [...].
func quoteYAML(s, style string, flow bool) string {
	switch style {
	case StylePlain:
		if plainSafe(s, flow) {
			return s
		}
	case StyleSingle:
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

// NewData builds the Data of a Go value (nil, string, bool, int, int64,
// float64, json.Number, []any, map[string]any), for
// a file built in code; a mapping's keys are sorted. flow asks for lists
// and mappings written on one line ({...}, [...]).
func NewData(v any, flow bool) *Data {
	switch x := v.(type) {
	case nil:
		return &Data{Kind: DataNull}
	case string:
		return &Data{Kind: DataString, Text: x, plainString: true}
	case bool:
		return &Data{Kind: DataBool, Text: strconv.FormatBool(x), Scalar: x}
	case int:
		return &Data{Kind: DataNumber, Text: strconv.Itoa(x), Scalar: int64(x)}
	case int64:
		return &Data{Kind: DataNumber, Text: strconv.FormatInt(x, 10), Scalar: x}
	case float64:
		return &Data{Kind: DataNumber, Text: strconv.FormatFloat(x, 'f', -1, 64), Scalar: x}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return NewData(i, flow)
		}
		f, _ := x.Float64()
		return &Data{Kind: DataNumber, Text: x.String(), Scalar: f}
	case []any:
		d := &Data{Kind: DataList, Flow: flow, Items: []*Data{}}
		for _, it := range x {
			d.Items = append(d.Items, NewData(it, flow))
		}
		return d
	case map[string]any:
		d := &Data{Kind: DataMap, Flow: flow, Entries: []DataEntry{}}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			d.Entries = append(d.Entries, DataEntry{Key: k, Value: NewData(x[k], flow)})
		}
		return d
	}
	s := fmt.Sprint(v)
	return &Data{Kind: DataString, Text: s, plainString: true}
}

// encodeNew writes a file built in code, through the writer tree and
// Emit: flows, now, fixtures, metadata, services, stub_custom_actions,
// stub_validators and test_cases, each when it has something.
func encodeNew(f *TestFile) []byte {
	m := &Map{}
	if f.HasFlows || f.Flows != "" {
		m.Add("flows", f.Flows)
	}
	if f.Now != "" {
		m.Add("now", f.Now)
	}
	if len(f.Fixtures) > 0 {
		fixtures := &Seq{}
		for _, fx := range f.Fixtures {
			slots := &Seq{Tail: fx.Tail}
			for _, sv := range fx.Slots {
				slots.Add(slotValue(sv))
			}
			e := MapEntry{Key: fx.Name, Value: slots}
			if len(fx.Slots) == 0 {
				// The comments of a fixture with no slot left go before it.
				e.Value, e.Comments = &Seq{}, fx.Tail
			}
			fixtures.Add(&Map{Entries: []MapEntry{e}})
		}
		m.Add("fixtures", fixtures)
	}
	if len(f.Metadata) > 0 {
		md := &Seq{}
		for _, d := range f.Metadata {
			md.Add(&Map{Entries: []MapEntry{{Key: d.Name, Value: writerValue(d.Value)}}})
		}
		m.Add("metadata", md)
	}
	if len(f.Services) > 0 {
		svs := &Map{}
		for _, sv := range f.Services {
			cmd := &Seq{Flow: true}
			for _, a := range sv.Command {
				cmd.Add(a)
			}
			svs.Add(sv.Env, cmd)
		}
		m.Add("services", svs)
	}
	if len(f.Stubs) > 0 {
		stubs := &Map{}
		for _, st := range f.Stubs {
			v := &Map{}
			if st.Fails {
				v.Add("error", st.Error)
			} else {
				out := st.Outputs
				if out == nil {
					out = &Data{Kind: DataMap, Flow: true}
				}
				v.Add("outputs", writerValue(out))
			}
			if len(v.Entries) > 0 {
				v.Entries[0].Comments = st.Comments
			}
			if st.Responses != nil {
				v.Add("responses", writerValue(st.Responses))
			}
			stubs.Add(stubKeyOf(st.Case, st.Action), v)
		}
		m.Add("stub_custom_actions", stubs)
	}
	if len(f.ValidatorStubs) > 0 {
		vs := &Map{}
		for _, st := range f.ValidatorStubs {
			v := &Map{}
			if st.Fails {
				v.Add("error", st.Error)
			} else {
				v.Add("valid", st.Valid)
			}
			if st.HasValue {
				v.Add("value", writerValue(NewData(st.Value, true)))
			}
			if st.HasMessage {
				v.Add("message", st.Message)
			}
			vs.Add(stubKeyOf(st.Case, st.Validator), v)
		}
		m.Add("stub_validators", vs)
	}
	cases := &Seq{}
	for _, c := range f.Cases {
		cases.Add(caseValue(c), c.Comments...)
	}
	m.Add("test_cases", cases).Comments = f.CasesComments
	return Emit(m, f.Comments)
}

// stubKeyOf is a stub's key: ACTION or CASE::ACTION.
func stubKeyOf(c, name string) string {
	if c == "" {
		return name
	}
	return c + "::" + name
}

// writerValue is d in the writer tree.
func writerValue(d *Data) any {
	switch {
	case d == nil || d.Kind == DataNull:
		return nil
	case d.Kind == DataString:
		return d.Text
	case d.Kind == DataNumber || d.Kind == DataBool:
		return Raw(d.Text)
	case d.Kind == DataList:
		s := &Seq{Flow: d.Flow}
		for _, it := range d.Items {
			s.Add(writerValue(it), it.Comments...)
		}
		return s
	case d.Kind == DataMap:
		m := &Map{Flow: d.Flow}
		for _, e := range d.Entries {
			m.Add(e.Key, writerValue(e.Value)).Comments = e.Comments
		}
		return m
	}
	return nil
}

// caseValue is a built case in the writer tree.
func caseValue(c *TestCase) *Map {
	m := &Map{}
	m.Add("test_case", c.Name)
	if len(c.Fixtures) > 0 {
		fx := &Seq{}
		for _, r := range c.Fixtures {
			fx.Add(r.Name)
		}
		m.Add("fixtures", fx)
	}
	if c.Metadata.Name != "" {
		m.Add("metadata", c.Metadata.Name)
	}
	if c.Skipped {
		m.Add("skip", c.Skip)
	}
	steps := &Seq{Tail: c.Tail}
	for _, st := range c.Steps {
		steps.Add(stepValue(st), st.Comments...)
	}
	m.Add("steps", steps)
	return m
}

// stepValue is a built step in the writer tree.
func stepValue(st *TestStep) *Map {
	m := &Map{}
	switch st.Kind {
	case "slot_was_set", "slot_was_not_set":
		l := &Seq{}
		for _, sv := range st.Slots {
			l.Add(slotValue(sv))
		}
		m.Add(st.Kind, l)
	default:
		m.Add(st.Kind, st.Text)
	}
	if st.HasCommands {
		cmds := &Seq{Flow: true}
		for _, c := range st.Commands {
			if c.Arg == nil {
				cmds.Add(c.Kind)
				continue
			}
			cmds.Add(&Map{Flow: true, Entries: []MapEntry{{Key: c.Kind, Value: writerValue(c.Arg)}}})
		}
		m.Add("commands", cmds)
	}
	if st.Metadata.Name != "" {
		m.Add("metadata", st.Metadata.Name)
	}
	if st.HasOrdered {
		m.Add("assertion_order_enabled", st.Ordered)
	}
	if len(st.Assertions) > 0 || len(st.AssertionsTail) > 0 {
		as := &Seq{Tail: st.AssertionsTail}
		for _, a := range st.Assertions {
			as.Add(assertionValue(a), a.Comments...)
		}
		m.Add("assertions", as)
	}
	return m
}

// slotValue is a slot check or preset: NAME, or {NAME: VALUE}.
func slotValue(sv SlotValue) any {
	if !sv.HasValue {
		return sv.Slot
	}
	return &Map{Entries: []MapEntry{{Key: sv.Slot, Value: writerValue(NewData(sv.Value, false))}}}
}

// assertionValue is a built assertion in the writer tree, in Rasa's
// format.
func assertionValue(a *Assertion) *Map {
	var v any
	switch a.Kind {
	case "flow_started", "flow_completed", "flow_cancelled":
		v = a.Text
		if a.StepID != "" {
			v = &Map{Entries: []MapEntry{{Key: "flow_id", Value: a.Text}, {Key: "flow_step_id", Value: a.StepID}}}
		}
	case "slot_was_set", "slot_was_not_set":
		l := &Seq{}
		for _, sv := range a.Slots {
			e := &Map{}
			e.Add("name", sv.Slot)
			if sv.HasValue {
				e.Add("value", writerValue(NewData(sv.Value, false)))
			}
			l.Add(e)
		}
		v = l
	case "pattern_clarification_contains":
		l := &Seq{}
		for _, n := range a.Names {
			l.Add(n)
		}
		v = l
	case "bot_uttered", "bot_did_not_utter":
		m := &Map{}
		if a.Response != "" {
			m.Add("utter_name", a.Response)
		}
		if a.HasTextMatches {
			m.Add("text_matches", a.TextMatches)
		}
		if a.HasButtons {
			bs := &Seq{}
			for _, b := range a.Buttons {
				bs.Add(&Map{Entries: []MapEntry{{Key: "title", Value: b.Title}, {Key: "payload", Value: b.Payload}}})
			}
			m.Add("buttons", bs)
		}
		v = m
	default:
		v = a.Text
	}
	return &Map{Entries: []MapEntry{{Key: a.Kind, Value: v}}}
}
