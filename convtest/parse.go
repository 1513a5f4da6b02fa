package convtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/internal/yamlpos"
	"github.com/soni-dev/soni/ir"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// StepKind names the kind of a test step: the key that makes it.
type StepKind string

// The step kinds of conversation-tests.md.
const (
	StepUser           StepKind = "user"
	StepBot            StepKind = "bot"
	StepBotMatches     StepKind = "bot_matches"
	StepSlotWasSet     StepKind = "slot_was_set"
	StepSlotWasNotSet  StepKind = "slot_was_not_set"
	StepFlowStarted    StepKind = "flow_started"
	StepFlowCompleted  StepKind = "flow_completed"
	StepFlowCancelled  StepKind = "flow_cancelled"
	StepActionExecuted StepKind = "action_executed"
	// StepBotResponse checks that the next reply was said from a response:
	// bot_response: NAME.
	StepBotResponse StepKind = "bot_response"
	// StepClarification is Rasa's pattern_clarification_contains
	// assertion: pattern_clarification ran and offered these flows (by
	// name or by their name for people). It exists only in assertions.
	StepClarification StepKind = "pattern_clarification_contains"
	// StepBotUttered is Rasa's bot_uttered assertion: some reply of the
	// turn matches a regular expression. It exists only in assertions.
	StepBotUttered StepKind = "bot_uttered"
	// StepBotDidNotUtter is Rasa's bot_did_not_utter assertion: no reply
	// of the turn was said from the response, matches the regular
	// expression, or has one of the buttons (each field forbids on its
	// own, as in Rasa). It exists only in assertions.
	StepBotDidNotUtter StepKind = "bot_did_not_utter"
)

// stepKinds lists every step kind, for did-you-mean suggestions.
var stepKinds = []StepKind{StepUser, StepBot, StepBotMatches, StepBotResponse, StepSlotWasSet, StepSlotWasNotSet, StepFlowStarted, StepFlowCompleted, StepFlowCancelled, StepActionExecuted}

// The keys allowed at each level of a test file.
var (
	fileKeys = []string{"flows", "fixtures", "metadata", "now", "services", "stub_custom_actions", "stub_validators", "test_cases"}
	caseKeys = []string{"test_case", "fixtures", "metadata", "skip", "steps"}
	stepKeys = func() []string {
		keys := []string{"commands", "assertions", "assertion_order_enabled", "metadata"}
		for _, k := range stepKinds {
			keys = append(keys, string(k))
		}
		return keys
	}()
	commandKeys = []string{string(vm.CmdStartFlow), string(vm.CmdSetSlot), string(vm.CmdCorrectSlot), string(vm.CmdCancelFlow), string(vm.CmdAffirm), string(vm.CmdDeny),
		string(vm.CmdFallback), string(vm.CmdChitchat), string(vm.CmdHandoff), string(vm.CmdHelp), string(vm.CmdRepeat), string(vm.CmdSkipQuestion), string(vm.CmdClarify)}
)

// File is a parsed conversation test file. Every part keeps the position
// where it was written.
type File struct {
	// Path is the file's name as found (slash-separated).
	Path string
	// Src is the file's bytes.
	Src []byte
	// Flows is the value of the flows: key as written, or "" when absent.
	Flows    string
	FlowsPos diag.Pos
	// flowsKey is true when the file has a flows: key, even one whose
	// value is unusable: then the project is never searched for.
	flowsKey bool
	// Now, when not zero, is when every message of the file is sent (the
	// now: key): relative dates ("tomorrow", "next Friday") are read
	// against it.
	Now      time.Time
	Fixtures []*Fixture
	// Services are the local backends started before the file's cases
	// and stopped after them, in file order.
	Services []*Service
	Stubs    []*Stub
	// ValidatorStubs are the entries of stub_validators: Outputs holds the
	// verdict (valid, value, message).
	ValidatorStubs []*Stub
	// Metadata are the file's named metadata dictionaries (Rasa's
	// top-level metadata), which cases and user steps name.
	Metadata map[string]map[string]any
	Cases    []*Case
}

