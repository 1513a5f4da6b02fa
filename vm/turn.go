package vm

import (
	"context"
	"errors"
	"fmt"
	"reflect"
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

// Input is what the user sent in one turn.
type Input struct {
	// Text is the user's message. It is kept in the history (cut to 4 KiB)
	// and given to the Understander when Commands is nil.
	Text string
	// Commands, when non-nil, are applied as given and the understanding
	// layer is skipped (tests, / commands in chat). An empty non-nil slice
	// applies no command.
	Commands []Command
	// Actions, when non-nil, runs this turn's actions instead of
	// Options.Actions: a conversation test gives each case its stubs this
	// way, explicitly rather than through the context.
	Actions ActionRunner
	// Validators, when non-nil, runs this turn's named validators instead
	// of Options.Validators.
	Validators ValidatorRunner
	// OnReply and OnEvent, when set, are called during the turn with each
	// reply and each event as soon as the turn makes it, in order (a
	// streaming front end sends "Let me check…" before a slow action
	// ends). They run on the turn's goroutine and must not block for long.
	// A turn that fails has called them for what it made before failing.
	OnReply func(string)
	OnEvent func(Event)
	// Now, when not zero, is when the message was sent: the turn reads
	// relative dates against it, the understanding layer sees it
	// (View.Now), and the state is stamped with it. The zero time means
	// Options.Now(). Conversation tests and eval files give it with now:,
	// soni chat and soni eval with --now, so that "tomorrow" is always
	// the same day.
	Now time.Time
	// OnMessage, when set, is called like OnReply with each reply and
	// its response name, buttons and extras.
	OnMessage func(Utterance)
	// Channel names the channel the message came from ("rest", "chat",
	// "test"...): a response's variations for that channel are preferred.
	Channel string
	// Variations asks for the texts of every variation of each response
	// said (Utterance.Variations), which conversation tests match against.
	Variations bool
	// Metadata, when not empty, is merged into the session's metadata
	// (State.Metadata), key by key, and shown in the trace. Its values
	// must be JSON values (nil, bool, string, numbers, []any,
	// map[string]any).
	Metadata map[string]any
}

// Result is the outcome of one successful turn.
type Result struct {
	// Replies are the bot's messages of the turn, in order.
	Replies []string `json:"replies"`
	// Messages holds, when some reply of the turn was said from a
	// response or has buttons, an image or a custom payload, every reply
	// with those (parallel to Replies); it is nil when every reply is
	// plain text. [Result.Message] reads either.
	Messages []Utterance `json:"messages,omitempty"`
	// Pending is the question the conversation now waits on, or nil.
	Pending *Pending `json:"pending,omitempty"`
	// Events are what happened during the turn, in order.
	Events []Event `json:"events,omitempty"`
	// State is the conversation's new state; save it as the checkpoint.
	State *State `json:"-"`
	// Trace holds human-readable lines: commands applied, steps run,
	// expression errors, action failures.
	Trace []string `json:"trace,omitempty"`
	// Commands are the commands the turn applied (given or understood).
	Commands []Command `json:"commands,omitempty"`
	// Understood says which understanding layer gave the commands and
	// why; nil when the input gave them.
	Understood *Understanding `json:"understood,omitempty"`
	// ReplyEvents holds, for each reply, how many of the turn's events
	// came before it: with Events, the turn's timeline (a conversation
	// test's ordered assertions use it).
	ReplyEvents []int `json:"-"`
	// Visited lists the steps the turn ran, in order, once per run (a
	// step in a loop appears once per iteration). Step coverage is built
	// from it.
	Visited []StepVisit `json:"visited,omitempty"`
	// Warnings are the action runners' warnings of the turn (see
	// ActionRequest.Warn), such as an output the declaration does not
	// list. They are also in the trace, each line starting "warning: ".
	Warnings []string `json:"warnings,omitempty"`
}

// StepVisit is one run of a step.
type StepVisit struct {
	Flow string `json:"flow"`
	Step string `json:"step"`
}

// EventType names an event.
type EventType string

// The event types.
const (
	EventFlowStarted   EventType = "flow_started"
	EventFlowCompleted EventType = "flow_completed"
	EventFlowCancelled EventType = "flow_cancelled"
	EventSlotSet       EventType = "slot_set"
	// EventSlotReset: a flow ended and its flow slot, which held Old, went
	// out of scope with it.
	EventSlotReset      EventType = "slot_reset"
	EventActionExecuted EventType = "action_executed"
	EventActionFailed   EventType = "action_failed"
	// EventSessionRestarted: the conversation was idle longer than the
	// session_expiration setting and started afresh.
	EventSessionRestarted EventType = "session_restarted"
)

// Event is one thing that happened during a turn. Which fields are set
// depends on Type: every event names its Flow; slot_set has Slot, Old and
// New (nil means unset); the action events have Action, and action_failed
// has Error.
type Event struct {
	Type   EventType `json:"type"`
	Flow   string    `json:"flow,omitempty"`
	Step   string    `json:"step,omitempty"`
	Slot   string    `json:"slot,omitempty"`
	Action string    `json:"action,omitempty"`
	Old    any       `json:"old,omitempty"`
	New    any       `json:"new,omitempty"`
	Error  string    `json:"error,omitempty"`
	// Outputs are what an executed action returned (action_executed):
	// the event log keeps them, so a logged conversation can be replayed
	// as a test with the same stubs.
	Outputs map[string]any `json:"outputs,omitempty"`
}

// turn is the working state of one Turn call.
type turn struct {
	// clarify holds the flows a clarify command of this turn offered.
	clarify []string
	// applying is true while the turn's commands are applied: the
	// patterns they ask for wait in queue until the last one is applied,
	// and the slot corrections in corrections.
	applying    bool
	queue       []queued
	corrections []correction
	// err is an error found where it could not be returned (starting a
	// pattern after a flow ended); the run loop returns it.
	err error
	// msg is the turn's user message.
	msg string
	m   *Machine
	ctx context.Context
	st  *State
	res *Result
	// asked is true once the pending question was asked in this turn.
	asked bool
	steps int
	// actions runs the turn's actions: Input.Actions or Options.Actions.
	actions ActionRunner
	// validators runs the turn's named validators: Input.Validators or
	// Options.Validators.
	validators ValidatorRunner
	// calls lists the action steps this turn called, in order, for the
	// idempotency keys of repeated calls; callsArr backs it.
	calls    []*nodeRT
	callsArr [2]*nodeRT
	// now is when the message was sent (Input.Now, else Options.Now()),
	// and conv converts values against it.
	now  time.Time
	conv values.Converter
	// onReply and onEvent are Input.OnReply and Input.OnEvent.
	onReply   func(string)
	onEvent   func(Event)
	onMessage func(Utterance)
	// channel and variations are Input.Channel and Input.Variations.
	channel    string
	variations bool
	// abandoned is true when a runner the turn gave up on may still be
	// running: the turn's working state is then not reused.
	abandoned bool
	// node is the node being run, for events and errors.
	node   *nodeRT
	getter func(string) (any, bool)
	// result and the arrays back the turn's Result, so a typical turn
	// allocates them once, together with the turn.
	result      Result
	replies     [4]string
	replyEvents [4]int
	events      [12]Event
	lines       [8]string
	visited     [8]StepVisit
}

// Turn runs one turn of the conversation in st: it turns in.Text into
// commands (unless in.Commands is given), applies them, and runs the top
// flow until a step needs input or the stack is empty. st is not modified;
// the new state is Result.State. On error the turn has no effect: the
// error is a *RuntimeError when a step failed or a guard stopped the turn.
func (m *Machine) Turn(ctx context.Context, st *State, in Input) (res *Result, err error) {
	return m.turn(ctx, st, in, true)
}

// TurnOwned is [Machine.Turn] on a state the caller gives up: st is changed
// in place and becomes the result's State, and must not be used again,
// also when the turn fails. It saves copying the state when it was just
// decoded from a checkpoint, as the soni Engine does on every turn.
func (m *Machine) TurnOwned(ctx context.Context, st *State, in Input) (*Result, error) {
	return m.turn(ctx, st, in, false)
}

func (m *Machine) turn(ctx context.Context, st *State, in Input, clone bool) (res *Result, err error) {
	if st == nil {
		return nil, errors.New("no conversation state: start one with NewState")
	}
	if err := m.fits(st); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error in turn: %v", r)
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := in.Now
	if now.IsZero() {
		now = m.opts.Now()
	}
	cmds := in.Commands
	var understood []string // the understanding layer's notes, for the trace
	var answered *Understanding
	if cmds == nil && len(st.Clarify) > 0 {
		// The answer to "Did you mean A or B?": read as a categorical
		// answer whose values are the flows offered.
		if f, ok := m.clarified(st.Clarify, in.Text); ok {
			cmds = []Command{{Kind: CmdStartFlow, Flow: f}}
			answered = &Understanding{Layer: "clarify", Sure: true, Reason: "the answer names flow " + f}
		}
	}
	if cmds == nil {
		if m.opts.Understander != nil {
			var err error
			v := m.View(st)
			v.Now = now
			v.Note = func(s string) { understood = append(understood, s) }
			v.Answered = func(u Understanding) { answered = &u }
			cmds, err = m.opts.Understander.Understand(ctx, in.Text, v)
			if err != nil {
				return nil, fmt.Errorf("understand %q: %w", text.Cut(in.Text, 80), err)
			}
			cmds = m.guarded(st, cmds, &understood)
		}
		if cmds == nil {
			cmds = []Command{{Kind: CmdFallback}}
		}
	}
	notes := st.Notes
	if clone {
		st = st.Clone()
	} else {
		st.Notes = nil
	}
	t := turns.Get().(*turn)
	*t = turn{m: m, ctx: ctx, st: st, msg: in.Text, now: now, actions: in.Actions, validators: in.Validators, onReply: in.OnReply, onEvent: in.OnEvent,
		onMessage: in.OnMessage, channel: in.Channel, variations: in.Variations}
	t.conv = values.Converter{Now: t.clock, DateOrder: values.DateOrder(m.settings.DateOrder)}
	if t.actions == nil {
		t.actions = m.opts.Actions
	}
	if t.validators == nil {
		t.validators = m.opts.Validators
	}
	t.res = &t.result
	t.res.Commands = cmds
	t.res.Replies, t.res.Events, t.res.Trace, t.res.Visited = t.replies[:0], t.events[:0], t.lines[:0], t.visited[:0]
	t.res.ReplyEvents = t.replyEvents[:0]
	t.calls = t.callsArr[:0]
	t.res.Trace = append(t.res.Trace, notes...)
	t.res.Trace = append(t.res.Trace, understood...)
	if answered != nil {
		t.res.Understood = answered
		sure, rule, sep := "", "", ""
		if answered.Sure {
			sure = " (sure)"
		}
		if answered.Rule != "" {
			rule = ", rule " + answered.Rule
		}
		if answered.Reason != "" {
			sep = ": "
		}
		// One concatenation: one string, where three made three.
		t.res.Trace = append(t.res.Trace, "understood by "+answered.Layer+sure+rule+sep+answered.Reason)
	}
	started := t.st.Revision == 0 && len(t.st.Stack) == 0
	if exp := m.expiry; exp > 0 && t.st.Revision > 0 && !t.st.Updated.IsZero() {
		if idle := now.Sub(t.st.Updated); idle > exp {
			t.restart(idle)
			started = true
		}
	}
	if len(in.Metadata) > 0 {
		if err := mergeMetadata(t.st, in.Metadata); err != nil {
			return nil, err
		}
		t.trace("metadata: " + tmpl.Format(in.Metadata))
	}
	if t.channel == "" {
		t.channel, _ = t.st.Metadata["channel"].(string)
	}
	if started {
		// A new conversation starts with pattern_session_start, before
		// its first message is applied.
		if err := t.pushPattern(ir.PatternSessionStart, nil); err != nil {
			return nil, err
		}
		if err := t.run(); err != nil {
			return nil, err
		}
	}
	if ended := t.st.codeChange; ended != nil {
		// The flows a new version could not resume were ended: say so
		// before the message is applied.
		t.st.codeChange = nil
		t.trace("pattern_code_change: the program changed under flows " + strings.Join(ended, ", "))
		if err := t.pushPattern(ir.PatternCodeChange, m.codeChangeContext(ended, t.language())); err != nil {
			return nil, err
		}
		if err := t.run(); err != nil {
			return nil, err
		}
	}
	t.applying = true
	for i := range cmds {
		if err := t.apply(&cmds[i]); err != nil {
			return nil, err
		}
	}
	if err := t.flushPatterns(); err != nil {
		return nil, err
	}
	if err := t.run(); err != nil {
		return nil, err
	}
	if len(t.res.Replies) == 0 && len(t.st.Stack) == 0 {
		t.say(t.render(m.idleMsg))
	}
	t.remember(in.Text)
	t.st.Clarify = t.clarify
	t.st.Revision++
	t.st.Updated = now.UTC()
	t.st.Fingerprint = m.fingerprint
	if t.st.Pending != nil {
		p := *t.st.Pending
		t.res.Pending = &p
	}
	if len(t.res.Events) == 0 {
		t.res.Events = nil
	}
	if len(t.res.Messages) == 0 {
		t.res.Messages = nil
	}
	t.res.State = t.st
	res = t.detach()
	if !t.abandoned {
		*t = turn{}
		turns.Put(t)
	}
	return res, nil
}

// turns holds turns' working states for the next turns: a turn's state
// is about 3 KB, and the result it returns keeps none of it. Its events
// array holds the dozen events of a turn that ends a flow (the last
// slots set, the flow completed, its slots going out of scope).
var turns = sync.Pool{New: func() any { return new(turn) }}

// detach returns the turn's result, its lists copied out of the arrays
// of the turn's working state, which the next turn reuses.
func (t *turn) detach() *Result {
	res := new(Result)
	*res = t.result
	res.Replies = own(res.Replies)
	res.Events = own(res.Events)
	res.Trace = own(res.Trace)
	res.Visited = own(res.Visited)
	res.ReplyEvents = own(res.ReplyEvents)
	return res
}

// own returns a copy of s in memory of its own, nil for nil.
func own[T any](s []T) []T {
	if s == nil {
		return nil
	}
	if len(s) == 0 {
		return make([]T, 0) // no allocation
	}
	return slices.Clone(s)
}

// clock is the turn's clock: when the message was sent.
func (t *turn) clock() time.Time { return t.now }

// restart starts an expired conversation afresh: no flow, no pending
// question, and, with carry_over_slots: false, the conversation slots as
// at its start. The history and the metadata stay.
func (t *turn) restart(idle time.Duration) {
	t.st.Stack = nil
	t.st.Pending = nil
	if t.m.settings.DropSlotsOnExpiry {
		t.st.Slots = t.m.NewState(t.st.Session).Slots
	}
	t.trace("session restarted: idle for " + idle.Round(time.Second).String() + ", over session_expiration " + t.m.settings.SessionExpiration)
	t.event(Event{Type: EventSessionRestarted})
}

// fits checks that a state's stack and pending question point at flows
// and steps of the program, so that a hand-built state cannot derail a
// turn. Resume (which the codec runs on a decoded checkpoint) makes the same
// checks, with more detail.
func (m *Machine) fits(st *State) error {
	for _, f := range st.Stack {
		fr := m.flows[f.Flow]
		if fr == nil {
			return fmt.Errorf("state has flow %q on its stack, which the program does not have", f.Flow)
		}
		i, ok := fr.index[f.Step]
		if !ok {
			return fmt.Errorf("state points at step %q of flow %q, which the program does not have", f.Step, f.Flow)
		}
		if f.AfterCall && fr.nodes[i].n.Kind != ir.KindCall {
			return fmt.Errorf("state waits for a call at step %q of flow %q, which is not a call", f.Step, f.Flow)
		}
	}
	if p := st.Pending; p != nil {
		if len(st.Stack) == 0 {
			return errors.New("state has a pending question but no active flow")
		}
		top := st.Stack[len(st.Stack)-1]
		if p.Flow != top.Flow || p.Step != top.Step {
			return fmt.Errorf("state's pending question (flow %q step %q) is not where the top flow waits", p.Flow, p.Step)
		}
	}
	return nil
}

// View returns what the understanding layer may see of a conversation.
func (m *Machine) View(st *State) View {
	v := View{Program: m.prog, DateOrder: values.DateOrder(m.settings.DateOrder)}
	if st == nil {
		v.Slot = func(string) (any, bool) { return nil, false }
		return v
	}
	for _, f := range st.Stack {
		v.Stack = append(v.Stack, f.Flow)
	}
	if st.Pending != nil {
		p := *st.Pending
		v.Pending = &p
	}
	v.History = st.History
	v.CanStart = func(flow string) bool { return m.CanStart(st, flow) }
	v.Slot = func(name string) (any, bool) {
		if _, ok := m.conv[name]; ok || len(st.Stack) == 0 {
			x, ok := st.Slots[name]
			return x, ok
		}
		top := len(st.Stack) - 1
		if x, ok := st.Stack[top].Slots[name]; ok {
			return x, ok
		}
		// A pattern on top sees the slots of the flow it interrupted
		// (language.md §17), as the turn does.
		for i := top; i >= 0; i-- {
			if fr := m.flows[st.Stack[i].Flow]; fr == nil || !fr.pattern {
				if i == top {
					break
				}
				x, ok := st.Stack[i].Slots[name]
				return x, ok
			}
		}
		return nil, false
	}
	return v
}

// remember appends the turn's messages to the history.
func (t *turn) remember(msg string) {
	n := t.m.settings.HistorySize
	if n <= 0 {
		t.st.History = nil
		return
	}
	h := t.st.History
	if msg != "" {
		h = append(h, Message{Role: RoleUser, Text: text.Cut(msg, maxHistoryText)})
	}
	for _, r := range t.res.Replies {
		h = append(h, Message{Role: RoleBot, Text: text.Cut(r, maxHistoryText)})
	}
	if len(h) > n {
		copy(h, h[len(h)-n:])
		clear(h[n:])
		h = h[:n]
	}
	t.st.History = h
}

func (t *turn) trace(line string) { t.res.Trace = append(t.res.Trace, line) }

func (t *turn) say(msg string) { t.sayU(Utterance{Text: msg}) }

// sayU appends a reply. An utterance with no text and nothing else (a
// response whose variation is empty) says nothing.
func (t *turn) sayU(u Utterance) {
	if u.Text == "" && len(u.Buttons) == 0 && u.Image == "" && u.Custom == nil {
		if u.Response != "" {
			t.trace(t.where() + "response " + u.Response + " is empty: nothing said")
		}
		return
	}
	if u.rich() && t.res.Messages == nil {
		t.res.Messages = make([]Utterance, len(t.res.Replies), len(t.res.Replies)+1)
		for i, r := range t.res.Replies {
			t.res.Messages[i] = Utterance{Text: r}
		}
	}
	t.res.Replies = append(t.res.Replies, u.Text)
	if t.res.Messages != nil {
		t.res.Messages = append(t.res.Messages, u)
	}
	t.res.ReplyEvents = append(t.res.ReplyEvents, len(t.res.Events))
	if t.onReply != nil {
		t.onReply(u.Text)
	}
	if t.onMessage != nil {
		t.onMessage(u)
	}
}

func (t *turn) event(e Event) {
	if e.Step == "" && t.node != nil && e.Flow == t.node.flow.f.Name {
		e.Step = t.node.n.ID
	}
	t.res.Events = append(t.res.Events, e)
	if t.onEvent != nil {
		t.onEvent(e)
	}
}

// top returns the frame on top of the stack, or nil.
func (t *turn) top() *Frame {
	if len(t.st.Stack) == 0 {
		return nil
	}
	return &t.st.Stack[len(t.st.Stack)-1]
}

// topFlow returns the flow on top of the stack, or nil.
func (t *turn) topFlow() *flowRT {
	if f := t.top(); f != nil {
		return t.m.flows[f.Flow]
	}
	return nil
}

// get returns the value of a slot visible to the top flow.
func (t *turn) get(name string) (any, bool) {
	if _, ok := t.m.conv[name]; ok {
		v, ok := t.st.Slots[name]
		return v, ok
	}
	if f := t.top(); f != nil {
		v, ok := f.Slots[name]
		if !ok && t.isPatternFrame(f) {
			// A pattern reads the slots of the flow it interrupted, as
			// the message settings it says may (its own slots first).
			if i := t.userFrame(); i >= 0 {
				v, ok = t.st.Stack[i].Slots[name]
			}
		}
		return v, ok
	}
	return nil, false
}

// render renders a message: a categorical slot shows its value's label
// ("premium economy" for premium_economy), language.md §3.
func (t *turn) render(tp *tmpl.Template) string {
	if t.getter == nil {
		t.getter = t.shown
	}
	return tp.Render(t.getter)
}

// shown returns the value of a slot as users see it: the label of a
// categorical value that has one, else the value.
func (t *turn) shown(name string) (any, bool) {
	v, ok := t.get(name)
	if !ok || v == nil {
		return v, ok
	}
	if sr := t.m.slot(t.topFlow(), name); sr != nil {
		return sr.def.Shown(v), true
	}
	return v, true
}

// env builds the variables of an expression: every visible slot by name,
// the same slots under "slots", and value when validating.
func (t *turn) env(value any, withValue bool) map[string]any {
	top := t.top()
	n := len(t.st.Slots) + 2
	if top != nil {
		n += len(top.Slots)
	}
	slots := make(map[string]any, n)
	for k, v := range t.st.Slots {
		slots[k] = v
	}
	if top != nil {
		for k, v := range top.Slots {
			if _, conv := t.m.conv[k]; !conv {
				slots[k] = v
			}
		}
	}
	env := make(map[string]any, n)
	env["slots"] = slots
	for k, v := range slots {
		env[k] = v
	}
	if withValue {
		env["value"] = value
	}
	return env
}

// test evaluates a condition; an expression error is false, with a trace
// line saying why.
func (t *turn) test(p *compiled, value any, withValue bool) bool {
	ok, err := p.test(t.env(value, withValue))
	if err != nil {
		t.trace(t.where() + "expression error, treated as false: " + err.Error())
		return false
	}
	return ok
}

func (t *turn) where() string {
	if t.node != nil {
		return t.node.flow.f.Name + "." + t.node.n.ID + ": "
	}
	return ""
}

// blocking returns the pending question if it belongs to the top flow.
func (t *turn) blocking() *Pending {
	p, top := t.st.Pending, t.top()
	if p == nil || top == nil || p.Flow != top.Flow || p.Step != top.Step {
		return nil
	}
	return p
}

// pendingNode returns the node a pending question was asked by.
func (t *turn) pendingNode(p *Pending) *nodeRT {
	fr := t.m.flows[p.Flow]
	if fr == nil {
		return nil
	}
	i, ok := fr.index[p.Step]
	if !ok {
		return nil
	}
	return fr.nodes[i]
}

// apply applies one command.
func (t *turn) apply(c *Command) error {
	t.node = nil
	switch c.Kind {
	case CmdStartFlow:
		t.trace("command start_flow " + c.Flow)
		fr := t.m.flows[c.Flow]
		if fr == nil {
			return fmt.Errorf("start_flow: unknown flow %q", c.Flow)
		}
		if fr.pattern {
			return fmt.Errorf("start_flow: flow %q is a pattern, which soni starts by itself when the conversation needs it", c.Flow)
		}
		if !t.canStart(fr) {
			t.trace(guardMessage(fr))
			return t.cannotHandle(reasonNotSupported)
		}
		if top := t.top(); top != nil && top.Flow == c.Flow {
			t.trace("flow " + c.Flow + " is already on top")
		} else if err := t.push(fr, nil); err != nil {
			return err
		}
		for _, sv := range c.Slots {
			if callee, ok := fr.callees[sv.Slot]; ok && t.m.slot(fr, sv.Slot) == nil {
				// A slot of a flow this one calls: held until that
				// flow's collect takes it as an answer.
				top := t.top()
				if top.Held == nil {
					top.Held = make(map[string]any, 2)
				}
				top.Held[callee+"."+sv.Slot] = sv.Value
				t.trace("slot " + sv.Slot + "=" + quoteShort(sv.Value) + " held for flow " + callee)
				continue
			}
			if err := t.setSlot(sv.Slot, sv.Value); err != nil {
				return err
			}
		}
	case CmdSetSlot:
		t.trace("command " + string(c.Kind) + " " + c.Slot + "=" + quoteShort(c.Value))
		return t.setSlot(c.Slot, c.Value)
	case CmdCorrectSlot:
		t.trace("command " + string(c.Kind) + " " + c.Slot + "=" + quoteShort(c.Value))
		return t.correctSlot(c.Slot, c.Value)
	case CmdCancelFlow:
		if c.Flow != "" {
			t.trace("command cancel_flow " + c.Flow)
			return t.cancelNamed(c.Flow)
		}
		t.trace("command cancel_flow")
		if t.top() == nil {
			t.trace("no active flow to cancel")
			return nil
		}
		return t.cancelFlow()
	case CmdAffirm, CmdDeny:
		t.trace("command " + string(c.Kind))
		p := t.blocking()
		switch {
		case p != nil && p.Kind == PendingConfirm:
			return t.answerConfirm(p, c.Kind == CmdAffirm)
		case p != nil && p.Kind == PendingCollect:
			if sr := t.m.slot(t.topFlow(), p.Slot); sr != nil && sr.def.Type == ir.TypeBoolean {
				return t.setSlot(p.Slot, c.Kind == CmdAffirm)
			}
		}
		return t.fallback()
	case CmdFallback:
		t.trace("command fallback")
		return t.fallback()
	case CmdChitchat:
		ctx := map[string]any{"question_pending": t.blocking() != nil}
		if ir.IsSmallTalkKind(c.SmallTalk) {
			t.trace("command chitchat (" + c.SmallTalk + ")")
			ctx["small_talk"] = c.SmallTalk
		} else {
			t.trace("command chitchat")
		}
		return t.requestPattern(ir.PatternChitchat, ctx)
	case CmdHandoff:
		t.trace("command human_handoff")
		return t.requestPattern(ir.PatternHumanHandoff, nil)
	case CmdHelp:
		t.trace("command help")
		return t.requestPattern(ir.PatternHelp, t.helpContext())
	case CmdRepeat:
		t.trace("command repeat_bot_messages")
		return t.requestPattern(ir.PatternRepeatBotMessages, t.repeatContext())
	case CmdSkipQuestion:
		t.trace("command skip_question")
		ctx := map[string]any{}
		if p := t.blocking(); p != nil {
			ctx["skipped_slot"] = p.Slot
		}
		return t.requestPattern(ir.PatternSkipQuestion, ctx)
	case CmdClarify:
		t.trace("command clarify " + strings.Join(c.Flows, " "))
		ctx := t.clarifyContext(c.Flows)
		if ctx == nil {
			return t.fallback()
		}
		return t.requestPattern(ir.PatternClarification, ctx)
	default:
		return fmt.Errorf("unknown command %q", c.Kind)
	}
	return nil
}

// fallback starts pattern_cannot_handle: by default, the fallback message
// and the pending question again, or the idle message when nothing is
// pending.
func (t *turn) fallback() error { return t.cannotHandle(reasonDefault) }

// setSlot converts, validates and stores a value given by a command. An
// answer to the pending collect moves its flow on; an invalid value is
// never stored.
func (t *turn) setSlot(name string, raw any) error {
	fr := t.topFlow()
	sr := t.m.slot(fr, name)
	fi := len(t.st.Stack) - 1
	if sr == nil && fr != nil && fr.pattern {
		// A slot of the flow the patterns on top interrupted.
		if u := t.userFrame(); u >= 0 {
			if ufr := t.m.flows[t.st.Stack[u].Flow]; t.m.slot(ufr, name) != nil {
				fr, sr, fi = ufr, t.m.slot(ufr, name), u
			}
		}
	}
	if sr != nil && fr != nil && fr.pattern && ir.IsPatternSlot(fr.f.Name, name) {
		return fmt.Errorf("set_slot: %q is a read-only slot of %s, which soni fills when the pattern starts", name, fr.f.Name)
	}
	if sr == nil {
		if fr == nil {
			return fmt.Errorf("set_slot: %q is not a conversation slot and no flow is active", name)
		}
		return fmt.Errorf("set_slot: flow %q has no slot %q", fr.f.Name, name)
	}
	p := t.blocking()
	if fi != len(t.st.Stack)-1 {
		p = nil
	}
	var answering *nodeRT
	var one [1]*nodeRT
	collects := []*nodeRT(nil)
	if p != nil && p.Kind == PendingCollect && p.Slot == name {
		answering = t.pendingNode(p)
		one[0] = answering
		collects = one[:]
	} else if fr != nil && !sr.conv {
		collects = fr.collects[name]
	}
	if answering == nil && sr.conv && t.readBefore(fi, name) {
		// A value for a conversation slot that a past decision of the
		// flow read is a correction, whoever gives it (language.md §6.10,
		// decisions follow their inputs).
		return t.correctSlot(name, raw)
	}
	v, err := t.check(sr, collects, raw)
	if err != nil {
		t.trace("invalid value for slot " + name + ": " + err.Error())
		if answering != nil {
			t.invalidAnswer(answering, sr, err, raw)
			return nil
		}
		var first *nodeRT
		if len(collects) > 0 {
			first = collects[0]
		}
		t.sayU(t.invalidMessage(first, sr, err, raw))
		return nil
	}
	t.storeIn(fi, sr, v)
	switch {
	case answering != nil:
		t.st.Pending = nil
		t.goTo(answering.n.Next)
	case p != nil && p.Kind == PendingConfirm:
		// A correction while a confirm waits: drop the question so the
		// confirm runs again and asks with the new value.
		t.st.Pending = nil
	}
	return nil
}

// correctSlot applies a correction (language.md §11): a correction goes
// back to where the slot was collected. When it changes a slot the top flow
// collects, and the flow is already past the first collect step of that
// slot (in list order), the flow resumes at that collect step: it is
// skipped, the slot being set, and every step after it runs again, so that
// no branch, set or action keeps a decision made on the old value. A
// correction that is invalid (the slot's invalid message, then the pending
// question again) or that does not change the value changes nothing. Any
// other correction is set like set_slot, and the pending question is asked
// again.
func (t *turn) correctSlot(name string, raw any) error {
	fr := t.topFlow()
	sr := t.m.slot(fr, name)
	fi := len(t.st.Stack) - 1
	if fr != nil && fr.pattern && !ir.IsPatternSlot(fr.f.Name, name) {
		// Under patterns, a correction is about the flow they interrupted.
		if u := t.userFrame(); u >= 0 {
			if ufr := t.m.flows[t.st.Stack[u].Flow]; t.m.slot(ufr, name) != nil {
				fr, sr, fi = ufr, t.m.slot(ufr, name), u
			}
		}
	}
	if sr == nil || fr == nil || fr.pattern {
		return t.setSlot(name, raw)
	}
	first := -1
	for i, nr := range fr.nodes {
		if nr.n.Kind == ir.KindCollect && nr.n.Slot == name {
			first = i
			break
		}
	}
	p := t.blocking()
	if p != nil && p.Kind == PendingCollect && p.Slot == name && fi == len(t.st.Stack)-1 {
		// The pending question asks for this very slot: it is an answer.
		return t.setSlot(name, raw)
	}
	var collects []*nodeRT
	if !sr.conv {
		collects = fr.collects[name]
	}
	v, err := t.check(sr, collects, raw)
	if err != nil {
		t.trace("invalid correction of slot " + name + ": " + err.Error())
		var at *nodeRT
		if first >= 0 {
			at = fr.nodes[first]
		} else if len(collects) > 0 {
			at = collects[0]
		}
		t.sayU(t.invalidMessage(at, sr, err, raw))
		return nil
	}
	old, had := t.valueIn(fi, sr)
	if had && sameValue(old, v) {
		t.trace("correction of slot " + name + " does not change it")
		return nil
	}
	// pattern_correction applies it (action_correct_flow_slot), or asks
	// first when the project's pattern says so.
	return t.queueCorrection(correction{frame: fi, flow: fr.f.Name, slot: name, old: old, hadOld: had, new: v})
}

// valueIn returns a slot's value in frame fi's scope.
func (t *turn) valueIn(fi int, sr *slotRT) (any, bool) {
	if sr.conv {
		v, ok := t.st.Slots[sr.def.Name]
		return v, ok
	}
	if fi < 0 || fi >= len(t.st.Stack) {
		return nil, false
	}
	v, ok := t.st.Stack[fi].Slots[sr.def.Name]
	return v, ok
}

// sameValue reports whether a correction leaves a slot's value as it was.
func sameValue(a, b any) bool {
	if fa, ok := values.Float64(a); ok {
		fb, ok := values.Float64(b)
		return ok && fa == fb
	}
	return reflect.DeepEqual(a, b)
}

// check converts a raw value to the slot's type and runs the validators
// of the collect steps given (which may give a normalised form of the
// value) and the slot's validation.
func (t *turn) check(sr *slotRT, collects []*nodeRT, raw any) (any, error) {
	v, err := t.conv.Convert(sr.def, raw)
	if err != nil {
		return nil, err
	}
	if isBlank(v) {
		// An empty answer fills nothing, even a text slot: the question
		// is asked again.
		return nil, fmt.Errorf("no value for slot %q", sr.def.Name)
	}
	v = jsonval.Normalize(v)
	for _, c := range collects {
		if v, err = t.validate(sr, c, v, true); err != nil {
			return nil, err
		}
	}
	if collects == nil {
		return t.validate(sr, nil, v, true)
	}
	return v, nil
}

// isBlank reports whether a slot value holds nothing: nil, or a string of
// only spaces. A collect asks again for a slot that holds a blank value
// (set to "" or to a template of unset slots), as for an unset one.
func isBlank(v any) bool {
	if v == nil {
		return true
	}
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) == ""
}

