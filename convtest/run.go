package convtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

// Status is the outcome of a test case.
type Status string

// The outcomes of a test case.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// Report is the outcome of a run, in file order and then case order,
// whatever order the cases ran in.
type Report struct {
	Files []*FileReport
	// Passed, Failed and Skipped count the cases.
	Passed, Failed, Skipped int
	// Coverage holds, per project, which steps the cases reached.
	Coverage []*ProjectCoverage
}

// FileReport is the outcome of the cases of one test file.
type FileReport struct {
	Path     string
	Cases    []*CaseResult
	Duration time.Duration
	target   *Target
}

// CaseResult is the outcome of one test case.
type CaseResult struct {
	File   string
	Name   string
	Pos    diag.Pos
	Status Status
	// Skip is the reason a skipped case gave.
	Skip     string
	Duration time.Duration
	// Failures holds one entry per failing turn, in turn order; the first
	// is where the case failed.
	Failures []*Failure

	c *Case
	// replies holds the actual replies of each turn that ran.
	replies [][]string
}

// Failure says how one turn of a case failed.
type Failure struct {
	// Turn counts the case's turns from 1; User is the user message.
	Turn int
	User string
	// Pos is the position of the failing step (the user step when the
	// turn produced more replies than expected or failed to run).
	Pos diag.Pos
	// Expected and Actual are the turn's replies: Expected as the bot and
	// bot_matches steps give them (a bot_matches step that did not match
	// shows as its pattern between slashes).
	Expected, Actual []string
	// Diff is a unified diff of Expected against Actual, or "" when the
	// replies matched.
	Diff string
	// Problems are the checks other than replies that failed, one line
	// each: a slot that was not set, an event that did not happen, an
	// action with no stub.
	Problems []string
	// Events are what happened during the turn.
	Events []vm.Event
	// Metadata is the session's metadata after the turn (what the case
	// and its steps sent), or nil.
	Metadata map[string]any
	// conv tells the conversation slots, which the report names without
	// the flow that happened to set them.
	conv func(slot string) bool
	// defaultPattern reports whether a flow is soni's default flow of a
	// pattern (the project defines no flow of that name).
	defaultPattern func(flow string) bool
	// Error is the runtime error that stopped the turn, if any.
	Error string
}

// Header is the failure's first line: file:line: test case NAME failed at
// turn N ("message").
func (f *Failure) Header(caseName string) string {
	return fmt.Sprintf("%s: test case %s failed at turn %d (%q)", lineOf(f.Pos), caseName, f.Turn, f.User)
}

// lineOf renders a position as file:line.
func lineOf(p diag.Pos) string {
	return diag.Pos{File: p.File, Line: p.Line}.String()
}

// job is one case to run.
type job struct {
	file, index int
}

// Run runs every case of the suite, each as a new conversation, on a pool
// of Options.Jobs workers. A case that does not match Options.Run is left
// out of the report; a case marked skip is reported as skipped. The
// context cancels the run: cases not yet finished fail with its error.
func (s *Suite) Run(ctx context.Context) *Report {
	if ctx == nil {
		ctx = context.Background()
	}
	now := s.opts.Now
	if now == nil {
		now = time.Now
	}
	rep := &Report{}
	var jobs []job
	for fi, t := range s.Files {
		fr := &FileReport{Path: t.File.Path, target: t}
		rep.Files = append(rep.Files, fr)
		for _, c := range t.File.Cases {
			if s.opts.Run != nil && !s.opts.Run.MatchString(c.Name) {
				continue
			}
			cr := &CaseResult{File: t.File.Path, Name: c.Name, Pos: c.Pos, c: c}
			fr.Cases = append(fr.Cases, cr)
			if c.Skipped {
				cr.Status, cr.Skip = Skipped, c.Skip
				continue
			}
			jobs = append(jobs, job{fi, len(fr.Cases) - 1})
		}
	}
	stop := s.startServices(ctx, jobs)
	defer stop()
	n := s.opts.Jobs
	if n <= 0 {
		n = runtime.NumCPU()
	}
	n = min(n, max(len(jobs), 1))
	visits := make([]map[*Project]map[vm.StepVisit]bool, n)
	for w := range visits {
		visits[w] = map[*Project]map[vm.StepVisit]bool{}
	}
	inParallel(n, len(jobs), func(w, i int) {
		j := jobs[i]
		t := s.Files[j.file]
		cr := rep.Files[j.file].Cases[j.index]
		seen := visits[w]
		if seen[t.Project] == nil {
			seen[t.Project] = map[vm.StepVisit]bool{}
		}
		start := now()
		runCase(ctx, t, cr, "case-"+strconv.Itoa(j.file)+"-"+strconv.Itoa(j.index), seen[t.Project])
		cr.Duration = now().Sub(start)
	})
	for _, fr := range rep.Files {
		for _, cr := range fr.Cases {
			fr.Duration += cr.Duration
			switch cr.Status {
			case Passed:
				rep.Passed++
			case Failed:
				rep.Failed++
			case Skipped:
				rep.Skipped++
			}
		}
	}
	rep.Coverage = coverage(s.Projects, visits)
	return rep
}

