package syntax

import (
	"bytes"
	"errors"
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/yamlpos"
)

// The diagnostic codes DecodeTests and [Problems] report: those of
// package convtest's catalogue, which describes them.
const (
	TestYAMLSyntax    = "T002"
	TestUnknownKey    = "T003"
	TestWrongType     = "T004"
	TestMissingField  = "T005"
	TestDuplicateName = "T014"
	TestUnsupported   = "T017"
)

// TestFile is a conversation test file (docs/testing.md): what soni test
// runs. Every part keeps the position where it was written. DecodeTests
// reads one; EncodeTests writes one, keeping the comments and layout of a
// decoded file.
type TestFile struct {
	// Name is the file's name as given to DecodeTests.
	Name string
	// Comments are written at the top of a file built in code, one line
	// each.
	Comments []string
	// Flows is the flows: key's value (the project, relative to the
	// file); HasFlows says the key is there, even with a value that is
	// not a string.
	Flows    string
	FlowsPos diag.Pos
	HasFlows bool
	// Now is the now: key's value as written ("" when absent).
	Now    string
	NowPos diag.Pos
	// Fixtures, Services, Stubs (stub_custom_actions), ValidatorStubs
	// (stub_validators) and Metadata are the file's sections, in the
	// order written.
	Fixtures       []*Fixture
	Services       []*Service
	Stubs          []*Stub
	ValidatorStubs []*ValidatorStub
	Metadata       []*MetadataDef
	Cases          []*TestCase
	// CasesComments are written on their own lines before the test_cases
	// key of a file built in code.
	CasesComments []string

	// src is the decoded file's bytes: EncodeTests keeps them where the
	// model did not change.
	src []byte
}

// Fixture is a named set of slot values applied before a case's first
// turn.
type Fixture struct {
	Name  string
	Pos   diag.Pos
	Slots []SlotValue
	// Tail are comments written after the slots of a fixture built in
	// code.
	Tail []string
}

// SlotValue is a slot name with an optional value, as slot_was_set,
// slot_was_not_set, fixtures and commands write it.
type SlotValue struct {
	Slot string
	// Value is the value as written in YAML; HasValue is false for a bare
	// slot name.
	Value    any
	HasValue bool
	Pos      diag.Pos
}

// Service is one entry of services: a command that serves the file's
// actions, and the environment variable that receives the URL it prints.
type Service struct {
	Env     string
	Command []string
	Pos     diag.Pos
}

// Stub is one entry of stub_custom_actions: what an action returns
// instead of running. Case is set for CASE::ACTION stubs.
type Stub struct {
	Case   string
	Action string
	Pos    diag.Pos
	// Outputs are the outputs the action returns (nil when not given).
	Outputs *Data
	// Error, when Fails, is the error the action fails with ("" written
	// as such).
	Error string
	Fails bool
	// Events and Responses are Rasa's stub: slot events and the messages
	// the action says, as a Rasa action server answers (nil when not
	// given).
	Events, Responses *Data
	// Comments are written on their own lines before the fields of a
	// stub built in code.
	Comments []string
}

// ValidatorStub is one entry of stub_validators: the verdict a validator
// gives instead of running, or the error it fails with.
type ValidatorStub struct {
	Case      string
	Validator string
	Pos       diag.Pos
	// Valid, Value (when HasValue) and Message (when HasMessage) are the
	// verdict; Error, when Fails, the failure.
	Valid      bool
	Value      any
	HasValue   bool
	Message    string
	HasMessage bool
	Error      string
	Fails      bool
}

// MetadataDef is one named metadata dictionary of the file (Rasa's
// top-level metadata), which cases and user steps name.
type MetadataDef struct {
	Name string
	Pos  diag.Pos
	// Value is the dictionary, a mapping in the order written.
	Value *Data
}

// NameRef is a name written in a test file, with its position.
type NameRef struct {
	Name string
	Pos  diag.Pos
}

// TestCase is one test case: a new conversation.
type TestCase struct {
	// Name is the test_case: value; Pos is its key's position.
	Name     string
	Pos      diag.Pos
	Fixtures []NameRef
	// Metadata names the file's metadata given with every turn (Name is
	// "" when none).
	Metadata NameRef
	// Skip, when Skipped, is the reason the case does not run.
	Skip    string
	Skipped bool
	Steps   []*TestStep
	// FlowStyle is true when the steps are a flow list ([...]).
	FlowStyle bool
	// Comments are written on their own lines before a case built in
	// code; Tail after its steps.
	Comments []string
	Tail     []string

	// orig are the decoded steps, in file order: EncodeTests rewrites
	// what differs from them.
	orig []*TestStep
}