// validate runs the collect's validator (collect may be nil), then the
// slot's validation expression, on a converted value, and returns the
// value to store: a built-in or named validator may normalise it. A named
// validator runs only when named is true: a value given for the slot (an
// answer, a correction, a set_slot), not one the flow finds already set
// when it reaches the collect again.
func (t *turn) validate(sr *slotRT, collect *nodeRT, v any, named bool) (any, error) {
	if collect != nil {
		if collect.builtin != "" {
			nv, ok := builtinValidators[collect.builtin](v)
			if !ok {
				return nil, fmt.Errorf("value %q fails validator %q", tmpl.Format(v), collect.builtin)
			}
			v = nv
		}
		if collect.validator != nil && !t.test(collect.validator, v, true) {
			return nil, fmt.Errorf("value %q fails validator %q", tmpl.Format(v), collect.validator.src)
		}
		if collect.named != "" && named {
			var err error
			if v, err = t.runValidator(sr, collect, v); err != nil {
				return nil, err
			}
		}
	}
	if sr.validation != nil && !t.test(sr.validation, v, true) {
		return nil, fmt.Errorf("value %q fails the validation of slot %q", tmpl.Format(v), sr.def.Name)
	}
	return v, nil
}

// invalidMessage renders the message for an invalid value (err is why it
// is invalid): the collect's validation_error_message, the named
// validator's own message, the slot's invalid_message, or a default.
func (t *turn) invalidMessage(collect *nodeRT, sr *slotRT, err error, raw any) Utterance {
	var ie *invalidError
	value := func(name string) (any, bool) {
		if name == "value" {
			return refused(raw), true
		}
		return nil, false
	}
	switch {
	case errors.Is(err, values.ErrDateOrder):
		// "12/04/2026": no message of the project's can say why.
		return Utterance{Text: err.Error()}
	case collect != nil && collect.errMsg != nil:
		return t.utter(collect.errMsg, value)
	case errors.As(err, &ie) && strings.TrimSpace(ie.msg) != "":
		return Utterance{Text: ie.msg}
	case sr.invalid != nil:
		return t.utter(sr.invalid, value)
	}
	if sr.def.Type == ir.TypeList {
		return Utterance{Text: listInvalid(sr.def, err)}
	}
	// The default message of a typed slot goes by Rasa's name for it; a
	// project that defines a response of that name says that instead.
	name := rejectionResponse(sr.def.Type)
	if r := t.m.responses[name]; r != nil && !r.r.Builtin {
		return t.utter(&message{resp: r}, value)
	}
	return Utterance{Text: defaultInvalid(sr.def), Response: name}
}