// caseRunner runs the actions of one test case: it answers from the
// case's stubs, then the file's, then runs declared actions with a run:
// block through the project's fallback runner. It is given to each turn as
// vm.Input.Actions.
type caseRunner struct {
	stubs     map[string]*Stub
	fileStubs map[string]*Stub
	// vstubs and fileVstubs answer the named validators.
	vstubs     map[string]*Stub
	fileVstubs map[string]*Stub
	fallback   vm.ActionRunner
	// missing says, for each action or validator of the current turn
	// that had neither a stub nor a runner, what to add. A case runs its
	// turns one after another, so no lock is needed.
	missing []string
}

// RunAction runs one action of the case.
func (r *caseRunner) RunAction(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
	st := r.stubs[req.Action]
	if st == nil {
		st = r.fileStubs[req.Action]
	}
	if st != nil {
		if st.Fails {
			return nil, errors.New(st.Error)
		}
		for _, m := range st.Messages {
			req.Say(m)
		}
		return st.Outputs, nil
	}
	if r.fallback != nil && req.Decl != nil && req.Decl.Run != nil {
		return r.fallback.RunAction(ctx, req)
	}
	r.missing = append(r.missing, fmt.Sprintf("action %q has no stub and no run: block: add it to stub_custom_actions", req.Action))
	return nil, fmt.Errorf("action %q has no stub and no run: block", req.Action)
}

// RunValidator runs one named validator of the case: its stub (case,
// then file), else a declared validator with a run: block through the
// project's fallback runner.
func (r *caseRunner) RunValidator(ctx context.Context, req vm.ValidatorRequest) (vm.Verdict, error) {
	st := r.vstubs[req.Validator]
	if st == nil {
		st = r.fileVstubs[req.Validator]
	}
	if st != nil {
		if st.Fails {
			return vm.Verdict{}, errors.New(st.Error)
		}
		v := vm.Verdict{Value: st.Outputs["value"]}
		v.Valid, _ = st.Outputs["valid"].(bool)
		v.Message, _ = st.Outputs["message"].(string)
		return v, nil
	}
	if vr, ok := r.fallback.(vm.ValidatorRunner); ok && req.Decl != nil && req.Decl.Run != nil {
		return vr.RunValidator(ctx, req)
	}
	r.missing = append(r.missing, fmt.Sprintf("validator %q has no stub and no run: block: add it to stub_validators", req.Validator))
	return vm.Verdict{}, fmt.Errorf("validator %q has no stub and no run: block", req.Validator)
}

// noCaseValidator is the engine's default validator runner, which no turn
// of a case uses.
func noCaseValidator(_ context.Context, req vm.ValidatorRequest) (vm.Verdict, error) {
	return vm.Verdict{}, fmt.Errorf("validator %q called outside a test case", req.Validator)
}

// noCaseRunner is the engine's default runner, which no turn of a case
// uses: each gives its case's runner.
func noCaseRunner(_ context.Context, req vm.ActionRequest) (map[string]any, error) {
	return nil, fmt.Errorf("action %q called outside a test case", req.Action)
}