// Fixture is a named set of slot values applied before a case's first turn.
type Fixture struct {
	Name  string
	Pos   diag.Pos
	Slots []SlotValue
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

// Stub is one entry of stub_custom_actions: the outputs or the error an
// action returns instead of running. Case is set for CASE::ACTION stubs.
type Stub struct {
	Case    string
	Action  string
	Outputs map[string]any
	// Messages are the messages the stubbed action says (Rasa's stub
	// responses).
	Messages []vm.ActionMessage
	// Error, when Fails, is the error the action fails with.
	Error string
	Fails bool
	Pos   diag.Pos
}

// NameRef is a name written in a test file, with its position.
type NameRef struct {
	Name string
	Pos  diag.Pos
}

// Case is one test case: a new conversation.
type Case struct {
	Name     string
	Pos      diag.Pos
	Fixtures []NameRef
	// Metadata names the file's metadata given with every turn of the
	// case (Name is "" when none).
	Metadata NameRef
	// Skip, when Skipped, is the reason the case does not run.
	Skip    string
	Skipped bool
	Steps   []*Step
	// Turns are the steps grouped by user step.
	Turns []*Turn
	// flowStyle is true when the steps list is written in flow style
	// ([...]), which --update does not edit.
	flowStyle bool
}

// Turn is a user step and the check steps that follow it.
type Turn struct {
	// Index counts the turns of the case from 1.
	Index  int
	User   *Step
	Checks []*Step
}

// Step is one step of a test case.
type Step struct {
	Kind StepKind
	// Pos is the position of the step's key.
	Pos diag.Pos
	// Text is the user message, the expected reply, the bot_matches
	// pattern, or the flow or action name of an event check.
	Text string
	// Regexp is the compiled bot_matches pattern.
	Regexp *regexp.Regexp
	// Names are the flows pattern_clarification_contains expects.
	Names []string
	// Response is the response a bot_uttered assertion names
	// (utter_name); a bot_response step's is its Text.
	Response string
	// Buttons, when HasButtons, are the buttons a bot_uttered assertion
	// expects, in order.
	Buttons    []ir.Button
	HasButtons bool
	// Commands, when non-nil, replace understanding for a user step.
	Commands []vm.Command
	// Slots are the slot checks of slot_was_set and slot_was_not_set.
	Slots []SlotValue
	// FlowStepID, for a flow assertion written {flow_id, flow_step_id},
	// is the step the flow event must name.
	FlowStepID string
	// Assertions are a user step's Rasa assertions, checked against the
	// turn like the check steps that follow it; Ordered
	// (assertion_order_enabled) makes their order count.
	Assertions []*Step
	Ordered    bool
	// Metadata names the file's metadata given with this user step's
	// turn, over the case's.
	Metadata NameRef

	refs []ref
	// entry is the position of the step's '-' in a block list (zero for
	// a flow list); value is how the step's main value is written.
	entry diag.Pos
	value valueRef
	// inFlow is true when the step is a flow mapping ({bot: ...}).
	inFlow bool
}

// valueRef is what --update needs to know of a step's main value: how it
// is quoted and where it starts. Steps keep this instead of the YAML node,
// whose tokens link to every other token of the file: holding one node
// would keep the whole parse alive while the cases run.
type valueRef struct {
	// style is the value's quoting style (stylePlain, styleSingle or
	// styleDouble), looking through a tag or an anchor, for new steps.
	style string
	// form is how the value itself is written: a quoting style,
	// formLiteral for a block scalar, or "" when --update cannot rewrite
	// it. line and col are where it starts.
	form      string
	line, col int
	// text is a plain scalar's value, to spot one folded over lines.
	text string
}

// formLiteral is the form of a block scalar (| or >).
const formLiteral = "literal"

// refOf describes a step's main value node.
func refOf(n ast.Node) valueRef {
	r := valueRef{style: stylePlain}
	if s, ok := yamlpos.Unwrap(n).(*ast.StringNode); ok && s.Token != nil {
		r.style = quoteStyle(s.Token)
	}
	switch x := n.(type) {
	case *ast.StringNode:
		if tk := x.Token; tk != nil && tk.Position != nil {
			r.form, r.line, r.col, r.text = quoteStyle(tk), tk.Position.Line, tk.Position.Column, x.Value
		}
	case *ast.LiteralNode:
		if x.Start != nil && x.Start.Position != nil {
			r.form, r.line, r.col = formLiteral, x.Start.Position.Line, x.Start.Position.Column
		}
	}
	return r
}

// quoteStyle is the quoting style of a scalar's token.
func quoteStyle(tk *token.Token) string {
	switch tk.Type {
	case token.DoubleQuoteType:
		return styleDouble
	case token.SingleQuoteType:
		return styleSingle
	}
	return stylePlain
}

// ref is a flow, slot or action name that must exist in the project.
type ref struct {
	kind string // "flow", "slot" or "action"
	name string
	// flow, for a slot given to start_flow, is the flow it belongs to.
	flow string
	pos  diag.Pos
}

// parser state for one file.
type decoder struct {
	f  *File
	ds *diag.List
}

// ParseFile parses a test file's bytes. The file is nil when it could not
// be parsed at all; otherwise every problem found is in the list, and a
// file with errors must not run.
func ParseFile(path string, src []byte) (*File, diag.List) {
	return decodeFile(path, src, yamlDoc{})
}

// yamlDoc is a test file's parsed YAML.
type yamlDoc struct {
	file *ast.File
}

// decodeFile is ParseFile given the file's YAML already parsed by
// parseYAML, or a zero doc to parse it here.
func decodeFile(path string, src []byte, doc yamlDoc) (*File, diag.List) {
	return decodeDoc(path, src, doc)
}

// decodeDoc decodes doc, or the YAML of src when doc is zero.
func decodeDoc(path string, src []byte, doc yamlDoc) (*File, diag.List) {
	var ds diag.List
	f := &File{Path: path, Src: src}
	d := &decoder{f: f, ds: &ds}
	if doc.file == nil {
		var ok bool
		if doc, ok = d.parseYAML(src); !ok {
			return nil, ds
		}
	}
	body := d.body(doc.file)
	if body == nil {
		return nil, ds
	}
	d.file(body)
	ds.Sort()
	return f, ds
}

func (d *decoder) errorf(pos diag.Pos, code, format string, args ...any) *diag.Diagnostic {
	return d.ds.Add(pos, code, "", format, args...)
}

// errNotText is parseYAML's error for bytes that are not UTF-8 text.
var errNotText = errors.New("not UTF-8 text")

// yamlParses counts the calls of parseYAML, for the test that each test
// file is parsed once.
var yamlParses atomic.Int64

// parseYAML parses a test file's YAML: without a byte order mark, and
// with LF line ends, since goccy/go-yaml v1.19.2 counts a comment line
// ending in CRLF as two lines (a CR only ever ends a line, so every line
// and column stays true for the original file).
func parseYAML(src []byte) (yamlDoc, error) {
	yamlParses.Add(1)
	text := bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return yamlDoc{}, errNotText
	}
	text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	f, err := parser.ParseBytes(text, 0)
	return yamlDoc{file: f}, err
}