// rejectionResponse is Rasa's name for the default message of an invalid
// value of a slot of type typ, or "".
func rejectionResponse(typ ir.SlotType) string {
	switch typ {
	case ir.TypeCategorical:
		return ir.ResponseCategoricalRejection
	case ir.TypeBoolean:
		return ir.ResponseBooleanRejection
	case ir.TypeNumber, ir.TypeInteger:
		return ir.ResponseFloatRejection
	}
	return ""
}

// defaultInvalid is the invalid message of a slot that gives none. It never
// shows the slot's internal name (language.md §11): a slot with a label
// names it ("That is not a valid departure date."), a typed slot gets a
// message built from its type and limits ("Please give a number between 1
// and 10."), a text slot its description, or a plain apology.
func defaultInvalid(def *ir.Slot) string {
	typed := typeInvalid(def)
	if l := strings.TrimSpace(def.Label); l != "" {
		if typed != "" {
			return "That is not a valid " + l + ". " + typed
		}
		return "That is not a valid " + l + "."
	}
	if typed != "" {
		return typed
	}
	if d := strings.TrimSpace(def.Description); d != "" {
		return "Sorry, I couldn't use that. I need: " + strings.TrimSuffix(d, ".") + "."
	}
	return "Sorry, I couldn't use that answer."
}