// TestStep is one step of a test case: the key that makes it (Kind: user,
// bot, bot_matches, bot_response, utter, slot_was_set, slot_was_not_set,
// flow_started, flow_completed, flow_cancelled, action_executed) and its
// value.
type TestStep struct {
	Kind string
	// Pos is the position of the step's key.
	Pos diag.Pos
	// Text is the value of every kind but the slot checks: the message,
	// the reply, the pattern, the response, flow or action name. TextPos
	// is where the value is written.
	Text    string
	TextPos diag.Pos
	// Slots are the slot checks of slot_was_set and slot_was_not_set.
	Slots []SlotValue
	// Commands, when HasCommands, replace understanding for a user step.
	Commands    []*Command
	HasCommands bool
	// Assertions are a user step's Rasa assertions; Ordered is its
	// assertion_order_enabled.
	Assertions []*Assertion
	Ordered    bool
	// HasOrdered says assertion_order_enabled is written.
	HasOrdered bool
	// AssertionsTail are comments written after the assertions of a step
	// built in code.
	AssertionsTail []string
	// Metadata names the file's metadata given with a user step's turn.
	Metadata NameRef
	// Comments are written on their own lines before a step built in
	// code.
	Comments []string

	// value is the step's main value as written; entry the position of
	// its '-' in a block list; inFlow is true for a {kind: value} step.
	value  *Data
	entry  diag.Pos
	inFlow bool
}

// Command is one entry of a user step's commands: its kind and the value
// it was given, nil for a command written as a bare name.
type Command struct {
	Kind string
	Pos  diag.Pos
	Arg  *Data
}

// Assertion is one entry of a user step's assertions (Rasa's end-to-end
// format).
type Assertion struct {
	Kind string
	// Pos is the position of the assertion's key.
	Pos diag.Pos
	// Text is the flow of a flow assertion or the action of
	// action_executed; StepID, for {flow_id, flow_step_id}, the step.
	Text      string
	TextPos   diag.Pos
	StepID    string
	StepIDPos diag.Pos
	// Names are the flows pattern_clarification_contains expects.
	Names []string
	// Slots are the slots of slot_was_set and slot_was_not_set.
	Slots []SlotValue
	// TextMatches (when HasTextMatches), Response (utter_name) and
	// Buttons (when HasButtons) are what bot_uttered and
	// bot_did_not_utter look for.
	TextMatches    string
	TextMatchesPos diag.Pos
	HasTextMatches bool
	Response       string
	ResponsePos    diag.Pos
	Buttons        []TestButton
	HasButtons     bool
	// Comments are written on their own lines before an assertion built
	// in code.
	Comments []string
}

// TestButton is a button a bot_uttered assertion expects.
type TestButton struct {
	Title, Payload string
}

// The step kinds of test files.
var stepKinds = []string{"user", "bot", "bot_matches", "bot_response", "slot_was_set", "slot_was_not_set", "flow_started", "flow_completed", "flow_cancelled", "action_executed"}

// The keys allowed at each level of a test file.
var (
	fileKeys = []string{"flows", "fixtures", "metadata", "now", "services", "stub_custom_actions", "stub_validators", "test_cases"}
	caseKeys = []string{"test_case", "fixtures", "metadata", "skip", "steps"}
	stepKeys = append([]string{"commands", "assertions", "assertion_order_enabled", "metadata"}, stepKinds...)
)

// assertionKeys are the assertion kinds the format has.
var assertionKeys = []string{"action_executed", "bot_did_not_utter", "bot_uttered", "flow_cancelled", "flow_completed", "flow_started", "pattern_clarification_contains", "slot_was_not_set", "slot_was_set"}

// unsupportedAssertions are Rasa's assertions soni has no equivalent for,
// with what to write instead.
var unsupportedAssertions = map[string]string{
	"generative_response_is_relevant": "generative assertions need an LLM judge, and soni's tests never call a model: check the reply with bot_uttered: {text_matches: REGEX}",
	"generative_response_is_grounded": "generative assertions need an LLM judge, and soni's tests never call a model: check the reply with bot_uttered: {text_matches: REGEX}",
}

// RefusedAssertions lists, sorted, the assertions of Rasa's format that
// DecodeTests refuses (TestUnsupported): soni has no equivalent.
func RefusedAssertions() []string {
	return slices.Sorted(maps.Keys(unsupportedAssertions))
}

// ParsedTests is a YAML file parsed, not yet decoded: IsTests tells a test
// file from another YAML file without parsing it twice.
type ParsedTests struct {
	src  []byte
	text []byte
	// file is the parsed file, or for a large file with pieces, its
	// head: all before its first case.
	file *ast.File
	// pieces are a large file's cases, which Decode parses.
	pieces []casePiece
	err    error
}

// errNotText is the parse error of bytes that are not UTF-8 text.
var errNotText = errors.New("not UTF-8 text")