// parseYAML parses src and reports a syntax error.
func (d *decoder) parseYAML(src []byte) (yamlDoc, bool) {
	name := d.f.Path
	start := diag.Pos{File: name, Line: 1, Col: 1}
	doc, err := parseYAML(src)
	if errors.Is(err, errNotText) {
		d.errorf(start, CodeYAMLSyntax, "test file %q is not UTF-8 text", name)
		return doc, false
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
		d.errorf(pos, CodeYAMLSyntax, "invalid YAML: %s", strings.TrimSpace(msg))
		return doc, false
	}
	return doc, true
}

// body returns the body of the file's only document.
func (d *decoder) body(af *ast.File) ast.Node {
	name := d.f.Path
	start := diag.Pos{File: name, Line: 1, Col: 1}
	var body ast.Node
	for _, doc := range af.Docs {
		b := doc.Body
		if _, ok := b.(*ast.CommentGroupNode); ok || b == nil {
			continue
		}
		if body != nil {
			d.errorf(d.pos(b), CodeYAMLSyntax, "test file %q holds more than one YAML document", name)
			return nil
		}
		body = b
	}
	if body == nil {
		d.errorf(start, CodeYAMLSyntax, "test file %q is empty: it needs a test_cases list", name)
		return nil
	}
	return body
}

// pos returns the position of a node in the test file.
func (d *decoder) pos(n ast.Node) diag.Pos { return yamlpos.NodePos(d.f.Path, n) }

// isNull reports whether a node is absent or a YAML null.
func isNull(n ast.Node) bool {
	n = yamlpos.Unwrap(n)
	if n == nil {
		return true
	}
	_, ok := n.(*ast.NullNode)
	return ok
}

// keyOf returns the text of a mapping key.
func keyOf(mv *ast.MappingValueNode) string {
	k := ast.Node(mv.Key)
	if mk, ok := k.(*ast.MappingKeyNode); ok {
		k = mk.Value
	}
	switch x := yamlpos.Unwrap(k).(type) {
	case *ast.StringNode:
		return x.Value
	case nil:
		return ""
	default:
		if tk := x.GetToken(); tk != nil {
			return tk.Value
		}
	}
	return ""
}

// mapping returns a node's key-value pairs, or reports the wrong type.
func (d *decoder) mapping(n ast.Node, what string) ([]*ast.MappingValueNode, bool) {
	m := yamlpos.Unwrap(n)
	if pairs, ok := yamlpos.Pairs(m); ok {
		return pairs, true
	}
	if _, ok := m.(*ast.AliasNode); ok {
		d.errorf(d.pos(n), CodeWrongType, "%s is an alias: test files do not follow YAML aliases", what)
		return nil, false
	}
	d.errorf(d.pos(n), CodeWrongType, "%s must be a mapping, not %s", what, yamlpos.KindWord(n))
	return nil, false
}

// sequence returns a node's items, or reports the wrong type.
func (d *decoder) sequence(n ast.Node, what string) (*ast.SequenceNode, bool) {
	switch x := yamlpos.Unwrap(n).(type) {
	case *ast.SequenceNode:
		return x, true
	case *ast.AliasNode:
		d.errorf(d.pos(n), CodeWrongType, "%s is an alias: test files do not follow YAML aliases", what)
		return nil, false
	}
	d.errorf(d.pos(n), CodeWrongType, "%s must be a list, not %s", what, yamlpos.KindWord(n))
	return nil, false
}

// scalar returns a scalar node's text, or reports the wrong type.
func (d *decoder) scalar(n ast.Node, what string) (string, bool) {
	s, ok := yamlpos.ScalarText(n)
	if !ok {
		d.errorf(d.pos(n), CodeWrongType, "%s must be a string, not %s", what, yamlpos.KindWord(n))
	}
	return s, ok
}

// scalarText returns the text of a string, number or boolean scalar.

// kindWord names a node's YAML kind for messages.