// listInvalid is the default invalid message of a list slot: how many
// items it takes when the answer had too few or too many, else what it
// takes. The slot's label, when it has one, names its items ("Please
// choose at most 3 toppings.").
func listInvalid(def *ir.Slot, err error) string {
	verb, noun := "give", "items"
	if len(def.Values) > 0 {
		verb = "choose"
	}
	if l := strings.TrimSpace(def.Label); l != "" {
		noun = l
	}
	switch {
	case errors.Is(err, values.ErrTooManyItems) && def.MaxItems == 1:
		return "Please " + verb + " just one."
	case errors.Is(err, values.ErrTooManyItems):
		return fmt.Sprintf("Please %s at most %d %s.", verb, def.MaxItems, noun)
	case errors.Is(err, values.ErrTooFewItems):
		return fmt.Sprintf("Please %s at least %d %s.", verb, def.MinItems, noun)
	}
	if len(def.Values) > 0 {
		names := make([]string, len(def.Values))
		for i, v := range def.Values {
			names[i] = v.ShownValue()
		}
		return "Please choose one or more of: " + strings.Join(names, ", ") + "."
	}
	if d := strings.TrimSpace(def.Description); d != "" {
		return "Sorry, I couldn't use that. I need: " + strings.TrimSuffix(d, ".") + "."
	}
	return "Please give one or more " + noun + ", separated by commas."
}