// ParseTests parses a file's YAML: without a byte order mark, and with LF
// line ends, since goccy/go-yaml counts a comment line ending in CRLF as
// two lines (a CR only ever ends a line, so every line and column stays
// true for the original file).
func ParseTests(src []byte) *ParsedTests {
	p := &ParsedTests{src: src}
	text := bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		p.err = errNotText
		return p
	}
	p.text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	p.file, p.pieces, p.err = parseTestsText(p.text)
	return p
}

// whole is the whole file's tree, parsed again from its text when only
// its head was.
func (p *ParsedTests) whole() (*ast.File, error) {
	if p.pieces == nil || p.err != nil {
		return p.file, p.err
	}
	return parser.ParseBytes(p.text, 0)
}

// testCasesKey finds a test_cases key at the start of a line.
var testCasesKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^["']?test_cases["']?[ \t]*:`) })

// IsTests reports whether the file is a conversation test file: its top
// level has the key test_cases. A file that is not valid YAML counts as
// one when a line starts with that key, so that a broken test file is
// reported rather than skipped.
func (p *ParsedTests) IsTests() bool {
	if p.err != nil {
		return testCasesKey().Match(p.src)
	}
	for _, doc := range p.file.Docs {
		pairs, _ := yamlpos.Pairs(yamlpos.Unwrap(doc.Body))
		for _, mv := range pairs {
			if keyOf(mv) == "test_cases" {
				return true
			}
		}
	}
	return false
}

// DecodeTests reads a conversation test file. The file is nil when it
// could not be read at all; otherwise every problem found is in the list,
// and a file with errors must not run.
func DecodeTests(name string, src []byte) (*TestFile, diag.List) {
	return ParseTests(src).Decode(name)
}

// Decode is DecodeTests of the parsed file.
func (p *ParsedTests) Decode(name string) (*TestFile, diag.List) {
	return p.decode(name, runtime.GOMAXPROCS(0))
}

// decode is Decode with a large file's cases on up to workers
// goroutines.
func (p *ParsedTests) decode(name string, workers int) (*TestFile, diag.List) {
	var ds diag.List
	d := &testDecoder{f: &TestFile{Name: name, src: p.src}, p: Problems{Diags: &ds}, workers: workers}
	top := p.tree(name, workers, d.p)
	if top == nil {
		return nil, ds
	}
	d.file(top)
	ds.Sort()
	return d.f, ds
}

// tree converts the parsed file to the Data the decoder reads, a large
// file's cases on up to workers goroutines; it is nil, with the problem
// reported, for a file that is not one YAML document.
func (p *ParsedTests) tree(name string, workers int, probs Problems) *Data {
	start := diag.Pos{File: name, Line: 1, Col: 1}
	if errors.Is(p.err, errNotText) {
		probs.Errorf(start, TestYAMLSyntax, "test file %q is not UTF-8 text", name)
		return nil
	}
	file, err := p.file, p.err
	var cases *Data
	if p.pieces != nil && err == nil {
		// A piece that does not parse leaves the error to the whole
		// file's parse, which says where it is in the file.
		if cases = convertPieces(name, p.pieces, workers); cases == nil {
			file, err = p.whole()
		}
	}
	if err != nil {
		pos := start
		msg := err.Error()
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			msg = yerr.GetMessage()
			if tk := yerr.GetToken(); tk != nil && tk.Position != nil {
				pos.Line, pos.Col = tk.Position.Line, tk.Position.Column
			}
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		probs.Errorf(pos, TestYAMLSyntax, "invalid YAML: %s", strings.TrimSpace(msg))
		return nil
	}
	var body ast.Node
	for _, doc := range file.Docs {
		b := doc.Body
		if _, ok := b.(*ast.CommentGroupNode); ok || b == nil {
			continue
		}
		if body != nil {
			probs.Errorf(yamlpos.NodePos(name, b), TestYAMLSyntax, "test file %q holds more than one YAML document", name)
			return nil
		}
		body = b
	}
	if body == nil {
		probs.Errorf(start, TestYAMLSyntax, "test file %q is empty: it needs a test_cases list", name)
		return nil
	}
	top := converter{file: name, workers: workers}.data(body)
	if cases != nil {
		// The head ends in the key test_cases: its value is the pieces'.
		top.Entries[len(top.Entries)-1].Value = cases
	}
	return top
}

// testDecoder decodes one test file, a large file's cases on up to
// workers goroutines.
type testDecoder struct {
	f       *TestFile
	p       Problems
	workers int
}

// file decodes the top level.
func (d *testDecoder) file(body *Data) {
	entries, ok := d.p.Map(body, "a test file")
	if !ok {
		return
	}
	var cases, fixtures, stubs, vstubs, metadata *DataEntry
	for _, e := range entries {
		switch e.Key {
		case "metadata":
			metadata = &e
		case "stub_validators":
			vstubs = &e
		case "flows":
			d.f.HasFlows = true
			if s, ok := d.p.Text(e.Value, "flows"); ok {
				d.f.Flows, d.f.FlowsPos = s, e.Value.Pos
				if strings.TrimSpace(s) == "" {
					d.p.Errorf(e.Value.Pos, TestWrongType, "flows is empty: write the path of the project under test, relative to this file, or remove the key")
				}
			}
		case "now":
			if s, ok := d.p.Text(e.Value, "now"); ok {
				d.f.Now, d.f.NowPos = s, e.Value.Pos
			}
		case "fixtures":
			fixtures = &e
		case "services":
			if !e.Value.IsNull() {
				d.services(e.Value)
			}
		case "stub_custom_actions":
			stubs = &e
		case "test_cases":
			cases = &e
		default:
			d.p.UnknownKey(e, "a test file", fileKeys)
		}
	}
	if cases == nil {
		d.p.Errorf(body.Pos, TestYAMLSyntax, "test file %q has no test_cases list", d.f.Name)
		return
	}
	if fixtures != nil && !fixtures.Value.IsNull() {
		d.fixtures(fixtures.Value)
	}
	if stubs != nil && !stubs.Value.IsNull() {
		d.stubs(stubs.Value)
	}
	if vstubs != nil && !vstubs.Value.IsNull() {
		d.validatorStubs(vstubs.Value)
	}
	if metadata != nil && !metadata.Value.IsNull() {
		d.metadataSection(metadata.Value)
	}
	if cases.Value.IsNull() {
		d.p.Errorf(cases.KeyPos, TestMissingField, "test_cases of test file %q is empty: a test file needs at least one test case", d.f.Name)
		return
	}
	items, ok := d.p.List(cases.Value, "test_cases")
	if !ok {
		return
	}
	if len(items) == 0 {
		// An empty list runs nothing and would report a pass.
		d.p.Errorf(cases.KeyPos, TestMissingField, "test_cases of test file %q is empty: a test file needs at least one test case", d.f.Name)
		return
	}
	// The cases are decoded on every core for a large file, each with
	// its own list of problems; the lists join in the cases' order, so
	// the problems are the same as one loop's.
	decoded := make([]*TestCase, len(items))
	probs := make([]diag.List, len(items))
	inParallel(d.workers, len(items), func(i int) {
		sub := &testDecoder{f: d.f, p: Problems{Diags: &probs[i]}}
		decoded[i] = sub.testCase(items[i])
	})
	seen := map[string]diag.Pos{}
	for i, c := range decoded {
		d.p.Diags.Append(probs[i]...)
		if c == nil {
			continue
		}
		if p, dup := seen[c.Name]; dup {
			d.p.Errorf(c.Pos, TestDuplicateName, "test case %q is defined twice (first at line %d)", c.Name, p.Line)
			continue
		}
		seen[c.Name] = c.Pos
		d.f.Cases = append(d.f.Cases, c)
	}
}

// namedEntries reads a section of named entries written as Rasa writes
// it, a list of one-key mappings (- NAME: VALUE), or as a mapping of
// names: item names a list's entry and whole the section in errors.
func (d *testDecoder) namedEntries(n *Data, item, whole string) []DataEntry {
	if n.Kind != DataList {
		entries, _ := d.p.Map(n, whole)
		return entries
	}
	var entries []DataEntry
	for _, it := range n.Items {
		if es, ok := d.p.Map(it, item); ok {
			entries = append(entries, es...)
		}
	}
	return entries
}

// fixtures decodes "- name: [ {slot: value}... ]" (a mapping of names is
// accepted too).
func (d *testDecoder) fixtures(n *Data) {
	entries := d.namedEntries(n, "a fixture", "fixtures")
	seen := map[string]diag.Pos{}
	for _, e := range entries {
		fx := &Fixture{Name: e.Key, Pos: e.KeyPos}
		if p, dup := seen[fx.Name]; dup {
			d.p.Errorf(fx.Pos, TestDuplicateName, "fixture %q is defined twice (first at line %d)", fx.Name, p.Line)
			continue
		}
		seen[fx.Name] = fx.Pos
		fx.Slots = d.p.SlotList(e.Value, "fixture "+strconv.Quote(fx.Name), true)
		for _, s := range fx.Slots {
			if !s.HasValue {
				d.p.Errorf(s.Pos, TestWrongType, "fixture %q gives slot %q no value: write %s: VALUE", fx.Name, s.Slot, s.Slot)
			}
		}
		d.f.Fixtures = append(d.f.Fixtures, fx)
	}
}

// envName is what an environment variable's name may be.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// services decodes the services mapping: VARIABLE: [command, args...].
func (d *testDecoder) services(n *Data) {
	entries, ok := d.p.Map(n, "services")
	if !ok {
		return
	}
	for _, e := range entries {
		sv := &Service{Env: e.Key, Pos: e.KeyPos}
		if !envName().MatchString(sv.Env) {
			d.p.Errorf(sv.Pos, TestWrongType, "service %q: the key is the environment variable that receives the service's URL, such as TRAVEL_API_URL", sv.Env)
			continue
		}
		what := "the command of service " + strconv.Quote(sv.Env)
		items, ok := d.p.List(e.Value, what)
		if !ok {
			continue
		}
		for _, it := range items {
			if s, ok := d.p.Text(it, "an argument of "+what); ok {
				sv.Command = append(sv.Command, s)
			}
		}
		if len(sv.Command) == 0 || sv.Command[0] == "" {
			d.p.Errorf(e.Value.Pos, TestMissingField, "%s is empty: write the program and its arguments, such as [go, run, ./cmd/fakeapi]", what)
			continue
		}
		d.f.Services = append(d.f.Services, sv)
	}
}

// stubs decodes stub_custom_actions.
func (d *testDecoder) stubs(n *Data) {
	entries, ok := d.p.Map(n, "stub_custom_actions")
	if !ok {
		return
	}
	for _, e := range entries {
		key := e.Key
		st := &Stub{Action: key, Pos: e.KeyPos}
		if i := strings.Index(key, "::"); i >= 0 {
			st.Case, st.Action = key[:i], key[i+2:]
		}
		if st.Action == "" {
			d.p.Errorf(st.Pos, TestWrongType, "stub %q names no action: write ACTION or CASE::ACTION", key)
			continue
		}
		if strings.HasPrefix(key, "::") {
			d.p.Errorf(st.Pos, TestWrongType, "stub %q names no test case before '::': write CASE::ACTION, or ACTION for every case", key)
			continue
		}
		if !e.Value.IsNull() {
			fields, ok := d.p.Map(e.Value, "stub "+strconv.Quote(key))
			if !ok {
				continue
			}
			// Succeeding with outputs and failing are exclusive: which
			// one the test meant is anybody's guess.
			seen := map[string]bool{}
			for _, f := range fields {
				if (f.Key == "outputs" && seen["error"]) || (f.Key == "error" && seen["outputs"]) {
					d.p.Errorf(f.KeyPos, TestUnknownKey, "stub %q has both outputs and error: give outputs for an action that succeeds or error for one that fails", key)
				}
				seen[f.Key] = true
			}
			for _, f := range fields {
				switch f.Key {
				case "outputs":
					if f.Value.IsNull() {
						continue
					}
					if _, ok := d.p.Map(f.Value, "outputs of stub "+strconv.Quote(key)); !ok {
						continue
					}
					if _, ok := d.p.Value(f.Value); ok {
						st.Outputs = f.Value
					}
				case "error":
					if s, ok := d.p.Text(f.Value, "error of stub "+strconv.Quote(key)); ok {
						st.Error, st.Fails = s, true
					}
				case "events":
					if _, ok := d.p.Value(f.Value); ok {
						st.Events = f.Value
					}
				case "responses":
					if _, ok := d.p.Value(f.Value); ok {
						st.Responses = f.Value
					}
				default:
					d.p.UnknownKey(f, "stub "+strconv.Quote(key), []string{"error", "events", "outputs", "responses"})
				}
			}
		}
		d.f.Stubs = append(d.f.Stubs, st)
	}
}

// validatorStubs reads stub_validators: NAME or CASE::NAME to a verdict
// ({valid, value?, message?}) or to error: MESSAGE, a validator that fails.
func (d *testDecoder) validatorStubs(n *Data) {
	entries, ok := d.p.Map(n, "stub_validators")
	if !ok {
		return
	}
	for _, e := range entries {
		key := e.Key
		st := &ValidatorStub{Validator: key, Pos: e.KeyPos}
		if i := strings.Index(key, "::"); i >= 0 {
			st.Case, st.Validator = key[:i], key[i+2:]
		}
		if st.Validator == "" || st.Case == "" && strings.HasPrefix(key, ":") {
			d.p.Errorf(st.Pos, TestWrongType, "validator stub %q names no validator: write VALIDATOR or CASE::VALIDATOR", key)
			continue
		}
		what := "validator stub " + strconv.Quote(key)
		fields, ok := d.p.Map(e.Value, what)
		if !ok {
			continue
		}
		hasValid := false
		for _, f := range fields {
			switch f.Key {
			case "valid":
				if f.Value.Kind != DataBool {
					d.p.Errorf(f.Value.Pos, TestWrongType, "valid of %s must be true or false, not %s", what, f.Value.KindWord())
					continue
				}
				st.Valid, hasValid = f.Value.Scalar.(bool), true
			case "value":
				if v, ok := d.p.Value(f.Value); ok {
					st.Value, st.HasValue = v, true
				}
			case "message":
				if s, ok := d.p.Text(f.Value, "message of "+what); ok {
					st.Message, st.HasMessage = s, true
				}
			case "error":
				if s, ok := d.p.Text(f.Value, "error of "+what); ok {
					st.Error, st.Fails = s, true
				}
			default:
				d.p.UnknownKey(f, what, []string{"valid", "value", "message", "error"})
			}
		}
		switch {
		case st.Fails && hasValid:
			d.p.Errorf(st.Pos, TestUnknownKey, "validator stub %q has both valid and error: give a verdict (valid, value, message) or error for a validator that fails", key)
			continue
		case !st.Fails && !hasValid:
			d.p.Errorf(st.Pos, TestMissingField, "validator stub %q needs valid: true or false (or error: MESSAGE)", key)
			continue
		}
		d.f.ValidatorStubs = append(d.f.ValidatorStubs, st)
	}
}

// metadataSection reads the file's metadata: Rasa's list of one-key
// mappings (- NAME: {KEY: VALUE}), or a mapping of names.
func (d *testDecoder) metadataSection(n *Data) {
	entries := d.namedEntries(n, "an entry of metadata", "metadata")
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Key] {
			d.p.Errorf(e.KeyPos, TestDuplicateName, "metadata %q is defined twice", e.Key)
			continue
		}
		m := &Data{Kind: DataMap, Pos: e.Value.Pos}
		if !e.Value.IsNull() {
			if _, ok := d.p.Map(e.Value, "metadata "+strconv.Quote(e.Key)); !ok {
				continue
			}
			if _, ok := d.p.Value(e.Value); !ok {
				continue
			}
			m = e.Value
		}
		seen[e.Key] = true
		d.f.Metadata = append(d.f.Metadata, &MetadataDef{Name: e.Key, Pos: e.KeyPos, Value: m})
	}
}