// value converts a node to a Go value: string, int64 (uint64 beyond
// int64), float64, bool, nil, []any or map[string]any.
func (d *decoder) value(n ast.Node) (any, bool) {
	switch x := yamlpos.Unwrap(n).(type) {
	case nil, *ast.NullNode:
		return nil, true
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		s, _ := yamlpos.ScalarText(x)
		return s, true
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return v, true
		case uint64:
			if v <= math.MaxInt64 {
				return int64(v), true
			}
			return float64(v), true
		}
		return x.GetToken().Value, true
	case *ast.FloatNode:
		return x.Value, true
	case *ast.InfinityNode:
		return x.Value, true
	case *ast.NanNode:
		return math.NaN(), true
	case *ast.BoolNode:
		return x.Value, true
	case *ast.SequenceNode:
		out := make([]any, 0, len(x.Values))
		for _, item := range x.Values {
			v, ok := d.value(item)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case *ast.MappingNode, *ast.MappingValueNode:
		pairs, _ := d.mapping(x, "value")
		out := make(map[string]any, len(pairs))
		for _, mv := range pairs {
			v, ok := d.value(mv.Value)
			if !ok {
				return nil, false
			}
			out[keyOf(mv)] = v
		}
		return out, true
	case *ast.AliasNode:
		d.errorf(d.pos(n), CodeWrongType, "value is an alias: test files do not follow YAML aliases")
		return nil, false
	}
	d.errorf(d.pos(n), CodeWrongType, "unsupported value %s", yamlpos.KindWord(n))
	return nil, false
}

// unknownKey reports a key that is not among the allowed ones.
func (d *decoder) unknownKey(mv *ast.MappingValueNode, where string, allowed []string) {
	key := keyOf(mv)
	dg := d.errorf(d.pos(mv.Key), CodeUnknownKey, "unknown key %q in %s", key, where)
	if s := suggest.Closest(key, allowed); s != "" {
		dg.Suggestion = fmt.Sprintf("did you mean %q?", s)
	} else {
		dg.Suggestion = "allowed keys: " + strings.Join(allowed, ", ")
	}
}

// file decodes the top level.
func (d *decoder) file(body ast.Node) {
	pairs, ok := d.mapping(body, "a test file")
	if !ok {
		return
	}
	var cases ast.Node
	var casesKey diag.Pos
	var fixtures, stubs, vstubs, metadata *ast.MappingValueNode
	for _, mv := range pairs {
		switch keyOf(mv) {
		case "metadata":
			metadata = mv
		case "stub_validators":
			vstubs = mv
		case "flows":
			d.f.flowsKey = true
			if s, ok := d.scalar(mv.Value, "flows"); ok {
				d.f.Flows, d.f.FlowsPos = s, d.pos(mv.Value)
				if strings.TrimSpace(s) == "" {
					d.errorf(d.pos(mv.Value), CodeWrongType, "flows is empty: write the path of the project under test, relative to this file, or remove the key")
				}
			}
		case "now":
			if s, ok := d.scalar(mv.Value, "now"); ok {
				t, err := values.ParseNow(s)
				if err != nil {
					d.errorf(d.pos(mv.Value), CodeWrongType, "now: %v", err)
				}
				d.f.Now = t
			}
		case "fixtures":
			fixtures = mv
		case "services":
			if !isNull(mv.Value) {
				d.services(mv.Value)
			}
		case "stub_custom_actions":
			stubs = mv
		case "test_cases":
			cases, casesKey = mv.Value, d.pos(mv.Key)
			if cases == nil {
				cases = mv.Key
			}
		default:
			d.unknownKey(mv, "a test file", fileKeys)
		}
	}
	if cases == nil {
		d.errorf(d.pos(body), CodeYAMLSyntax, "test file %q has no test_cases list", d.f.Path)
		return
	}
	if fixtures != nil && !isNull(fixtures.Value) {
		d.fixtures(fixtures.Value)
	}
	if stubs != nil && !isNull(stubs.Value) {
		d.stubs(stubs.Value)
	}
	if vstubs != nil && !isNull(vstubs.Value) {
		d.validatorStubs(vstubs.Value)
	}
	if metadata != nil && !isNull(metadata.Value) {
		d.metadataSection(metadata.Value)
	}
	if isNull(cases) {
		d.errorf(casesKey, CodeMissingField, "test_cases of test file %q is empty: a test file needs at least one test case", d.f.Path)
		return
	}
	seq, ok := d.sequence(cases, "test_cases")
	if !ok {
		return
	}
	if len(seq.Values) == 0 {
		// An empty list runs nothing and would report a pass.
		d.errorf(casesKey, CodeMissingField, "test_cases of test file %q is empty: a test file needs at least one test case", d.f.Path)
		return
	}
	seen := map[string]diag.Pos{}
	for _, item := range seq.Values {
		c := d.testCase(item)
		if c == nil {
			continue
		}
		if p, dup := seen[c.Name]; dup {
			d.errorf(c.Pos, CodeDuplicateName, "test case %q is defined twice (first at line %d)", c.Name, p.Line)
			continue
		}
		seen[c.Name] = c.Pos
		d.f.Cases = append(d.f.Cases, c)
	}
}

