package vm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/internal/text"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
	"github.com/soni-dev/soni/values"
)

// run runs the top flow until a step needs input or the stack is empty.
func (t *turn) run() error {
	max := t.m.settings.MaxStepsPerTurn
	for len(t.st.Stack) > 0 {
		top := t.top()
		fr := t.m.flows[top.Flow]
		if fr == nil {
			return fmt.Errorf("flow %q on the stack is not in the program", top.Flow)
		}
		i, ok := fr.index[top.Step]
		if !ok {
			return fmt.Errorf("flow %q has no step %q", top.Flow, top.Step)
		}
		nr := fr.nodes[i]
		if len(top.Uses) > 0 && !fr.pattern {
			// Decisions follow their inputs: a slot this flow's past
			// steps read, changed while it waited, is a correction.
			started, err := t.inputsChanged(len(t.st.Stack) - 1)
			if err != nil {
				return t.runtimeErr(nr, err)
			}
			if started {
				continue
			}
		}
		if t.blocking() != nil {
			if !t.asked {
				if err := t.reask(); err != nil {
					return err
				}
				if t.blocking() == nil {
					continue // its ask_action failed: pattern_internal_error runs
				}
			}
			return nil
		}
		t.steps++
		if t.steps > max {
			return t.runtimeErr(nr, fmt.Errorf("the turn ran more than max_steps_per_turn (%d) steps without waiting for the user: the flow may loop forever", max))
		}
		if err := t.ctx.Err(); err != nil {
			return t.runtimeErr(nr, err)
		}
		t.node = nr
		t.trace(nr.trace)
		t.res.Visited = append(t.res.Visited, StepVisit{Flow: nr.flow.f.Name, Step: nr.n.ID})
		t.recordUses(len(t.st.Stack)-1, nr)
		if err := t.exec(nr); err != nil {
			return err
		}
		if t.err != nil {
			return t.runtimeErr(nr, t.err)
		}
	}
	t.node = nil
	return nil
}

// exec runs one node of the top flow.
func (t *turn) exec(nr *nodeRT) error {
	n := nr.n
	switch n.Kind {
	case ir.KindSay:
		t.sayU(t.utter(nr.msg, nil))
		t.goTo(n.Next)
	case ir.KindCollect:
		sr := t.m.slot(nr.flow, n.Slot)
		if v, ok := t.get(n.Slot); ok && !isBlank(v) && !n.Force && t.valid(sr, nr, v) {
			t.goTo(n.Next)
			return nil
		}
		if raw, ok := t.takeHeld(nr.flow.f.Name, n.Slot); ok {
			// A value a start_flow gave for this called flow's slot is
			// the answer to this question: validated as one.
			v, err := t.check(sr, []*nodeRT{nr}, raw)
			if err == nil {
				t.store(sr, v)
				t.goTo(n.Next)
				return nil
			}
			t.trace("held value for slot " + n.Slot + " is invalid: " + err.Error())
			t.sayU(t.invalidMessage(nr, sr, err, raw))
		}
		return t.ask(nr, 0)
	case ir.KindConfirm:
		return t.ask(nr, 0)
	case ir.KindSet:
		if nr.cond != nil && !t.test(nr.cond, nil, false) {
			t.goTo(n.Next)
			return nil
		}
		for i := range nr.assigns {
			t.assign(nr, &nr.assigns[i])
		}
		t.goTo(n.Next)
	case ir.KindBranch:
		var v any
		if nr.eval != nil {
			v = t.test(nr.eval, nil, false)
		} else {
			v, _ = t.get(n.Slot)
		}
		for _, c := range n.Cases {
			if matchPattern(c.Pattern, v) {
				t.trace(t.where() + "case " + strconv.Quote(c.Pattern) + " matches " + quoteShort(v))
				t.goTo(c.Target)
				return nil
			}
		}
		t.goTo(n.Next)
	case ir.KindWhile:
		switch {
		case t.test(nr.cond, nil, false) && n.Body != nil:
			t.goTo(*n.Body)
		case n.Exit != nil:
			t.goTo(*n.Exit)
		default:
			t.goTo(n.Next)
		}
	case ir.KindAction:
		if ok, err := t.builtinAction(nr); ok {
			return err
		}
		return t.action(nr)
	case ir.KindLink:
		target := t.m.flows[n.Target]
		var ctx map[string]any
		if target.pattern {
			// A pattern started by a link (an override of pattern_chitchat
			// to pattern_cannot_handle) gets its context as when soni
			// starts it, computed while the linking flow is still on the
			// stack.
			ctx = t.patternContext(target.f.Name)
		}
		t.popTop(EventFlowCompleted)
		if err := t.push(target, nr); err != nil {
			return err
		}
		if target.pattern {
			t.fillContext(target, ctx)
		}
		return nil
	case ir.KindCall:
		target := t.m.flows[n.Target]
		var ctx map[string]any
		if target.pattern {
			ctx = t.patternContext(target.f.Name)
		}
		t.top().AfterCall = true
		if err := t.push(target, nr); err != nil {
			return err
		}
		if target.pattern {
			t.fillContext(target, ctx)
		}
		return nil
	}
	return nil
}