// runCase runs one case, as the conversation session, and fills in its
// result.
func runCase(ctx context.Context, t *Target, cr *CaseResult, session string, seen map[vm.StepVisit]bool) {
	c := cr.c
	p := t.Project
	eng := p.engine
	fallback := p.fallback
	if t.fallback != nil {
		fallback = t.fallback
	}
	runner := &caseRunner{stubs: t.caseStubs[c.Name], fileStubs: t.stubs, vstubs: t.caseVstubs[c.Name], fileVstubs: t.vstubs, fallback: fallback}
	defer func() { _ = eng.Reset(context.WithoutCancel(ctx), session) }()
	cr.Status = Passed
	fail := func(turn *Turn, err error) {
		cr.Failures = append(cr.Failures, &Failure{Turn: turn.Index, User: turn.User.Text, Pos: turn.User.Pos, Error: err.Error()})
		cr.Status = Failed
	}
	if t.serviceErr != nil && len(c.Turns) > 0 {
		fail(c.Turns[0], t.serviceErr)
		return
	}
	if len(c.Fixtures) > 0 && len(c.Turns) > 0 {
		// The fixtures are the conversation's state before its first turn.
		slots := map[string]any{}
		for _, fr := range c.Fixtures {
			for _, sv := range t.fixtures[fr.Name].Slots {
				slots[sv.Slot] = sv.Value
			}
		}
		if err := eng.Seed(ctx, session, slots); err != nil {
			fail(c.Turns[0], fmt.Errorf("fixtures: %w", err))
			return
		}
	}
	cr.replies = make([][]string, 0, len(c.Turns))
	for _, turn := range c.Turns {
		runner.missing = runner.missing[:0]
		in := vm.Input{Text: turn.User.Text, Commands: turn.User.Commands, Actions: runner, Validators: runner, Metadata: metadataOf(t.File, c, turn.User), Now: t.File.Now, Variations: true}
		res, err := eng.Handle(ctx, session, in)
		if err != nil {
			fail(turn, err)
			return
		}
		cr.replies = append(cr.replies, res.Replies)
		for _, v := range res.Visited {
			seen[v] = true
		}
		if f := checkTurn(p.Program, turn, res.Result, runner.missing); f != nil {
			cr.Failures = append(cr.Failures, f)
			cr.Status = Failed
		}
	}
}

// checkTurn compares one turn's result with the turn's check steps. It
// returns nil when every check passed.
func checkTurn(prog *ir.Program, turn *Turn, res *vm.Result, missing []string) *Failure {
	// f stays on the stack until a check fails: most turns pass.
	var expectedArr [4]string
	expected := expectedArr[:0]
	f := Failure{Turn: turn.Index, User: turn.User.Text, Actual: res.Replies, Events: res.Events}
	// The failure is reported at the first failing step in file order,
	// whichever check found it.
	var firstBad diag.Pos
	fail := func(p diag.Pos) {
		if !firstBad.IsValid() || p.Line < firstBad.Line || (p.Line == firstBad.Line && p.Col < firstBad.Col) {
			firstBad = p
		}
	}
	// Replies: strict, in order, once the turn lists any. A turn with no
	// bot or bot_matches step does not check its replies at all (the
	// spec's own example checks only a slot after "Ana", whose turn asks
	// the next question).
	i := 0
	replyBad := false
	checksReplies := hasReplySteps(turn)
	for _, st := range turn.Checks {
		if !isReplyStep(st.Kind) {
			continue
		}
		var got string
		have := i < len(res.Replies)
		if have {
			got = res.Replies[i]
		}
		switch {
		case st.Kind == StepBot:
			if have && got != st.Text && slices.Contains(res.Message(i).Variations, st.Text) {
				// Another variation of the response said here.
				expected = append(expected, got)
				break
			}
			expected = append(expected, st.Text)
			if !have || got != st.Text {
				replyBad = true
				fail(st.Pos)
			}
		case st.Kind == StepBotResponse:
			if have && res.Message(i).Response == st.Text {
				expected = append(expected, got)
				break
			}
			expected = append(expected, "(response "+st.Text+")")
			replyBad = true
			fail(st.Pos)
		case have && st.Regexp.MatchString(got):
			expected = append(expected, got)
		default:
			expected = append(expected, "/"+st.Text+"/")
			replyBad = true
			fail(st.Pos)
		}
		i++
	}
	if checksReplies && i < len(res.Replies) {
		replyBad = true
		fail(turn.User.Pos)
	}
	if replyBad {
		f.Diff = UnifiedDiff("expected", "actual", expected, f.Actual)
	}
	for _, st := range turn.Checks {
		if p := checkEvents(prog, st, res); len(p) > 0 {
			f.Problems = append(f.Problems, p...)
			fail(st.Pos)
		}
	}
	// Rasa's assertions: each one like the check step of its kind; with
	// assertion_order_enabled, also in the order given.
	bad := false
	for _, st := range turn.User.Assertions {
		if p := checkEvents(prog, st, res); len(p) > 0 {
			f.Problems = append(f.Problems, p...)
			fail(st.Pos)
			bad = true
		}
	}
	if turn.User.Ordered && !bad {
		if st, p := checkOrder(prog, turn.User.Assertions, res); p != "" {
			f.Problems = append(f.Problems, p)
			fail(st.Pos)
		}
	}
	for _, a := range missing {
		f.Problems = append(f.Problems, a)
		fail(turn.User.Pos)
	}
	if !firstBad.IsValid() {
		return nil
	}
	out := f
	out.Pos = firstBad
	if len(expected) > 0 {
		out.Expected = slices.Clone(expected)
	}
	out.conv = func(slot string) bool { return prog.Slot(slot) != nil }
	out.defaultPattern = func(flow string) bool {
		f := prog.Flow(flow)
		return ir.IsPattern(flow) && (f == nil || f.Builtin)
	}
	if res.State != nil && len(res.State.Metadata) > 0 {
		out.Metadata = res.State.Metadata
	}
	return &out
}