// fixtures decodes "- name: [ {slot: value}... ]" (a mapping of names is
// accepted too).
func (d *decoder) fixtures(n ast.Node) {
	var pairs []*ast.MappingValueNode
	if seq, ok := yamlpos.Unwrap(n).(*ast.SequenceNode); ok {
		for _, item := range seq.Values {
			ps, ok := d.mapping(item, "a fixture")
			if ok {
				pairs = append(pairs, ps...)
			}
		}
	} else if ps, ok := d.mapping(n, "fixtures"); ok {
		pairs = ps
	}
	seen := map[string]diag.Pos{}
	for _, mv := range pairs {
		fx := &Fixture{Name: keyOf(mv), Pos: d.pos(mv.Key)}
		if p, dup := seen[fx.Name]; dup {
			d.errorf(fx.Pos, CodeDuplicateName, "fixture %q is defined twice (first at line %d)", fx.Name, p.Line)
			continue
		}
		seen[fx.Name] = fx.Pos
		fx.Slots = d.slotList(mv.Value, "fixture "+strconv.Quote(fx.Name), true)
		for _, s := range fx.Slots {
			if !s.HasValue {
				d.errorf(s.Pos, CodeWrongType, "fixture %q gives slot %q no value: write %s: VALUE", fx.Name, s.Slot, s.Slot)
			}
		}
		d.f.Fixtures = append(d.f.Fixtures, fx)
	}
}

// stubs decodes stub_custom_actions.
// envName is what an environment variable's name may be.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// services decodes the services mapping: VARIABLE: [command, args...].
func (d *decoder) services(n ast.Node) {
	pairs, ok := d.mapping(n, "services")
	if !ok {
		return
	}
	for _, mv := range pairs {
		sv := &Service{Env: keyOf(mv), Pos: d.pos(mv.Key)}
		if !envName().MatchString(sv.Env) {
			d.errorf(sv.Pos, CodeWrongType, "service %q: the key is the environment variable that receives the service's URL, such as TRAVEL_API_URL", sv.Env)
			continue
		}
		what := "the command of service " + strconv.Quote(sv.Env)
		seq, ok := d.sequence(mv.Value, what)
		if !ok {
			continue
		}
		for _, it := range seq.Values {
			if s, ok := d.scalar(it, "an argument of "+what); ok {
				sv.Command = append(sv.Command, s)
			}
		}
		if len(sv.Command) == 0 || sv.Command[0] == "" {
			d.errorf(d.pos(mv.Value), CodeMissingField, "%s is empty: write the program and its arguments, such as [go, run, ./cmd/fakeapi]", what)
			continue
		}
		d.f.Services = append(d.f.Services, sv)
	}
}

func (d *decoder) stubs(n ast.Node) {
	pairs, ok := d.mapping(n, "stub_custom_actions")
	if !ok {
		return
	}
	for _, mv := range pairs {
		key := keyOf(mv)
		st := &Stub{Action: key, Pos: d.pos(mv.Key)}
		if i := strings.Index(key, "::"); i >= 0 {
			st.Case, st.Action = key[:i], key[i+2:]
		}
		if st.Action == "" {
			d.errorf(st.Pos, CodeWrongType, "stub %q names no action: write ACTION or CASE::ACTION", key)
			continue
		}
		if strings.HasPrefix(key, "::") {
			d.errorf(st.Pos, CodeWrongType, "stub %q names no test case before '::': write CASE::ACTION, or ACTION for every case", key)
			continue
		}
		st.Outputs = map[string]any{}
		if !isNull(mv.Value) {
			fields, ok := d.mapping(mv.Value, "stub "+strconv.Quote(key))
			if !ok {
				continue
			}
			// Succeeding with outputs and failing are exclusive: which
			// one the test meant is anybody's guess.
			seen := map[string]bool{}
			for _, f := range fields {
				k := keyOf(f)
				if (k == "outputs" && seen["error"]) || (k == "error" && seen["outputs"]) {
					d.errorf(d.pos(f.Key), CodeUnknownKey, "stub %q has both outputs and error: give outputs for an action that succeeds or error for one that fails", key)
				}
				seen[k] = true
			}
			for _, f := range fields {
				switch keyOf(f) {
				case "outputs":
					if isNull(f.Value) {
						continue
					}
					if _, ok := d.mapping(f.Value, "outputs of stub "+strconv.Quote(key)); !ok {
						continue
					}
					v, ok := d.value(f.Value)
					if ok {
						st.Outputs = v.(map[string]any)
					}
				case "error":
					if s, ok := d.scalar(f.Value, "error of stub "+strconv.Quote(key)); ok {
						st.Error, st.Fails = s, true
						if s == "" {
							st.Error = "stubbed failure"
						}
					}
				case "events", "responses":
					// Rasa's stub: slot events are outputs, responses
					// are messages, read as a Rasa action server's answer.
					v, ok := d.value(f.Value)
					if !ok {
						continue
					}
					b, err := json.Marshal(map[string]any{keyOf(f): v})
					if err == nil {
						var ans *actions.RasaAnswer
						if ans, err = actions.ParseRasaAnswer(st.Action, nil, b); err == nil {
							for k, o := range ans.Outputs {
								st.Outputs[k] = o
							}
							for _, m := range ans.Messages {
								st.Messages = append(st.Messages, m.ActionMessage())
							}
						}
					}
					if err != nil {
						d.errorf(d.pos(f.Value), CodeWrongType, "%s of stub %q: %v", keyOf(f), key, err)
					}
				default:
					d.unknownKey(f, "stub "+strconv.Quote(key), []string{"error", "events", "outputs", "responses"})
				}
			}
		}
		d.f.Stubs = append(d.f.Stubs, st)
	}
}