// testCase decodes one entry of test_cases.
func (d *testDecoder) testCase(n *Data) *TestCase {
	entries, ok := d.p.Map(n, "a test case")
	if !ok {
		return nil
	}
	c := &TestCase{Pos: n.Pos}
	var steps *Data
	named := false
	for _, e := range entries {
		switch e.Key {
		case "test_case":
			if s, ok := d.p.Text(e.Value, "test_case"); ok {
				c.Name, named = s, true
				c.Pos = e.KeyPos
			}
		case "fixtures":
			if e.Value.IsNull() {
				continue
			}
			items, ok := d.p.List(e.Value, "fixtures of a test case")
			if !ok {
				continue
			}
			for _, item := range items {
				if s, ok := d.p.Text(item, "a fixture name"); ok {
					c.Fixtures = append(c.Fixtures, NameRef{Name: s, Pos: item.Pos})
				}
			}
		case "metadata":
			if s, ok := d.p.Text(e.Value, "metadata of a test case"); ok {
				c.Metadata = NameRef{Name: s, Pos: e.Value.Pos}
			}
		case "skip":
			if e.Value.Kind == DataBool {
				c.Skipped = e.Value.Scalar.(bool)
			} else if s, ok := d.p.Text(e.Value, "skip"); ok {
				c.Skip, c.Skipped = s, true
			}
		case "steps":
			steps = e.Value
		default:
			d.p.UnknownKey(e, "a test case", caseKeys)
		}
	}
	if !named || c.Name == "" {
		d.p.Errorf(c.Pos, TestMissingField, "test case has no name: add test_case: NAME")
		return nil
	}
	if steps.IsNull() {
		d.p.Errorf(c.Pos, TestMissingField, "test case %q has no steps", c.Name)
		return nil
	}
	items, ok := d.p.List(steps, "steps of test case "+strconv.Quote(c.Name))
	if !ok {
		return nil
	}
	c.FlowStyle = steps.Flow
	for _, item := range items {
		if st := d.step(item); st != nil {
			if item.dashLine > 0 {
				st.entry = diag.Pos{File: item.Pos.File, Line: int(item.dashLine), Col: int(item.dashCol)}
			}
			c.Steps = append(c.Steps, st)
		}
	}
	c.orig = append([]*TestStep(nil), c.Steps...)
	if len(items) == 0 {
		d.p.Errorf(c.Pos, TestMissingField, "test case %q has no steps", c.Name)
	}
	return c
}