// hasReplySteps tells whether the turn lists any bot or bot_matches step,
// that is, whether its replies are checked.
func hasReplySteps(t *Turn) bool {
	for _, st := range t.Checks {
		if isReplyStep(st.Kind) {
			return true
		}
	}
	return false
}

// isReplyStep reports whether a step checks the next reply of the turn.
func isReplyStep(k StepKind) bool {
	return k == StepBot || k == StepBotMatches || k == StepBotResponse
}

// uttered reports whether reply j of the turn satisfies a bot_uttered
// assertion: its response name, text and buttons, as far as it gives them.
func uttered(st *Step, res *vm.Result, j int) bool {
	u := res.Message(j)
	switch {
	case st.Response != "" && u.Response != st.Response:
		return false
	case st.Regexp != nil && !st.Regexp.MatchString(u.Text):
		return false
	case st.HasButtons && !slices.Equal(st.Buttons, u.Buttons):
		return false
	}
	return true
}

// forbidden says why a reply breaks a bot_did_not_utter assertion, or
// "": as in Rasa, the reply breaks it when it was said from the response,
// or matches the regular expression, or has one of the buttons, each on
// its own.
func forbidden(st *Step, u vm.Utterance) string {
	switch {
	case st.Response != "" && u.Response == st.Response:
		return "was said from " + st.Response
	case st.Regexp != nil && st.Regexp.MatchString(u.Text):
		return "matches /" + st.Text + "/"
	}
	for _, b := range u.Buttons {
		if slices.Contains(st.Buttons, b) {
			return fmt.Sprintf("has the button %q (%s)", b.Title, b.Payload)
		}
	}
	return ""
}

// buttonList shows buttons for a message.
func buttonList(bs []ir.Button) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = fmt.Sprintf("%q (%s)", b.Title, b.Payload)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// replyList shows the turn's replies with their response names.
func replyList(res *vm.Result) string {
	var out []string
	for j, r := range res.Replies {
		s := strconv.Quote(r)
		if u := res.Message(j); u.Response != "" {
			s += " (" + u.Response + ")"
		}
		out = append(out, s)
	}
	return listOrNone(out)
}

// checkEvents runs one non-reply check step (or assertion) against the
// turn's events and replies and returns what failed.
func checkEvents(prog *ir.Program, st *Step, res *vm.Result) []string {
	events := res.Events
	switch st.Kind {
	case StepBotUttered:
		for j := range res.Replies {
			if uttered(st, res, j) {
				return nil
			}
		}
		return []string{fmt.Sprintf("%s: no reply of the turn matches (replies: %s)", describe(st), replyList(res))}
	case StepBotDidNotUtter:
		var out []string
		for j := range res.Replies {
			if why := forbidden(st, res.Message(j)); why != "" {
				out = append(out, fmt.Sprintf("%s: reply %q %s", describe(st), res.Replies[j], why))
			}
		}
		return out
	case StepClarification:
		return checkClarification(prog, st, res)
	case StepSlotWasSet, StepSlotWasNotSet:
		var out []string
		for _, sv := range st.Slots {
			if p := checkSlot(prog, st.Kind, sv, events); p != "" {
				out = append(out, p)
			}
		}
		return out
	case StepFlowStarted, StepFlowCompleted, StepFlowCancelled:
		typ := vm.EventType(st.Kind)
		var names []string
		for _, e := range events {
			if e.Type == typ {
				if e.Flow == st.Text && (st.FlowStepID == "" || e.Step == st.FlowStepID) {
					return nil
				}
				names = append(names, e.Flow)
				if st.FlowStepID != "" {
					names[len(names)-1] += " at step " + e.Step
				}
			}
		}
		verb := strings.TrimPrefix(string(st.Kind), "flow_")
		if st.FlowStepID != "" {
			return []string{fmt.Sprintf("%s: flow %q was not %s at step %q during the turn (flows %s: %s)", st.Kind, st.Text, verb, st.FlowStepID, verb, listOrNone(names))}
		}
		return []string{fmt.Sprintf("%s: flow %q was not %s during the turn (flows %s: %s)", st.Kind, st.Text, verb, verb, listOrNone(names))}
	case StepActionExecuted:
		// Any success passes, even after a failure in the same turn (a
		// retry); otherwise the first failure says why.
		var names []string
		var failure *vm.Event
		for i, e := range events {
			switch {
			case e.Type == vm.EventActionExecuted && e.Action == st.Text:
				return nil
			case e.Type == vm.EventActionFailed && e.Action == st.Text && failure == nil:
				failure = &events[i]
			case e.Type == vm.EventActionExecuted:
				names = append(names, e.Action)
			}
		}
		if failure != nil {
			return []string{fmt.Sprintf("action_executed: action %q failed: %s", st.Text, failure.Error)}
		}
		return []string{fmt.Sprintf("action_executed: action %q was not executed during the turn (actions executed: %s)", st.Text, listOrNone(names))}
	}
	return nil
}

