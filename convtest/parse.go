package convtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/suggest"
	"github.com/soni-dev/soni/ir"
	docs "github.com/soni-dev/soni/syntax"
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

// commandKeys are the commands a user step may give, for did-you-mean
// suggestions.
var commandKeys = []string{string(vm.CmdStartFlow), string(vm.CmdSetSlot), string(vm.CmdCorrectSlot), string(vm.CmdCancelFlow), string(vm.CmdAffirm), string(vm.CmdDeny),
	string(vm.CmdFallback), string(vm.CmdChitchat), string(vm.CmdHandoff), string(vm.CmdHelp), string(vm.CmdRepeat), string(vm.CmdSkipQuestion), string(vm.CmdClarify)}

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
	// Doc is the file as written, which Update edits.
	Doc *docs.TestFile
}

// Fixture is a named set of slot values applied before a case's first turn.
type Fixture = docs.Fixture

// SlotValue is a slot name with an optional value, as slot_was_set,
// slot_was_not_set, fixtures and commands write it.
type SlotValue = docs.SlotValue

// Service is one entry of services: a command that serves the file's
// actions, and the environment variable that receives the URL it prints.
type Service = docs.Service

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
type NameRef = docs.NameRef

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
	// doc is the case as written.
	doc *docs.TestCase
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
	// doc is the step as written (nil for an assertion).
	doc *docs.TestStep
}

// ref is a flow, slot or action name that must exist in the project.
type ref struct {
	kind string // "flow", "slot" or "action"
	name string
	// flow, for a slot given to start_flow, is the flow it belongs to.
	flow string
	pos  diag.Pos
}

// ParseFile parses a test file's bytes. The file is nil when it could not
// be parsed at all; otherwise every problem found is in the list, and a
// file with errors must not run.
func ParseFile(path string, src []byte) (*File, diag.List) {
	return decodeFile(path, src, parseYAML(src))
}

// parseYAML parses a test file's YAML through package syntax, counting
// the parses for the test that each test file is parsed once.
func parseYAML(src []byte) *docs.ParsedTests {
	yamlParses.Add(1)
	return docs.ParseTests(src)
}

// yamlParses counts the calls of parseYAML.
var yamlParses atomic.Int64

// decodeFile decodes a test file parsed by parseYAML: the document as
// written (syntax.DecodeTests), then what runs it: compiled patterns,
// commands, the turns and the names to check against the project.
func decodeFile(path string, src []byte, parsed *docs.ParsedTests) (*File, diag.List) {
	if parsed == nil {
		parsed = parseYAML(src)
	}
	doc, ds := parsed.Decode(path)
	if doc == nil {
		return nil, ds
	}
	b := &builder{p: docs.Problems{Diags: &ds}, workers: runtime.GOMAXPROCS(0)}
	f := b.file(doc, src)
	ds.Sort()
	return f, ds
}

// builder turns a decoded test file into the cases that run, reporting
// what only running needs (patterns, commands, the clock) with the
// positions the document kept.
type builder struct {
	p docs.Problems
	// workers is how many goroutines build a large file's cases.
	workers int
}

func (b *builder) errorf(pos diag.Pos, code, format string, args ...any) *diag.Diagnostic {
	return b.p.Errorf(pos, code, format, args...)
}