// step decodes one step.
func (d *testDecoder) step(n *Data) *TestStep {
	entries, ok := d.p.Map(n, "a step")
	if !ok {
		return nil
	}
	var main, commands, assertions, ordered, metadata *DataEntry
	bad := false
	// (By index: a range variable whose address is kept is a heap
	// allocation for every step of a file.)
	for i := range entries {
		e := &entries[i]
		switch key := e.Key; {
		case key == "commands":
			commands = e
		case key == "assertions":
			assertions = e
		case key == "assertion_order_enabled":
			ordered = e
		case key == "metadata":
			metadata = e
		case isStepKind(key) || key == "utter":
			// Rasa's older utter step names the response of the next
			// reply, as bot_response does.
			if main != nil {
				d.p.Errorf(e.KeyPos, TestUnknownKey, "step has both %q and %q: write one step per list item", main.Key, key)
				bad = true
				continue
			}
			main = e
		default:
			d.p.UnknownKey(*e, "a step", stepKeys)
			bad = true
		}
	}
	if main == nil {
		if !bad {
			d.p.Errorf(n.Pos, TestMissingField, "step has no kind: use one of %s", strings.Join(stepKeys[1:], ", "))
		}
		return nil
	}
	st := &TestStep{Kind: main.Key, Pos: main.KeyPos, value: main.Value, inFlow: n.Flow, TextPos: main.Value.Pos}
	kind := st.Kind
	if kind == "utter" {
		kind = "bot_response"
	}
	if commands != nil && kind != "user" {
		d.p.Errorf(commands.KeyPos, TestUnknownKey, "commands belongs to a user step, not to a %s step", kind)
		bad = true
	}
	for _, e := range []*DataEntry{assertions, ordered, metadata} {
		if e != nil && kind != "user" {
			d.p.Errorf(e.KeyPos, TestUnknownKey, "%s belongs to a user step, not to a %s step", e.Key, kind)
			bad = true
		}
	}
	if kind == "user" && !bad {
		d.rasaUserStep(st, assertions, ordered, metadata)
	}
	switch kind {
	case "slot_was_set", "slot_was_not_set":
		st.Slots = d.p.SlotList(main.Value, kind, false)
	default:
		s, ok := d.p.Text(main.Value, kind)
		if !ok {
			return nil
		}
		st.Text = s
		if commands != nil && kind == "user" {
			st.HasCommands = true
			st.Commands = d.commands(commands.Value)
		}
	}
	if bad {
		return nil
	}
	return st
}