// typeInvalid is the part of the default invalid message that the slot's
// type and limits give, or "" for a text or untyped slot.
func typeInvalid(def *ir.Slot) string {
	limits := func(noun string) string {
		switch {
		case def.Min != nil && def.Max != nil:
			return fmt.Sprintf("Please give %s between %s and %s.", noun, tmpl.Format(*def.Min), tmpl.Format(*def.Max))
		case def.Min != nil:
			return fmt.Sprintf("Please give %s of at least %s.", noun, tmpl.Format(*def.Min))
		case def.Max != nil:
			return fmt.Sprintf("Please give %s of at most %s.", noun, tmpl.Format(*def.Max))
		}
		return "Please give " + noun + "."
	}
	switch def.Type {
	case ir.TypeInteger:
		return limits("a whole number")
	case ir.TypeNumber:
		return limits("a number")
	case ir.TypeBoolean:
		return "Please answer yes or no."
	case ir.TypeDate:
		return "Please give a date, for example 2026-03-15."
	case ir.TypeCategorical:
		names := make([]string, len(def.Values))
		for i, v := range def.Values {
			names[i] = v.ShownValue()
		}
		if len(names) > 0 {
			return "Please choose one of: " + strings.Join(names, ", ") + "."
		}
	}
	return ""
}