// file builds the file.
func (b *builder) file(doc *docs.TestFile, src []byte) *File {
	f := &File{Path: doc.Name, Src: src, Doc: doc, Flows: doc.Flows, FlowsPos: doc.FlowsPos, flowsKey: doc.HasFlows,
		Fixtures: doc.Fixtures, Services: doc.Services}
	if doc.Now != "" || doc.NowPos.IsValid() {
		t, err := values.ParseNow(doc.Now)
		if err != nil {
			b.errorf(doc.NowPos, CodeWrongType, "now: %v", err)
		}
		f.Now = t
	}
	for _, st := range doc.Stubs {
		f.Stubs = append(f.Stubs, b.stub(st))
	}
	for _, vs := range doc.ValidatorStubs {
		st := &Stub{Case: vs.Case, Action: vs.Validator, Pos: vs.Pos, Outputs: map[string]any{}, Error: vs.Error, Fails: vs.Fails}
		if vs.Fails && st.Error == "" {
			st.Error = "stubbed failure"
		}
		if !vs.Fails {
			st.Outputs["valid"] = vs.Valid
		}
		if vs.HasValue {
			st.Outputs["value"] = vs.Value
		}
		if vs.HasMessage {
			st.Outputs["message"] = vs.Message
		}
		f.ValidatorStubs = append(f.ValidatorStubs, st)
	}
	for _, m := range doc.Metadata {
		if f.Metadata == nil {
			f.Metadata = map[string]map[string]any{}
		}
		f.Metadata[m.Name] = m.Value.Go().(map[string]any)
	}
	f.Cases = make([]*Case, len(doc.Cases))
	if len(doc.Cases) < parallelCases || b.workers < 2 {
		for i, dc := range doc.Cases {
			f.Cases[i] = b.testCase(dc)
		}
		return f
	}
	// A large file's cases are built on every core, each with its own
	// list of problems; the lists join in the cases' order, so the
	// problems are the same as one loop's.
	probs := make([]diag.List, len(doc.Cases))
	inParallel(b.workers, len(doc.Cases), func(_, i int) {
		sub := &builder{p: docs.Problems{Diags: &probs[i]}}
		f.Cases[i] = sub.testCase(doc.Cases[i])
	})
	for _, ds := range probs {
		b.p.Diags.Append(ds...)
	}
	return f
}

// parallelCases is the number of cases from which a file's cases are
// built on every core.
const parallelCases = 256

// stub builds a stub of stub_custom_actions. Rasa's stub (events,
// responses) is read as a Rasa action server's answer: slot events are
// outputs, responses are messages.
func (b *builder) stub(ds *docs.Stub) *Stub {
	st := &Stub{Case: ds.Case, Action: ds.Action, Pos: ds.Pos, Outputs: map[string]any{}, Error: ds.Error, Fails: ds.Fails}
	if st.Fails && st.Error == "" {
		st.Error = "stubbed failure"
	}
	if ds.Outputs != nil {
		st.Outputs = ds.Outputs.Go().(map[string]any)
	}
	for _, part := range []struct {
		key string
		v   *docs.Data
	}{{"events", ds.Events}, {"responses", ds.Responses}} {
		if part.v == nil {
			continue
		}
		js, err := json.Marshal(map[string]any{part.key: part.v.Go()})
		if err == nil {
			var ans *actions.RasaAnswer
			if ans, err = actions.ParseRasaAnswer(st.Action, nil, js); err == nil {
				for k, o := range ans.Outputs {
					st.Outputs[k] = o
				}
				for _, m := range ans.Messages {
					st.Messages = append(st.Messages, m.ActionMessage())
				}
			}
		}
		if err != nil {
			b.errorf(part.v.Pos, CodeWrongType, "%s of stub %q: %v", part.key, stubKey(ds.Case, ds.Action), err)
		}
	}
	return st
}

// stubKey is a stub's key as written: ACTION or CASE::ACTION.
func stubKey(c, action string) string {
	if c == "" {
		return action
	}
	return c + "::" + action
}

// testCase builds a case and groups its steps into turns.
func (b *builder) testCase(dc *docs.TestCase) *Case {
	c := &Case{Name: dc.Name, Pos: dc.Pos, Fixtures: dc.Fixtures, Metadata: dc.Metadata, Skip: dc.Skip, Skipped: dc.Skipped, doc: dc}
	for _, ds := range dc.Steps {
		if st := b.step(ds); st != nil {
			c.Steps = append(c.Steps, st)
		}
	}
	var turn *Turn
	for _, st := range c.Steps {
		if st.Kind == StepUser {
			turn = &Turn{Index: len(c.Turns) + 1, User: st}
			c.Turns = append(c.Turns, turn)
			continue
		}
		if turn == nil {
			b.errorf(st.Pos, CodeCheckBeforeUser, "%s step before the first user step of test case %q: checks test the turn of the user step above them", st.Kind, c.Name)
			continue
		}
		turn.Checks = append(turn.Checks, st)
	}
	return c
}