// testCase decodes one entry of test_cases.
func (d *decoder) testCase(n ast.Node) *Case {
	pairs, ok := d.mapping(n, "a test case")
	if !ok {
		return nil
	}
	c := &Case{Pos: d.pos(n)}
	var steps ast.Node
	named := false
	for _, mv := range pairs {
		switch keyOf(mv) {
		case "test_case":
			if s, ok := d.scalar(mv.Value, "test_case"); ok {
				c.Name, named = s, true
				c.Pos = d.pos(mv.Key)
			}
		case "fixtures":
			if isNull(mv.Value) {
				continue
			}
			seq, ok := d.sequence(mv.Value, "fixtures of a test case")
			if !ok {
				continue
			}
			for _, item := range seq.Values {
				if s, ok := d.scalar(item, "a fixture name"); ok {
					c.Fixtures = append(c.Fixtures, NameRef{Name: s, Pos: d.pos(item)})
				}
			}
		case "metadata":
			if s, ok := d.scalar(mv.Value, "metadata of a test case"); ok {
				c.Metadata = NameRef{Name: s, Pos: d.pos(mv.Value)}
			}
		case "skip":
			switch x := yamlpos.Unwrap(mv.Value).(type) {
			case *ast.BoolNode:
				c.Skipped = x.Value
			default:
				if s, ok := d.scalar(mv.Value, "skip"); ok {
					c.Skip, c.Skipped = s, true
				}
			}
		case "steps":
			steps = mv.Value
			if steps == nil {
				steps = mv.Key
			}
		default:
			d.unknownKey(mv, "a test case", caseKeys)
		}
	}
	if !named || c.Name == "" {
		d.errorf(c.Pos, CodeMissingField, "test case has no name: add test_case: NAME")
		return nil
	}
	if steps == nil || isNull(steps) {
		d.errorf(c.Pos, CodeMissingField, "test case %q has no steps", c.Name)
		return nil
	}
	seq, ok := d.sequence(steps, "steps of test case "+strconv.Quote(c.Name))
	if !ok {
		return nil
	}
	c.flowStyle = seq.IsFlowStyle
	for i, item := range seq.Values {
		st := d.step(item)
		if st == nil {
			continue
		}
		if !seq.IsFlowStyle && i < len(seq.Entries) && seq.Entries[i] != nil && seq.Entries[i].Start != nil && seq.Entries[i].Start.Position != nil {
			p := seq.Entries[i].Start.Position
			st.entry = diag.Pos{File: d.f.Path, Line: p.Line, Col: p.Column}
		}
		c.Steps = append(c.Steps, st)
	}
	if len(seq.Values) == 0 {
		d.errorf(c.Pos, CodeMissingField, "test case %q has no steps", c.Name)
	}
	var turn *Turn
	for _, st := range c.Steps {
		if st.Kind == StepUser {
			turn = &Turn{Index: len(c.Turns) + 1, User: st}
			c.Turns = append(c.Turns, turn)
			continue
		}
		if turn == nil {
			d.errorf(st.Pos, CodeCheckBeforeUser, "%s step before the first user step of test case %q: checks test the turn of the user step above them", st.Kind, c.Name)
			continue
		}
		turn.Checks = append(turn.Checks, st)
	}
	return c
}