// assign runs one assignment of a set node. A value that does not convert
// to a typed slot, or an expression that fails, assigns nothing; the trace
// says why.
func (t *turn) assign(nr *nodeRT, a *assignRT) {
	sr := t.m.slot(nr.flow, a.a.Slot)
	var raw any
	switch a.a.Kind {
	case ir.AssignClear:
		t.store(sr, nil)
		return
	case ir.AssignLiteral:
		raw = a.a.Value
	case ir.AssignTemplate:
		// Data, not a message: values, not their labels.
		raw = a.tmpl.Render(t.get)
	case ir.AssignExpr:
		v, err := a.expr.run(t.env(nil, false))
		if err != nil {
			t.trace(t.where() + "expression error, slot " + a.a.Slot + " not set: " + err.Error())
			return
		}
		raw = v
	}
	if raw == nil {
		t.store(sr, nil)
		return
	}
	v, err := t.convertTyped(sr, raw)
	if err != nil {
		t.trace(t.where() + "slot " + a.a.Slot + " not set: " + err.Error())
		return
	}
	t.store(sr, v)
}

// convertTyped converts a value the flow computed (a set value, an action
// output) for a slot: through values.Convert for a typed slot, as given
// (with Go numbers widened) for a slot of type any.
func (t *turn) convertTyped(sr *slotRT, raw any) (any, error) {
	if sr.def.Type == ir.TypeAny || sr.def.Type == "" {
		return jsonval.Normalize(raw), nil
	}
	return t.conv.Convert(sr.def, raw)
}

// matchPattern reports whether a branch case pattern matches a value:
// default, >N, >=N, <N, <=N, ==v, !=v, or equality with the value's text.
func matchPattern(pattern string, v any) bool {
	p := strings.TrimSpace(pattern)
	switch {
	case p == "default":
		return true
	case strings.HasPrefix(p, ">="):
		return compareNum(v, p[2:], func(a, b float64) bool { return a >= b })
	case strings.HasPrefix(p, "<="):
		return compareNum(v, p[2:], func(a, b float64) bool { return a <= b })
	case strings.HasPrefix(p, "=="):
		return equalText(v, p[2:])
	case strings.HasPrefix(p, "!="):
		return !equalText(v, p[2:])
	case strings.HasPrefix(p, ">"):
		return compareNum(v, p[1:], func(a, b float64) bool { return a > b })
	case strings.HasPrefix(p, "<"):
		return compareNum(v, p[1:], func(a, b float64) bool { return a < b })
	}
	return equalText(v, p)
}

func compareNum(v any, operand string, cmp func(a, b float64) bool) bool {
	x, ok := branchNumber(v)
	if !ok {
		return false
	}
	y, err := strconv.ParseFloat(strings.TrimSpace(operand), 64)
	if err != nil {
		return false
	}
	return cmp(x, y)
}

// equalText compares a value with a pattern's text: numerically when both
// are numbers (so 5 matches "5.0"), else by the value's template text.
func equalText(v any, s string) bool {
	s = strings.TrimSpace(s)
	if x, ok := branchNumber(v); ok {
		if y, err := strconv.ParseFloat(s, 64); err == nil {
			return x == y
		}
	}
	return tmpl.Format(v) == s
}