// step builds one step; nil when it cannot run.
func (b *builder) step(ds *docs.TestStep) *Step {
	st := &Step{Kind: StepKind(ds.Kind), Pos: ds.Pos, Text: ds.Text, Slots: ds.Slots, Ordered: ds.Ordered, Metadata: ds.Metadata, doc: ds}
	if st.Kind == "utter" {
		st.Kind = StepBotResponse
	}
	for _, da := range ds.Assertions {
		if a := b.assertion(da); a != nil {
			st.Assertions = append(st.Assertions, a)
			st.refs = append(st.refs, a.refs...)
		}
	}
	switch st.Kind {
	case StepBotMatches:
		re, err := regexp.Compile(st.Text)
		if err != nil {
			b.errorf(ds.TextPos, CodeBadRegex, "bot_matches %q is not a valid regular expression: %s", st.Text, regexpReason(err))
			return nil
		}
		st.Regexp = re
	case StepUser:
		if ds.HasCommands {
			st.Commands = b.commands(st, ds.Commands)
		}
	case StepSlotWasSet, StepSlotWasNotSet:
		for _, s := range st.Slots {
			st.refs = append(st.refs, ref{kind: "slot", name: s.Slot, pos: s.Pos})
		}
	case StepBotResponse:
		st.refs = append(st.refs, ref{kind: "response", name: st.Text, pos: ds.TextPos})
	case StepFlowStarted, StepFlowCompleted, StepFlowCancelled:
		st.refs = append(st.refs, ref{kind: "flow", name: st.Text, pos: ds.TextPos})
	case StepActionExecuted:
		st.refs = append(st.refs, ref{kind: "action", name: st.Text, pos: ds.TextPos})
	}
	return st
}

// regexpReason is the reason part of a regexp error.
func regexpReason(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return se.Code.String() + ": " + strconv.Quote(se.Expr)
	}
	return err.Error()
}

// commands builds a user step's commands into vm commands.
func (b *builder) commands(st *Step, in []*docs.Command) []vm.Command {
	cmds := []vm.Command{}
	for _, c := range in {
		cmds = b.command(st, cmds, c.Kind, c.Arg, c.Pos)
	}
	return cmds
}

// command builds one command with its argument (nil for none).
func (b *builder) command(st *Step, cmds []vm.Command, kind string, arg *docs.Data, pos diag.Pos) []vm.Command {
	switch vm.CommandKind(kind) {
	case vm.CmdChitchat:
		// chitchat, or chitchat: KIND (greet, thanks, goodbye, wait, ack).
		if arg.IsNull() {
			return append(cmds, vm.Command{Kind: vm.CmdChitchat})
		}
		s, ok := b.p.Text(arg, "chitchat's kind of small talk")
		if !ok {
			return cmds
		}
		if !ir.IsSmallTalkKind(s) {
			dg := b.errorf(arg.Pos, CodeWrongType, "chitchat: unknown kind of small talk %q", s)
			dg.Suggestion = "kinds: " + strings.Join(ir.SmallTalkKinds, ", ")
			return cmds
		}
		return append(cmds, vm.Command{Kind: vm.CmdChitchat, SmallTalk: s})
	case vm.CmdCancelFlow, vm.CmdAffirm, vm.CmdDeny, vm.CmdFallback, vm.CmdHandoff, vm.CmdHelp, vm.CmdRepeat, vm.CmdSkipQuestion:
		if !arg.IsNull() {
			b.errorf(arg.Pos, CodeWrongType, "command %s takes no value", kind)
			return cmds
		}
		return append(cmds, vm.Command{Kind: vm.CommandKind(kind)})
	case vm.CmdStartFlow:
		if arg == nil {
			b.errorf(pos, CodeWrongType, "start_flow needs a flow: write start_flow: NAME")
			return cmds
		}
		if arg.IsText() {
			st.refs = append(st.refs, ref{kind: "flow", name: arg.Text, pos: arg.Pos})
			return append(cmds, vm.Command{Kind: vm.CmdStartFlow, Flow: arg.Text})
		}
		entries, ok := b.p.Map(arg, "start_flow")
		if !ok {
			return cmds
		}
		c := vm.Command{Kind: vm.CmdStartFlow}
		var slots []SlotValue
		for _, e := range entries {
			switch e.Key {
			case "flow":
				if s, ok := b.p.Text(e.Value, "start_flow's flow"); ok {
					c.Flow = s
					st.refs = append(st.refs, ref{kind: "flow", name: s, pos: e.Value.Pos})
				}
			case "slots":
				if e.Value.IsNull() {
					continue
				}
				if _, ok := b.p.Map(e.Value, "start_flow's slots"); !ok {
					continue
				}
				slots = b.p.SlotList(e.Value, "start_flow's slots", true)
			default:
				b.p.UnknownKey(e, "start_flow", []string{"flow", "slots"})
			}
		}
		if c.Flow == "" {
			b.errorf(pos, CodeMissingField, "start_flow needs a flow: write {start_flow: {flow: NAME, slots: {...}}}")
			return cmds
		}
		for _, s := range slots {
			c.Slots = append(c.Slots, vm.SlotValue{Slot: s.Slot, Value: s.Value})
			st.refs = append(st.refs, ref{kind: "slot", name: s.Slot, flow: c.Flow, pos: s.Pos})
		}
		return append(cmds, c)
	case vm.CmdClarify:
		items, ok := b.p.List(arg, "clarify")
		if !ok {
			return cmds
		}
		c := vm.Command{Kind: vm.CmdClarify}
		for _, item := range items {
			if s, ok := b.p.Text(item, "a flow of clarify"); ok {
				c.Flows = append(c.Flows, s)
				st.refs = append(st.refs, ref{kind: "flow", name: s, pos: item.Pos})
			}
		}
		return append(cmds, c)
	case vm.CmdSetSlot, vm.CmdCorrectSlot:
		if arg.IsNull() {
			b.errorf(pos, CodeWrongType, "%s needs a slot and a value: write {%s: {SLOT: VALUE}}", kind, kind)
			return cmds
		}
		if _, ok := b.p.Map(arg, kind); !ok {
			return cmds
		}
		for _, s := range b.p.SlotList(arg, kind, true) {
			st.refs = append(st.refs, ref{kind: "slot", name: s.Slot, pos: s.Pos})
			cmds = append(cmds, vm.Command{Kind: vm.CommandKind(kind), Slot: s.Slot, Value: s.Value})
		}
		return cmds
	}
	dg := b.errorf(pos, CodeUnknownCommand, "unknown command %q", kind)
	if s := suggest.Closest(kind, commandKeys); s != "" {
		dg.Suggestion = fmt.Sprintf("did you mean %q?", s)
	} else {
		dg.Suggestion = "commands: " + strings.Join(commandKeys, ", ")
	}
	return cmds
}