func isStepKind(key string) bool {
	for _, k := range stepKinds {
		if k == key {
			return true
		}
	}
	return false
}

// commands decodes a user step's commands: each a name, or a mapping of
// names to their values.
func (d *testDecoder) commands(n *Data) []*Command {
	cmds := []*Command{}
	if n.IsNull() {
		return cmds
	}
	items, ok := d.p.List(n, "commands")
	if !ok {
		return cmds
	}
	for _, item := range items {
		if item.plainString {
			cmds = append(cmds, &Command{Kind: item.Text, Pos: item.Pos})
			continue
		}
		entries, ok := d.p.Map(item, "a command")
		if !ok {
			continue
		}
		for _, e := range entries {
			cmds = append(cmds, &Command{Kind: e.Key, Pos: e.KeyPos, Arg: e.Value})
		}
	}
	return cmds
}

// rasaUserStep reads a user step's assertions, assertion_order_enabled and
// metadata.
func (d *testDecoder) rasaUserStep(st *TestStep, assertions, ordered, metadata *DataEntry) {
	if ordered != nil {
		st.HasOrdered = true
		if ordered.Value.Kind != DataBool {
			d.p.Errorf(ordered.Value.Pos, TestWrongType, "assertion_order_enabled must be true or false, not %s", ordered.Value.KindWord())
		} else {
			st.Ordered = ordered.Value.Scalar.(bool)
		}
	}
	if metadata != nil {
		if s, ok := d.p.Text(metadata.Value, "metadata of a user step"); ok {
			st.Metadata = NameRef{Name: s, Pos: metadata.Value.Pos}
		}
	}
	if assertions == nil || assertions.Value.IsNull() {
		return
	}
	items, ok := d.p.List(assertions.Value, "assertions")
	if !ok {
		return
	}
	for _, item := range items {
		if a := d.assertion(item); a != nil {
			st.Assertions = append(st.Assertions, a)
		}
	}
}