// checkOrder checks assertion_order_enabled: each assertion must hold
// after the one before it, on the turn's timeline of events and replies
// (as Rasa slices the turn's events after each match). It returns the
// first assertion out of order and why. slot_was_not_set and
// bot_did_not_utter have no place in the timeline and are skipped.
func checkOrder(prog *ir.Program, asserts []*Step, res *vm.Result) (*Step, string) {
	after := -1
	var prev *Step
	for _, st := range asserts {
		if st.Kind == StepSlotWasNotSet || st.Kind == StepBotDidNotUtter {
			continue
		}
		at, ok := firstAfter(st, res, after)
		if !ok {
			if prev == nil {
				return st, fmt.Sprintf("assertion order: %s did not happen during the turn", describe(st))
			}
			return st, fmt.Sprintf("assertion order: %s did not happen after %s (assertion_order_enabled is true)", describe(st), describe(prev))
		}
		after, prev = at, st
	}
	return nil, ""
}

// firstAfter finds where on the turn's timeline an assertion first holds
// after position after. The timeline merges the turn's events and replies
// in the order they happened, each at its own place: event i is at i plus
// the number of replies said before it, reply j at the number of events
// before it plus j. Two replies in a row are two places, so two
// bot_uttered assertions in a row can both hold in order. slot_was_set
// holds when its last slot is set.
func firstAfter(st *Step, res *vm.Result, after int) (int, bool) {
	// repliesBefore counts the replies said before event i.
	repliesBefore := func(i int) int {
		n := 0
		for j := range res.Replies {
			if j < len(res.ReplyEvents) && res.ReplyEvents[j] <= i {
				n++
			}
		}
		return n
	}
	event := func(match func(vm.Event) bool) (int, bool) {
		for i, e := range res.Events {
			if at := i + repliesBefore(i); at > after && match(e) {
				return at, true
			}
		}
		return 0, false
	}
	switch st.Kind {
	case StepBotUttered:
		for j := range res.Replies {
			at := j
			if j < len(res.ReplyEvents) {
				at += res.ReplyEvents[j]
			}
			if at > after && uttered(st, res, j) {
				return at, true
			}
		}
		return 0, false
	case StepFlowStarted, StepFlowCompleted, StepFlowCancelled:
		return event(func(e vm.Event) bool {
			return e.Type == vm.EventType(st.Kind) && e.Flow == st.Text && (st.FlowStepID == "" || e.Step == st.FlowStepID)
		})
	case StepActionExecuted:
		return event(func(e vm.Event) bool { return e.Type == vm.EventActionExecuted && e.Action == st.Text })
	case StepClarification:
		return event(func(e vm.Event) bool { return e.Type == vm.EventFlowStarted && e.Flow == ir.PatternClarification })
	case StepSlotWasSet:
		last := after
		for _, sv := range st.Slots {
			at, ok := event(func(e vm.Event) bool {
				if e.Type == vm.EventSlotReset {
					return e.Slot == sv.Slot && sv.HasValue && sv.Value == nil
				}
				return e.Type == vm.EventSlotSet && e.Slot == sv.Slot && (!sv.HasValue || looseEqual(sv.Value, e.New))
			})
			if !ok {
				return 0, false
			}
			last = max(last, at)
		}
		return last, true
	}
	return after, true
}