// assertion builds one of a user step's assertions; nil when it cannot
// run.
func (b *builder) assertion(da *docs.Assertion) *Step {
	st := &Step{Kind: StepKind(da.Kind), Pos: da.Pos, Text: da.Text, FlowStepID: da.StepID, Names: da.Names, Slots: da.Slots, Response: da.Response}
	switch st.Kind {
	case StepFlowStarted, StepFlowCompleted, StepFlowCancelled:
		st.refs = append(st.refs, ref{kind: "flow", name: da.Text, pos: da.TextPos})
		if da.StepID != "" || da.StepIDPos.IsValid() {
			st.refs = append(st.refs, ref{kind: "step", name: da.StepID, flow: da.Text, pos: da.StepIDPos})
		}
	case StepActionExecuted:
		st.refs = append(st.refs, ref{kind: "action", name: da.Text, pos: da.TextPos})
	case StepSlotWasSet, StepSlotWasNotSet:
		for _, sv := range st.Slots {
			st.refs = append(st.refs, ref{kind: "slot", name: sv.Slot, pos: sv.Pos})
		}
	case StepBotUttered, StepBotDidNotUtter:
		if da.HasTextMatches {
			re, err := regexp.Compile(da.TextMatches)
			if err != nil {
				b.errorf(da.TextMatchesPos, CodeBadRegex, "%s.text_matches %q is not a valid regular expression: %s", da.Kind, da.TextMatches, regexpReason(err))
				return nil
			}
			st.Text, st.Regexp = da.TextMatches, re
		}
		if da.Response != "" || da.ResponsePos.IsValid() {
			st.refs = append(st.refs, ref{kind: "response", name: da.Response, pos: da.ResponsePos})
		}
		if da.HasButtons {
			st.HasButtons = true
			st.Buttons = []ir.Button{}
			for _, bt := range da.Buttons {
				st.Buttons = append(st.Buttons, ir.Button{Title: bt.Title, Payload: bt.Payload})
			}
		}
	}
	return st
}