// assertion reads one entry of assertions: a mapping with one key.
func (d *testDecoder) assertion(n *Data) *Assertion {
	entries, ok := d.p.Map(n, "an assertion")
	if !ok {
		return nil
	}
	if len(entries) != 1 {
		d.p.Errorf(n.Pos, TestWrongType, "an assertion has exactly one key, such as flow_started: NAME; write one assertion per list item")
		return nil
	}
	e := entries[0]
	key, v := e.Key, e.Value
	if why, ok := unsupportedAssertions[key]; ok {
		d.p.Errorf(e.KeyPos, TestUnsupported, "assertion %q has no equivalent in soni: %s", key, why)
		return nil
	}
	a := &Assertion{Kind: key, Pos: e.KeyPos}
	switch key {
	case "flow_started", "flow_completed", "flow_cancelled":
		if v.Kind == DataMap {
			for _, f := range v.Entries {
				switch f.Key {
				case "flow_id":
					if s, ok := d.p.Text(f.Value, key+".flow_id"); ok {
						a.Text, a.TextPos = s, f.Value.Pos
					}
				case "flow_step_id":
					if s, ok := d.p.Text(f.Value, key+".flow_step_id"); ok {
						a.StepID, a.StepIDPos = s, f.Value.Pos
					}
				default:
					d.p.UnknownKey(f, key, []string{"flow_id", "flow_step_id"})
					return nil
				}
			}
			if a.Text == "" {
				d.p.Errorf(a.Pos, TestMissingField, "%s needs flow_id: the flow's name", key)
				return nil
			}
			return a
		}
		s, ok := d.p.Text(v, key)
		if !ok {
			return nil
		}
		a.Text, a.TextPos = s, v.Pos
	case "action_executed":
		s, ok := d.p.Text(v, key)
		if !ok {
			return nil
		}
		a.Text, a.TextPos = s, v.Pos
	case "pattern_clarification_contains":
		items, ok := d.p.List(v, key)
		if !ok {
			return nil
		}
		for _, item := range items {
			if s, ok := d.p.Text(item, "a flow of "+key); ok {
				a.Names = append(a.Names, s)
			}
		}
	case "slot_was_set", "slot_was_not_set":
		a.Slots = d.namedSlots(v, key)
		if a.Slots == nil {
			return nil
		}
	case "bot_uttered", "bot_did_not_utter":
		fields, ok := d.p.Map(v, key)
		if !ok {
			return nil
		}
		for _, f := range fields {
			switch f.Key {
			case "text_matches":
				s, ok := d.p.Text(f.Value, key+".text_matches")
				if !ok {
					return nil
				}
				a.TextMatches, a.TextMatchesPos, a.HasTextMatches = s, f.Value.Pos, true
			case "utter_name":
				s, ok := d.p.Text(f.Value, key+".utter_name")
				if !ok {
					return nil
				}
				a.Response, a.ResponsePos = s, f.Value.Pos
			case "buttons":
				bs, ok := d.buttons(f.Value, key)
				if !ok {
					return nil
				}
				a.Buttons, a.HasButtons = bs, true
			default:
				d.p.UnknownKey(f, key, []string{"buttons", "text_matches", "utter_name"})
				return nil
			}
		}
		if !a.HasTextMatches && a.Response == "" && !a.HasButtons {
			d.p.Errorf(a.Pos, TestMissingField, "%s needs utter_name: a response's name, text_matches: a regular expression for the reply, or buttons", key)
			return nil
		}
	default:
		d.p.UnknownKey(e, "an assertion", assertionKeys)
		return nil
	}
	return a
}