// plainNumber is a decimal number as a string may hold it: an optional
// sign, digits and an optional fraction ("25", "-3", "12.5", ".5").
var plainNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$`) })

// branchNumber returns the number a branch compares: a numeric value, or a
// string that holds a plain decimal number, as an untyped slot filled by a
// collect does ("25"). Text with anything else in it is not a number.
func branchNumber(v any) (float64, bool) {
	if s, ok := v.(string); ok {
		s = strings.TrimSpace(s)
		if !plainNumber().MatchString(s) {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil && !math.IsInf(f, 0)
	}
	return values.Float64(v)
}

// actionKey is the idempotency key of an action call: the session, the
// revision the turn will save, and the step, with "#N" for the N-th call
// of the same step in one turn (a loop). A turn that is retried after a
// lost save, or whose save failed, calls with the same keys again.
func (t *turn) actionKey(nr *nodeRT) string {
	n := 1
	for _, c := range t.calls {
		if c == nr {
			n++
		}
	}
	t.calls = append(t.calls, nr)
	key := t.st.Session + "/" + strconv.FormatUint(t.st.Revision+1, 10) + "/" + nr.flow.f.Name + "." + nr.n.ID
	if n > 1 {
		key += "#" + strconv.Itoa(n)
	}
	return key
}

// actionCall is what calling an action gave: its outputs and the
// messages it asked to say, or the error and its class for
// pattern_internal_error.
type actionCall struct {
	out   map[string]any
	said  []ActionMessage
	err   error
	class string
}

// invoke calls the action name for node nr (an action step, or a
// collect's ask_action): its inputs, its runner, its warnings, and the
// checks of what it returned (required_outputs, the responses it names).
// The error is the turn's context ending, which stops the turn.
func (t *turn) invoke(nr *nodeRT, name string) (actionCall, error) {
	decl := t.m.prog.Action(name)
	req := ActionRequest{Action: name, Session: t.st.Session, Decl: decl, IdempotencyKey: t.actionKey(nr)}
	// The runner may call Warn from its own goroutine, even after the call
	// gave up on it; warnings count only until the call returns.
	var (
		wmu   sync.Mutex
		warns []string
		said  []ActionMessage
		done  bool
	)
	req.Warn = func(w string) {
		wmu.Lock()
		defer wmu.Unlock()
		if !done {
			warns = append(warns, w)
		}
	}
	req.Say = func(m ActionMessage) {
		wmu.Lock()
		defer wmu.Unlock()
		if !done {
			said = append(said, m)
		}
	}
	// The conversation is read while the VM waits for the runner; a runner
	// that asks after the call gave up on it gets only the flow and step.
	req.Conversation = func() ActionConversation {
		wmu.Lock()
		defer wmu.Unlock()
		if done {
			return ActionConversation{Flow: nr.flow.f.Name, Step: nr.n.ID}
		}
		return t.conversation(nr)
	}
	c := actionCall{class: "action_failed"}
	if decl != nil {
		req.Inputs = make(map[string]any, len(decl.Inputs))
		for _, in := range decl.Inputs {
			v, _ := t.get(in)
			req.Inputs[in] = v
		}
		for _, r := range decl.Required {
			if v, _ := t.get(r); v == nil {
				c.err = fmt.Errorf("action %q needs slot %q, which is not set", name, r)
				break
			}
		}
	} else {
		req.Inputs = t.env(nil, false)["slots"].(map[string]any)
	}
	if c.err == nil {
		c.out, c.err = t.callAction(req)
		if c.err != nil {
			c.class = errorClass(c.err)
		}
	}
	wmu.Lock()
	done = true
	c.said = said
	for _, w := range warns {
		t.res.Warnings = append(t.res.Warnings, w)
		t.trace("warning: " + w)
	}
	wmu.Unlock()
	if cerr := t.ctx.Err(); cerr != nil {
		return c, t.runtimeErr(nr, cerr)
	}
	if c.err == nil {
		c.class = "action_bad_output"
		if decl != nil {
			for _, r := range decl.RequiredOutputs {
				if _, ok := c.out[r]; !ok {
					c.err = fmt.Errorf("action %q returned no output %q, which it declares under required_outputs", name, r)
					break
				}
			}
		}
		for _, m := range c.said {
			if c.err != nil {
				break
			}
			if m.Response != "" && t.m.responses[m.Response] == nil {
				c.err = fmt.Errorf("action %q asked to say response %q, which the project does not have", name, m.Response)
			}
		}
	}
	return c, nil
}

// failed records that an action failed: the trace and the event.
func (t *turn) failed(nr *nodeRT, name string, err error) {
	t.trace(t.where() + "action " + name + " failed: " + err.Error())
	t.event(Event{Type: EventActionFailed, Flow: nr.flow.f.Name, Action: name, Error: err.Error()})
}

// utterances renders the messages an action asked to say.
func (t *turn) utterances(said []ActionMessage) []Utterance {
	var utters []Utterance
	for _, m := range said {
		if m.Response != "" {
			u := t.utter(&message{resp: t.m.responses[m.Response]}, nil)
			if len(m.Buttons) > 0 {
				// The message's buttons come after the response's own,
				// as Rasa adds an action's buttons to a response it names.
				u.Buttons = append(slices.Clip(u.Buttons), m.Buttons...)
			}
			utters = append(utters, u)
			continue
		}
		utters = append(utters, Utterance{Text: m.Text, Buttons: m.Buttons, Image: m.Image, Custom: m.Custom})
	}
	return utters
}

// action runs an action node.
func (t *turn) action(nr *nodeRT) error {
	n := nr.n
	c, err := t.invoke(nr, n.Action)
	if err != nil {
		return err
	}
	type store struct {
		sr *slotRT
		v  any
	}
	var stores []store
	if c.err == nil {
		for _, mp := range n.MapOutputs {
			raw, ok := c.out[mp.Output]
			if !ok {
				// An output the action did not return leaves its slot as
				// it was; only required_outputs must be returned.
				t.trace(t.where() + "action " + n.Action + " returned no output " + mp.Output + ": slot " + mp.Slot + " is left as it was")
				continue
			}
			if c.err = checkFinite(raw); c.err != nil {
				c.err = fmt.Errorf("action %q output %q for slot %q: %v", n.Action, mp.Output, mp.Slot, c.err)
				break
			}
			sr := t.m.slot(nr.flow, mp.Slot)
			var v any
			if raw != nil {
				if v, c.err = t.convertTyped(sr, raw); c.err != nil {
					c.err = fmt.Errorf("action %q output %q for slot %q: %v", n.Action, mp.Output, mp.Slot, c.err)
					break
				}
			}
			stores = append(stores, store{sr, v})
		}
	}
	if c.err != nil {
		t.failed(nr, n.Action, c.err)
		if n.OnError != nil {
			t.goTo(*n.OnError)
			return nil
		}
		return t.internalError(n.Action, c.class, c.err)
	}
	t.event(Event{Type: EventActionExecuted, Flow: nr.flow.f.Name, Action: n.Action, Outputs: c.out})
	for _, s := range stores {
		t.store(s.sr, s.v)
	}
	for _, u := range t.utterances(c.said) {
		t.sayU(u)
	}
	t.goTo(n.Next)
	return nil
}

// errorClass sorts an action call's failure for pattern_internal_error:
// action_timeout, action_missing (nothing runs the action) or
// action_failed.
func errorClass(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(msg, "timed out"):
		return "action_timeout"
	case strings.Contains(msg, "no runner for action") || strings.Contains(msg, "is registered") || strings.Contains(msg, "no stub and no run"):
		return "action_missing"
	}
	return "action_failed"
}

// conversation returns what the action step of nr knows of the
// conversation, for [ActionRequest.Conversation].
func (t *turn) conversation(nr *nodeRT) ActionConversation {
	c := ActionConversation{Flow: nr.flow.f.Name, Step: nr.n.ID, Message: t.msg, Metadata: maps.Clone(t.st.Metadata)}
	c.Slots = t.env(nil, false)["slots"].(map[string]any)
	c.History = make([]Message, 0, len(t.st.History)+1+len(t.res.Replies))
	c.History = append(c.History, t.st.History...)
	if t.msg != "" {
		c.History = append(c.History, Message{Role: RoleUser, Text: t.msg})
	}
	for _, r := range t.res.Replies {
		c.History = append(c.History, Message{Role: RoleBot, Text: r})
	}
	c.StackSlots = make(map[string]any, len(c.Slots))
	for k, v := range t.st.Slots {
		if v != nil {
			c.StackSlots[k] = v
		}
	}
	for _, f := range t.st.Stack {
		for k, v := range f.Slots {
			if _, conv := t.m.conv[k]; !conv && v != nil && !ir.IsPatternSlot(f.Flow, k) {
				c.StackSlots[k] = v
			}
		}
	}
	c.Events = slices.Clone(t.res.Events)
	c.ReplyEvents = slices.Clone(t.res.ReplyEvents)
	c.Commands = slices.Clone(t.res.Commands)
	return c
}

// checkFinite reports a number in an action output, at any depth, that is
// NaN or infinite (or a JSON number too large for a float64, such as
// 1e400). No checkpoint or template can hold one, so such an output is a
// bad output: an action failure like any other.
func checkFinite(v any) error {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%v is not a finite number", x)
		}
	case float32:
		return checkFinite(float64(x))
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return nil
		}
		if f, err := x.Float64(); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("%s is not a finite number", text.Cut(string(x), 40))
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := checkFinite(x[k]); err != nil {
				return fmt.Errorf("field %q: %w", k, err)
			}
		}
	case []any:
		for i, e := range x {
			if err := checkFinite(e); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
	}
	return nil
}

// runnerGrace is how long a call whose deadline passed still waits for
// the runner to return, so that a runner that stops when told (killing a
// command, say) reports what it did rather than a bare "timed out".
const runnerGrace = time.Second

// callAction calls the action runner (see [callRunner]).
func (t *turn) callAction(req ActionRequest) (map[string]any, error) {
	runner := t.actions
	if runner == nil {
		return nil, fmt.Errorf("no runner for action %q", req.Action)
	}
	out, err := callRunner(t, "action", req.Action, func(ctx context.Context) (map[string]any, error) {
		return runner.RunAction(ctx, req)
	})
	if err == nil && out == nil {
		out = map[string]any{}
	}
	return out, err
}

// callRunner calls a runner: what is "action" or "validator", name its
// name. A panic, an error or a deadline is a failure. The runner owns the
// call's own timeout (package actions applies the declared or default one,
// and says what it killed); Options.ActionTimeout is an outer bound for any
// runner. With it the call runs in its own goroutine, so a runner that
// ignores its context cannot hang the turn; a runner that does stop is
// given a moment to say why, and its message wins.
func callRunner[T any](t *turn, what, name string, run func(context.Context) (T, error)) (T, error) {
	type result struct {
		out T
		err error
	}
	var zero T
	ctx := t.ctx
	d := t.m.opts.ActionTimeout
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	call := func() (r result) {
		defer func() {
			if p := recover(); p != nil {
				r = result{err: fmt.Errorf("%s %q panicked: %v", what, name, p)}
			}
		}()
		out, err := run(ctx)
		return result{out, err}
	}
	var r result
	gaveUp := false
	if ctx.Done() == nil {
		r = call()
	} else {
		ch := make(chan result, 1)
		go func() { ch <- call() }()
		select {
		case r = <-ch:
		case <-ctx.Done():
			select {
			case r = <-ch:
			case <-time.After(runnerGrace):
				r, gaveUp = result{err: ctx.Err()}, true
				t.abandoned = true
			}
		}
	}
	if r.err == nil && ctx.Err() != nil {
		r.err = ctx.Err()
	}
	if r.err != nil && t.ctx.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// The outer bound passed. A runner that said more than the bare
		// context error keeps its words.
		msg := fmt.Sprintf("%s %q timed out after %s", what, name, d.Round(time.Millisecond))
		if !gaveUp && r.err.Error() != context.DeadlineExceeded.Error() {
			msg += ": " + r.err.Error()
		}
		return zero, errors.New(msg)
	}
	if r.err != nil {
		return zero, r.err
	}
	return r.out, nil
}