// step decodes one step.
func (d *decoder) step(n ast.Node) *Step {
	pairs, ok := d.mapping(n, "a step")
	if !ok {
		return nil
	}
	var main *ast.MappingValueNode
	var commands, assertions, ordered, metadata *ast.MappingValueNode
	bad := false
	for _, mv := range pairs {
		key := keyOf(mv)
		switch {
		case key == "commands":
			commands = mv
		case key == "assertions":
			assertions = mv
		case key == "assertion_order_enabled":
			ordered = mv
		case key == "metadata":
			metadata = mv
		case isStepKind(key) || key == "utter":
			// Rasa's older utter step names the response of the next
			// reply, as bot_response does.
			if main != nil {
				d.errorf(d.pos(mv.Key), CodeUnknownKey, "step has both %q and %q: write one step per list item", keyOf(main), key)
				bad = true
				continue
			}
			main = mv
		default:
			d.unknownKey(mv, "a step", stepKeys)
			bad = true
		}
	}
	if main == nil {
		if !bad {
			d.errorf(d.pos(n), CodeMissingField, "step has no kind: use one of %s", strings.Join(stepKeys[1:], ", "))
		}
		return nil
	}
	st := &Step{Kind: StepKind(keyOf(main)), Pos: d.pos(main.Key), value: refOf(main.Value)}
	if st.Kind == "utter" {
		st.Kind = StepBotResponse
	}
	switch x := yamlpos.Unwrap(n).(type) {
	case *ast.MappingNode:
		st.inFlow = x.IsFlowStyle
	case *ast.MappingValueNode:
		st.inFlow = x.IsFlowStyle
	}
	if commands != nil && st.Kind != StepUser {
		d.errorf(d.pos(commands.Key), CodeUnknownKey, "commands belongs to a user step, not to a %s step", st.Kind)
		bad = true
	}
	for _, mv := range []*ast.MappingValueNode{assertions, ordered, metadata} {
		if mv != nil && st.Kind != StepUser {
			d.errorf(d.pos(mv.Key), CodeUnknownKey, "%s belongs to a user step, not to a %s step", keyOf(mv), st.Kind)
			bad = true
		}
	}
	if st.Kind == StepUser && !bad {
		d.rasaUserStep(st, assertions, ordered, metadata)
	}
	what := string(st.Kind)
	switch st.Kind {
	case StepUser, StepBot, StepBotMatches:
		s, ok := d.scalar(main.Value, what)
		if !ok {
			return nil
		}
		st.Text = s
		if st.Kind == StepBotMatches {
			re, err := regexp.Compile(s)
			if err != nil {
				d.errorf(d.pos(main.Value), CodeBadRegex, "bot_matches %q is not a valid regular expression: %s", s, regexpReason(err))
				return nil
			}
			st.Regexp = re
		}
		if commands != nil && st.Kind == StepUser {
			st.Commands = d.commands(st, commands.Value)
		}
	case StepSlotWasSet, StepSlotWasNotSet:
		st.Slots = d.slotList(main.Value, what, false)
		for _, s := range st.Slots {
			st.refs = append(st.refs, ref{kind: "slot", name: s.Slot, pos: s.Pos})
		}
	case StepBotResponse:
		s, ok := d.scalar(main.Value, what)
		if !ok {
			return nil
		}
		st.Text = s
		st.refs = append(st.refs, ref{kind: "response", name: s, pos: d.pos(main.Value)})
	case StepFlowStarted, StepFlowCompleted, StepFlowCancelled, StepActionExecuted:
		s, ok := d.scalar(main.Value, what)
		if !ok {
			return nil
		}
		st.Text = s
		kind := "flow"
		if st.Kind == StepActionExecuted {
			kind = "action"
		}
		st.refs = append(st.refs, ref{kind: kind, name: s, pos: d.pos(main.Value)})
	}
	if bad {
		return nil
	}
	return st
}

func isStepKind(key string) bool {
	for _, k := range stepKinds {
		if string(k) == key {
			return true
		}
	}
	return false
}

// regexpReason is the reason part of a regexp error.
func regexpReason(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return se.Code.String() + ": " + strconv.Quote(se.Expr)
	}
	return err.Error()
}

// slotList decodes a list of NAME or {NAME: VALUE} (a single mapping is
// accepted for the list). withValues says the entries are presets.
func (d *decoder) slotList(n ast.Node, what string, withValues bool) []SlotValue {
	var items []ast.Node
	switch x := yamlpos.Unwrap(n).(type) {
	case *ast.SequenceNode:
		items = x.Values
	case *ast.MappingNode, *ast.MappingValueNode:
		items = []ast.Node{x}
	case *ast.StringNode:
		items = []ast.Node{x}
	default:
		d.errorf(d.pos(n), CodeWrongType, "%s must be a list of slot names or {slot: value} mappings, not %s", what, yamlpos.KindWord(n))
		return nil
	}
	if _, ok := yamlpos.Unwrap(n).(*ast.StringNode); ok && withValues {
		d.errorf(d.pos(n), CodeWrongType, "%s must be a list of {slot: value} mappings, not a string", what)
		return nil
	}
	var out []SlotValue
	for _, item := range items {
		switch x := yamlpos.Unwrap(item).(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			pairs, _ := d.mapping(x, what)
			for _, mv := range pairs {
				v, ok := d.value(mv.Value)
				if !ok {
					continue
				}
				out = append(out, SlotValue{Slot: keyOf(mv), Value: v, HasValue: true, Pos: d.pos(mv.Key)})
			}
		default:
			s, ok := yamlpos.ScalarText(item)
			if !ok {
				d.errorf(d.pos(item), CodeWrongType, "an entry of %s must be a slot name or a {slot: value} mapping, not %s", what, yamlpos.KindWord(item))
				continue
			}
			out = append(out, SlotValue{Slot: s, Pos: d.pos(item)})
		}
	}
	return out
}

// commands decodes a user step's commands into vm commands.
func (d *decoder) commands(st *Step, n ast.Node) []vm.Command {
	cmds := []vm.Command{}
	if isNull(n) {
		return cmds
	}
	seq, ok := d.sequence(n, "commands")
	if !ok {
		return cmds
	}
	for _, item := range seq.Values {
		if name, ok := yamlpos.Unwrap(item).(*ast.StringNode); ok {
			cmds = d.command(st, cmds, name.Value, nil, d.pos(item))
			continue
		}
		pairs, ok := d.mapping(item, "a command")
		if !ok {
			continue
		}
		for _, mv := range pairs {
			cmds = d.command(st, cmds, keyOf(mv), mv.Value, d.pos(mv.Key))
		}
	}
	return cmds
}