// buttons reads the buttons of bot_uttered or bot_did_not_utter (key):
// [{title, payload}].
func (d *testDecoder) buttons(n *Data, key string) ([]TestButton, bool) {
	items, ok := d.p.List(n, key+".buttons")
	if !ok {
		return nil, false
	}
	out := []TestButton{}
	for _, item := range items {
		fields, ok := d.p.Map(item, "a button")
		if !ok {
			return nil, false
		}
		var b TestButton
		for _, f := range fields {
			s, ok := d.p.Text(f.Value, "a button's "+f.Key)
			if !ok {
				return nil, false
			}
			switch f.Key {
			case "title":
				b.Title = s
			case "payload":
				b.Payload = s
			default:
				d.p.UnknownKey(f, "a button", []string{"payload", "title"})
				return nil, false
			}
		}
		out = append(out, b)
	}
	return out, true
}

// namedSlots reads Rasa's slot list, [{name: SLOT, value: VALUE}] (value
// optional); a bare slot name is accepted too.
func (d *testDecoder) namedSlots(n *Data, what string) []SlotValue {
	items, ok := d.p.List(n, what)
	if !ok {
		return nil
	}
	out := []SlotValue{}
	for _, item := range items {
		if item.IsText() {
			out = append(out, SlotValue{Slot: item.Text, Pos: item.Pos})
			continue
		}
		fields, ok := d.p.Map(item, "an entry of "+what)
		if !ok {
			continue
		}
		sv := SlotValue{Pos: item.Pos}
		for _, f := range fields {
			switch f.Key {
			case "name":
				if s, ok := d.p.Text(f.Value, what+".name"); ok {
					sv.Slot, sv.Pos = s, f.Value.Pos
				}
			case "value":
				if v, ok := d.p.Value(f.Value); ok {
					sv.Value, sv.HasValue = v, true
				}
			default:
				d.p.UnknownKey(f, "an entry of "+what, []string{"name", "value"})
			}
		}
		if sv.Slot == "" {
			d.p.Errorf(sv.Pos, TestMissingField, "an entry of %s needs name: the slot's name", what)
			continue
		}
		out = append(out, sv)
	}
	return out
}