// invalidAnswer handles an invalid answer to the pending collect: the
// error message, then the question again, or after max_attempts the
// on_invalid step or the end of the flow.
func (t *turn) invalidAnswer(collect *nodeRT, sr *slotRT, err error, raw any) {
	p := t.st.Pending
	p.Attempts++
	t.sayU(t.invalidMessage(collect, sr, err, raw))
	if max := collect.n.MaxAttempts; max > 0 && p.Attempts >= max {
		t.trace(collect.flow.f.Name + "." + collect.n.ID + ": " + strconv.Itoa(p.Attempts) + " invalid answers, max_attempts reached")
		t.st.Pending = nil
		if oi := collect.n.OnInvalid; oi != nil {
			// __end__ here ends the flow normally, like every other
			// __end__ (language.md §11): goTo completes it.
			t.goTo(*oi)
			return
		}
		if err := t.cancelFlow(); err != nil && t.err == nil {
			t.err = err
		}
		return
	}
	if err := t.reask(); err != nil && t.err == nil {
		t.err = err
	}
}

// answerConfirm answers the pending confirm.
func (t *turn) answerConfirm(p *Pending, yes bool) error {
	nr := t.pendingNode(p)
	if nr == nil {
		return fmt.Errorf("pending question of flow %q step %q is not in the program", p.Flow, p.Step)
	}
	t.st.Pending = nil
	switch {
	case yes && nr.n.OnConfirm != nil:
		t.goTo(*nr.n.OnConfirm)
	case yes:
		t.goTo(nr.n.Next)
	case nr.n.OnDeny != nil:
		t.goTo(*nr.n.OnDeny)
	default:
		return t.cancelFlow()
	}
	return nil
}