// looseEqual compares an expected value from a test file with a slot
// value for ordering, as the slot checks do for a value of unknown type.
func looseEqual(want, got any) bool {
	ok, err := sameValue(nil, want, got)
	return err == nil && ok
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// checkSlot checks one entry of slot_was_set or slot_was_not_set.
func checkSlot(prog *ir.Program, kind StepKind, sv SlotValue, events []vm.Event) string {
	var sets []vm.Event
	for _, e := range events {
		// A flow slot that went out of scope with its flow (slot_reset)
		// was set to null, as Rasa resets it.
		if (e.Type == vm.EventSlotSet || e.Type == vm.EventSlotReset) && e.Slot == sv.Slot {
			sets = append(sets, e) // a reset's New is nil
		}
	}
	matches := 0
	for _, e := range sets {
		if !sv.HasValue {
			if e.New != nil {
				matches++
			}
			continue
		}
		ok, err := sameValue(prog.ResolveSlot(e.Flow, sv.Slot), sv.Value, e.New)
		if err != nil {
			return fmt.Sprintf("%s: %s", kind, err)
		}
		if ok {
			matches++
		}
	}
	want := "set"
	if sv.HasValue {
		want = "set to " + show(sv.Value)
	}
	switch {
	case kind == StepSlotWasSet && matches == 0:
		if len(sets) == 0 {
			return fmt.Sprintf("slot_was_set: slot %q was not set during the turn", sv.Slot)
		}
		return fmt.Sprintf("slot_was_set: slot %q was not %s; it was set to %s", sv.Slot, want, showSets(sets))
	case kind == StepSlotWasNotSet && matches > 0:
		return fmt.Sprintf("slot_was_not_set: slot %q was %s during the turn", sv.Slot, want)
	}
	return ""
}

// show renders a value for a message: strings quoted, others as text.
func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "null (cleared)"
	case string:
		return fmt.Sprintf("%q", x)
	}
	return tmpl.Format(v)
}

func showSets(sets []vm.Event) string {
	parts := make([]string, len(sets))
	for i, e := range sets {
		parts[i] = show(e.New)
	}
	return strings.Join(parts, ", then ")
}

// sameValue compares an expected value, as written in the test, with the
// value a slot was set to, by the slot's type: the expected value is
// converted like any value given for the slot (so 50 matches 50.0 for a
// number slot and a synonym matches its categorical value). A null
// expected value matches a cleared slot. For slots of type any, numbers
// compare by value and other scalars by their text.
func sameValue(def *ir.Slot, expected, actual any) (bool, error) {
	if expected == nil || actual == nil {
		return expected == nil && actual == nil, nil
	}
	if def != nil && def.Type != ir.TypeAny && def.Type != "" {
		v, err := values.Convert(def, expected)
		if err != nil {
			return false, fmt.Errorf("expected value %s does not fit slot %q of type %s: %s", show(expected), def.Name, def.Type, err)
		}
		expected = v
	}
	if x, ok := values.Float64(expected); ok {
		if y, ok := values.Float64(actual); ok {
			return x == y, nil
		}
	}
	if reflect.DeepEqual(jsonNorm(expected), jsonNorm(actual)) {
		return true, nil
	}
	if isScalar(expected) && isScalar(actual) {
		return tmpl.Format(expected) == tmpl.Format(actual), nil
	}
	return false, nil
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, bool, int, int64, uint64, float64, float32:
		return true
	}
	return false
}

// jsonNorm gives structured values one representation.
func jsonNorm(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// checkClarification checks pattern_clarification_contains: the pattern
// started during the turn, and the flows it offered (the state's clarify
// choice) include each one named, by its name or its name for people.
func checkClarification(prog *ir.Program, st *Step, res *vm.Result) []string {
	started := false
	for _, e := range res.Events {
		started = started || (e.Type == vm.EventFlowStarted && e.Flow == ir.PatternClarification)
	}
	if !started {
		return []string{"pattern_clarification_contains: pattern_clarification did not run during the turn"}
	}
	var offered []string
	if res.State != nil {
		offered = res.State.Clarify
	}
	var out []string
	for _, want := range st.Names {
		found := false
		for _, name := range offered {
			f := prog.Flow(name)
			found = found || name == want || (f != nil && strings.EqualFold(f.Title(), want))
		}
		if !found {
			out = append(out, fmt.Sprintf("pattern_clarification_contains: flow %q was not offered (offered: %s)", want, listOrNone(offered)))
		}
	}
	return out
}