// command decodes one command with its argument (nil for none).
func (d *decoder) command(st *Step, cmds []vm.Command, kind string, arg ast.Node, pos diag.Pos) []vm.Command {
	switch vm.CommandKind(kind) {
	case vm.CmdChitchat:
		// chitchat, or chitchat: KIND (greet, thanks, goodbye, wait, ack).
		if isNull(arg) {
			return append(cmds, vm.Command{Kind: vm.CmdChitchat})
		}
		s, ok := d.scalar(arg, "chitchat's kind of small talk")
		if !ok {
			return cmds
		}
		if !ir.IsSmallTalkKind(s) {
			dg := d.errorf(d.pos(arg), CodeWrongType, "chitchat: unknown kind of small talk %q", s)
			dg.Suggestion = "kinds: " + strings.Join(ir.SmallTalkKinds, ", ")
			return cmds
		}
		return append(cmds, vm.Command{Kind: vm.CmdChitchat, SmallTalk: s})
	case vm.CmdCancelFlow, vm.CmdAffirm, vm.CmdDeny, vm.CmdFallback, vm.CmdHandoff, vm.CmdHelp, vm.CmdRepeat, vm.CmdSkipQuestion:
		if !isNull(arg) {
			d.errorf(d.pos(arg), CodeWrongType, "command %s takes no value", kind)
			return cmds
		}
		return append(cmds, vm.Command{Kind: vm.CommandKind(kind)})
	case vm.CmdStartFlow:
		if arg == nil {
			d.errorf(pos, CodeWrongType, "start_flow needs a flow: write start_flow: NAME")
			return cmds
		}
		if s, ok := yamlpos.ScalarText(arg); ok {
			st.refs = append(st.refs, ref{kind: "flow", name: s, pos: d.pos(arg)})
			return append(cmds, vm.Command{Kind: vm.CmdStartFlow, Flow: s})
		}
		pairs, ok := d.mapping(arg, "start_flow")
		if !ok {
			return cmds
		}
		c := vm.Command{Kind: vm.CmdStartFlow}
		var slots []SlotValue
		for _, mv := range pairs {
			switch keyOf(mv) {
			case "flow":
				if s, ok := d.scalar(mv.Value, "start_flow's flow"); ok {
					c.Flow = s
					st.refs = append(st.refs, ref{kind: "flow", name: s, pos: d.pos(mv.Value)})
				}
			case "slots":
				if isNull(mv.Value) {
					continue
				}
				if _, ok := d.mapping(mv.Value, "start_flow's slots"); !ok {
					continue
				}
				slots = d.slotList(mv.Value, "start_flow's slots", true)
			default:
				d.unknownKey(mv, "start_flow", []string{"flow", "slots"})
			}
		}
		if c.Flow == "" {
			d.errorf(pos, CodeMissingField, "start_flow needs a flow: write {start_flow: {flow: NAME, slots: {...}}}")
			return cmds
		}
		for _, s := range slots {
			c.Slots = append(c.Slots, vm.SlotValue{Slot: s.Slot, Value: s.Value})
			st.refs = append(st.refs, ref{kind: "slot", name: s.Slot, flow: c.Flow, pos: s.Pos})
		}
		return append(cmds, c)
	case vm.CmdClarify:
		seq, ok := d.sequence(arg, "clarify")
		if !ok {
			return cmds
		}
		c := vm.Command{Kind: vm.CmdClarify}
		for _, item := range seq.Values {
			if s, ok := d.scalar(item, "a flow of clarify"); ok {
				c.Flows = append(c.Flows, s)
				st.refs = append(st.refs, ref{kind: "flow", name: s, pos: d.pos(item)})
			}
		}
		return append(cmds, c)
	case vm.CmdSetSlot, vm.CmdCorrectSlot:
		if arg == nil || isNull(arg) {
			d.errorf(pos, CodeWrongType, "%s needs a slot and a value: write {%s: {SLOT: VALUE}}", kind, kind)
			return cmds
		}
		if _, ok := d.mapping(arg, kind); !ok {
			return cmds
		}
		for _, s := range d.slotList(arg, kind, true) {
			st.refs = append(st.refs, ref{kind: "slot", name: s.Slot, pos: s.Pos})
			cmds = append(cmds, vm.Command{Kind: vm.CommandKind(kind), Slot: s.Slot, Value: s.Value})
		}
		return cmds
	}
	dg := d.errorf(pos, CodeUnknownCommand, "unknown command %q", kind)
	if s := suggest.Closest(kind, commandKeys); s != "" {
		dg.Suggestion = fmt.Sprintf("did you mean %q?", s)
	} else {
		dg.Suggestion = "commands: " + strings.Join(commandKeys, ", ")
	}
	return cmds
}