// store writes a slot of the top flow's scope and records the event. A nil
// value clears the slot.
func (t *turn) store(sr *slotRT, v any) { t.storeIn(len(t.st.Stack)-1, sr, v) }

// storeIn writes a slot of frame fi's scope (a conversation slot, or the
// frame's own flow slot) and records the event. A nil value clears it.
func (t *turn) storeIn(fi int, sr *slotRT, v any) {
	name := sr.def.Name
	var m map[string]any
	flow := ""
	var top *Frame
	if fi >= 0 && fi < len(t.st.Stack) {
		top = &t.st.Stack[fi]
		flow = top.Flow
	}
	if sr.conv {
		if t.st.Slots == nil {
			t.st.Slots = map[string]any{}
		}
		m = t.st.Slots
	} else {
		if top == nil {
			return
		}
		if top.Slots == nil {
			top.Slots = make(map[string]any, 4)
		}
		m = top.Slots
	}
	old := m[name]
	if v == nil {
		delete(m, name)
	} else {
		m[name] = v
	}
	if sr.conv && top != nil && len(top.Uses) > 0 {
		t.noteWrite(fi, name, v)
	}
	t.event(Event{Type: EventSlotSet, Flow: flow, Slot: name, Old: old, New: v})
}

// ask asks a collect or confirm question and makes it pending. The error
// is that of starting pattern_internal_error, when the collect's
// ask_action fails and nothing else can ask.
func (t *turn) ask(nr *nodeRT, attempts int) error {
	kind := PendingCollect
	if nr.n.Kind == ir.KindConfirm {
		kind = PendingConfirm
	}
	t.st.Pending = &Pending{Kind: kind, Flow: nr.flow.f.Name, Step: nr.n.ID, Slot: nr.n.Slot, Attempts: attempts}
	return t.question(nr)
}

// reask asks the pending question again, rendered with the current values
// (its ask_action runs again). After an error, or when the question could
// not be asked, nothing is pending.
func (t *turn) reask() error {
	p := t.st.Pending
	if nr := t.pendingNode(p); nr != nil {
		return t.question(nr)
	}
	t.say(p.Prompt)
	t.asked = true
	return nil
}

// question says the pending question of nr and records its text. A
// collect with an ask_action asks by running it: what the action says is
// the question. When the action fails, the collect's message asks
// instead; without one the question cannot be asked, and the flow is
// cancelled as for an action step with no on_error
// (pattern_internal_error).
func (t *turn) question(nr *nodeRT) error {
	if act := nr.n.AskAction; act != "" {
		c, err := t.invoke(nr, act)
		if err != nil {
			return err
		}
		if c.err == nil {
			t.event(Event{Type: EventActionExecuted, Flow: nr.flow.f.Name, Action: act, Outputs: c.out})
			var texts []string
			for _, u := range t.utterances(c.said) {
				t.sayU(u)
				if u.Text != "" {
					texts = append(texts, u.Text)
				}
			}
			t.st.Pending.Prompt = strings.Join(texts, "\n")
			t.asked = true
			return nil
		}
		t.failed(nr, act, c.err)
		if nr.msg == nil {
			t.st.Pending = nil
			return t.internalError(act, c.class, c.err)
		}
		t.trace(t.where() + "the collect asks with its message instead")
	}
	u := t.prompt(nr)
	t.st.Pending.Prompt = u.Text
	t.sayU(u)
	t.asked = true
	return nil
}

// prompt renders a collect's or confirm's question.
func (t *turn) prompt(nr *nodeRT) Utterance {
	if nr.msg != nil {
		return t.utter(nr.msg, nil)
	}
	v, _ := t.shown(nr.n.Slot)
	return Utterance{Text: "Please confirm " + nr.n.Slot + ": " + tmpl.Format(v) + "."}
}

// push starts a flow on top of the stack.
func (t *turn) push(fr *flowRT, at *nodeRT) error {
	if len(t.st.Stack) >= t.m.settings.MaxStackDepth {
		return t.runtimeErr(at, fmt.Errorf("starting flow %q would exceed max_stack_depth (%d): the flows call or digress too deep", fr.f.Name, t.m.settings.MaxStackDepth))
	}
	t.st.Stack = append(t.st.Stack, Frame{Flow: fr.f.Name, Step: fr.f.Nodes[0].ID})
	t.st.Pending = nil
	t.event(Event{Type: EventFlowStarted, Flow: fr.f.Name, Step: fr.f.Nodes[0].ID})
	return nil
}

// goTo moves the top flow to a node, or ends it when next is ir.End.
func (t *turn) goTo(next int) {
	if next == ir.End {
		t.finishTop(EventFlowCompleted)
		return
	}
	top := t.top()
	top.Step = t.m.flows[top.Flow].nodes[next].n.ID
}

// finishTop pops the top flow (its flow slots go with it) and lets a flow
// below that called it continue after the call. When a flow that is not a
// pattern completes and no caller goes on, pattern_continue_interrupted
// starts if the flow below it continues, or pattern_completed if none is
// left.
func (t *turn) finishTop(ev EventType) {
	ended := t.top().Flow
	pattern := t.isPatternFrame(t.top())
	t.popTop(ev)
	for {
		top := t.top()
		if top == nil || !top.AfterCall {
			if ev == EventFlowCompleted && !pattern {
				t.continueOrComplete(ended)
			}
			return
		}
		if ev == EventFlowCancelled {
			// The called flow did not complete, so its caller must not go
			// on as if it had: cancelling a call cancels the flows waiting
			// on it (one cancel message was said already).
			t.popTop(EventFlowCancelled)
			continue
		}
		top.AfterCall = false
		fr := t.m.flows[top.Flow]
		next := fr.nodes[fr.index[top.Step]].n.Next
		if next != ir.End {
			top.Step = fr.nodes[next].n.ID
			return
		}
		ended, pattern = top.Flow, t.isPatternFrame(top)
		t.popTop(EventFlowCompleted)
	}
}

func (t *turn) popTop(ev EventType) {
	top := *t.top()
	t.st.Stack[len(t.st.Stack)-1] = Frame{}
	t.st.Stack = t.st.Stack[:len(t.st.Stack)-1]
	t.st.Pending = nil
	t.trace("flow " + top.Flow + " " + eventVerb(ev))
	t.event(Event{Type: ev, Flow: top.Flow, Step: top.Step})
	t.resetSlots(&top)
}

// resetSlots records a slot_reset event for each flow slot of an ended
// frame that held a value (not a pattern's read-only context), in name
// order: the slots go out of scope with their flow.
func (t *turn) resetSlots(f *Frame) {
	if len(f.Slots) == 0 {
		return
	}
	var arr [8]string
	names := arr[:0]
	for k := range f.Slots {
		if !ir.IsPatternSlot(f.Flow, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		t.event(Event{Type: EventSlotReset, Flow: f.Flow, Slot: k, Old: f.Slots[k]})
	}
}

func eventVerb(ev EventType) string {
	if ev == EventFlowCancelled {
		return "cancelled"
	}
	return "completed"
}

// runtimeErr wraps err with the node's flow, step and position (the top
// flow's current step when nr is nil).
func (t *turn) runtimeErr(nr *nodeRT, err error) error {
	if nr == nil {
		nr = t.node
	}
	if nr == nil {
		if fr, top := t.topFlow(), t.top(); fr != nil {
			if i, ok := fr.index[top.Step]; ok {
				nr = fr.nodes[i]
			}
		}
	}
	if nr == nil {
		return err
	}
	return &RuntimeError{Flow: nr.flow.f.Name, Step: nr.n.ID, Pos: nr.n.Pos, Err: err}
}

// quoteShort quotes a value for the trace, cut to 80 bytes.
func quoteShort(v any) string {
	s := tmpl.Format(v)
	if len(s) > 80 {
		return strconv.Quote(text.Cut(s, 80)) + "..."
	}
	return strconv.Quote(s)
}
