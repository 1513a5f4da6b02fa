package vm

import (
	"fmt"
	"strings"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/tmpl"
)

// Options configure a [Machine].
type Options struct {
	// Actions runs the action steps. It may be nil: any action call then
	// fails with "no runner for action".
	Actions ActionRunner
	// Validators runs the named validators of collect steps. It may be
	// nil: a value for a collect with a named validator is then never
	// accepted, and each attempt reports the missing runner as a warning.
	Validators ValidatorRunner
	// Understander turns user text into commands when Input.Commands is
	// nil. If it is nil, a message with no commands is a fallback.
	Understander Understander
	// Now returns the time for checkpoint timestamps; default time.Now.
	Now func() time.Time
	// Wording gives the words of a language the machine puts into the
	// contexts of its patterns ("a, b or c" in pattern_clarification's
	// options): vm does no language work of its own. The root package
	// passes the lexicon's (lexicon.Wording). If it is nil, a list's
	// items are joined with commas alone.
	Wording Wording
	// ActionTimeout is an outer bound on every action call, whatever the
	// runner. The action's own timeout (its declaration's run.timeout, or
	// a default) belongs to the runner: package actions applies it to
	// commands, endpoints and registered Go functions alike, and says what
	// it stopped. Zero means no bound beyond the turn's context.
	ActionTimeout time.Duration
}

// Machine executes one compiled program. It is immutable after [New] and
// safe for concurrent use by any number of conversations.
type Machine struct {
	prog        *ir.Program
	opts        Options
	settings    ir.Settings
	fingerprint string
	conv        map[string]*slotRT
	flows       map[string]*flowRT
	actionErr   *tmpl.Template
	// chitchatMsg (nil: none set) and clarifyMsg are message settings.
	chitchatMsg, clarifyMsg *tmpl.Template
	// expiry is the session_expiration setting, or 0.
	expiry time.Duration
	// idleMsg, fallbackMsg and cancelMsg are the message settings, parsed
	// as templates: they may read conversation slots and use {{ }}.
	idleMsg, fallbackMsg, cancelMsg *tmpl.Template
	initial                         map[string]any
	// responses are the program's responses, compiled.
	responses map[string]*respRT
}

// slotRT is a slot definition with its compiled validation and message.
type slotRT struct {
	def        *ir.Slot
	conv       bool
	validation *compiled
	invalid    *message
}

// flowRT is a flow with its nodes compiled and indexed.
type flowRT struct {
	f     *ir.Flow
	index map[string]int
	// replaced maps the former ids its steps replace (replaces:) to
	// their index; nil when no step replaces one.
	replaced map[string]int
	slots    map[string]*slotRT
	nodes    []*nodeRT
	// collects lists, per slot, the collect steps of the flow that have a
	// validator or an error message: a value given for the slot at any
	// time must pass their validators.
	collects map[string][]*nodeRT
	// pattern is true for a conversation-repair pattern's flow.
	pattern bool
	// callees maps a slot of a flow this flow calls (directly or through
	// other calls) to the first such flow, in breadth-first order: a
	// start_flow may give values for them (language.md, slots across
	// calls).
	callees map[string]string
	// guard is the flow's if: expression, or nil.
	guard *compiled
}

// nodeRT is a node with its templates and expressions compiled.
type nodeRT struct {
	n         *ir.Node
	flow      *flowRT
	trace     string
	msg       *message
	errMsg    *message
	cond      *compiled
	eval      *compiled
	validator *compiled
	builtin   string
	// named is the collect's named validator (declared, or provided at
	// run time), run by the turn's ValidatorRunner.
	named   string
	assigns []assignRT
	// reads are the conversation slots the node reads to decide
	// something (see decisionReads).
	reads []string
}

// assignRT is one compiled assignment of a set node.
type assignRT struct {
	a    *ir.Assign
	tmpl *tmpl.Template
	expr *compiled
}

// New prepares a program for execution: it checks the IR version and the
// graph, compiles every expression and template once, and computes the
// program's fingerprint (its [ir.Fingerprint]).
func New(p *ir.Program, opts Options) (*Machine, error) {
	if p == nil {
		return nil, fmt.Errorf("no program")
	}
	if p.IRVersion != ir.Version {
		return nil, fmt.Errorf("program has IR version %d, but this soni runs IR version %d: compile the project again", p.IRVersion, ir.Version)
	}
	for _, f := range p.Flows {
		if f == nil {
			return nil, fmt.Errorf("program has a nil flow")
		}
		for _, n := range f.Nodes {
			if n == nil {
				return nil, fmt.Errorf("flow %q has a nil node", f.Name)
			}
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	fp, err := ir.Fingerprint(p)
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Machine{
		prog:        p,
		opts:        opts,
		settings:    withDefaults(p.Settings),
		fingerprint: fp,
		conv:        make(map[string]*slotRT, len(p.Slots)),
		flows:       make(map[string]*flowRT, len(p.Flows)),
		initial:     map[string]any{},
	}
	if cm := m.settings.ChitchatMessage; cm != "" {
		if m.chitchatMsg, err = tmpl.Parse(cm); err != nil {
			return nil, fmt.Errorf("setting chitchat_message %q: %v", cm, err)
		}
	}
	clarify := m.settings.ClarifyMessage
	if clarify == "" {
		clarify = "Did you mean {options}?"
	}
	if m.clarifyMsg, err = tmpl.Parse(clarify); err != nil {
		return nil, fmt.Errorf("setting clarify_message %q: %v", clarify, err)
	}
	if e := m.settings.SessionExpiration; e != "" {
		if m.expiry, err = time.ParseDuration(e); err != nil || m.expiry <= 0 {
			return nil, fmt.Errorf("setting session_expiration %q is not a positive duration", e)
		}
	}
	for _, msg := range []struct {
		name string
		src  string
		dst  **tmpl.Template
	}{
		{"action_error_message", m.settings.ActionErrorMessage, &m.actionErr},
		{"idle_message", m.settings.IdleMessage, &m.idleMsg},
		{"fallback_message", m.settings.FallbackMessage, &m.fallbackMsg},
		{"cancel_message", m.settings.CancelMessage, &m.cancelMsg},
	} {
		if *msg.dst, err = tmpl.Parse(msg.src); err != nil {
			return nil, fmt.Errorf("setting %s %q: %v", msg.name, msg.src, err)
		}
	}
	if err := m.compileResponses(); err != nil {
		return nil, err
	}
	for _, s := range p.Slots {
		if s == nil {
			return nil, fmt.Errorf("program has a nil conversation slot")
		}
		rt, err := m.compileSlot(s, true)
		if err != nil {
			return nil, err
		}
		m.conv[s.Name] = rt
		if s.Initial != nil {
			v, err := normalize(s, s.Initial)
			if err != nil {
				return nil, fmt.Errorf("%s: slot %q: initial value: %v", s.Pos, s.Name, err)
			}
			m.initial[s.Name] = v
		}
	}
	for _, f := range p.Flows {
		fr, err := m.compileFlow(f)
		if err != nil {
			return nil, err
		}
		m.flows[f.Name] = fr
	}
	for _, fr := range m.flows {
		fr.callees = p.Callees(fr.f.Name)
	}
	// The compiler gives every program a flow for each pattern: soni's
	// default where the project has none.
	for _, name := range ir.Patterns {
		if m.flows[name] == nil {
			return nil, fmt.Errorf("program has no flow %q: soni's compiler gives every program its default patterns; compile the project again", name)
		}
	}
	return m, nil
}

// withDefaults fills settings the program left at their zero value.
func withDefaults(s ir.Settings) ir.Settings {
	d := ir.DefaultSettings()
	if s.IdleMessage == "" {
		s.IdleMessage = d.IdleMessage
	}
	if s.FallbackMessage == "" {
		s.FallbackMessage = d.FallbackMessage
	}
	if s.CancelMessage == "" {
		s.CancelMessage = d.CancelMessage
	}
	if s.ActionErrorMessage == "" {
		s.ActionErrorMessage = d.ActionErrorMessage
	}
	if s.MaxStepsPerTurn <= 0 {
		s.MaxStepsPerTurn = d.MaxStepsPerTurn
	}
	if s.MaxStackDepth <= 0 {
		s.MaxStackDepth = d.MaxStackDepth
	}
	if s.HistorySize < 0 {
		s.HistorySize = 0
	}
	return s
}

func (m *Machine) compileSlot(s *ir.Slot, conv bool) (*slotRT, error) {
	rt := &slotRT{def: s, conv: conv}
	var err error
	if s.Validation != nil {
		if rt.validation, err = compileExpr(s.Validation); err != nil {
			return nil, fmt.Errorf("slot %q validation: %w", s.Name, err)
		}
	}
	if s.InvalidMessage != nil {
		if rt.invalid, err = m.parseMessage(s.InvalidMessage); err != nil {
			return nil, fmt.Errorf("slot %q invalid_message: %w", s.Name, err)
		}
	}
	return rt, nil
}

func parseTemplate(t *ir.Template) (*tmpl.Template, error) {
	if t == nil {
		return nil, nil
	}
	pt, err := tmpl.Parse(t.Src)
	if err != nil {
		return nil, fmt.Errorf("%s: template %q: %v", t.Pos, t.Src, err)
	}
	return pt, nil
}

func (m *Machine) compileFlow(f *ir.Flow) (*flowRT, error) {
	if f == nil {
		return nil, fmt.Errorf("program has a nil flow")
	}
	fr := &flowRT{f: f, index: make(map[string]int, len(f.Nodes)), slots: map[string]*slotRT{}, pattern: ir.IsPattern(f.Name)}
	if f.If != nil {
		var err error
		if fr.guard, err = compileExpr(f.If); err != nil {
			return nil, fmt.Errorf("flow %q guard: %w", f.Name, err)
		}
	}
	for _, s := range f.Slots {
		if s == nil {
			return nil, fmt.Errorf("flow %q has a nil slot", f.Name)
		}
		if _, ok := m.conv[s.Name]; ok {
			continue // a name declared at the top level always means the conversation slot
		}
		rt, err := m.compileSlot(s, false)
		if err != nil {
			return nil, fmt.Errorf("flow %q: %w", f.Name, err)
		}
		fr.slots[s.Name] = rt
	}
	implicit := func(name string) {
		if name == "" {
			return
		}
		if _, ok := m.conv[name]; ok {
			return
		}
		if _, ok := fr.slots[name]; !ok {
			fr.slots[name] = &slotRT{def: &ir.Slot{Name: name, Type: ir.TypeAny, Pos: f.Pos}}
		}
	}
	for i, n := range f.Nodes {
		if n == nil {
			return nil, fmt.Errorf("flow %q has a nil node", f.Name)
		}
		if _, dup := fr.index[n.ID]; dup {
			return nil, fmt.Errorf("flow %q has two steps with id %q", f.Name, n.ID)
		}
		fr.index[n.ID] = i
		for _, old := range n.Replaces {
			if fr.replaced == nil {
				fr.replaced = map[string]int{}
			}
			fr.replaced[old] = i
		}
		nr, err := m.compileNode(fr, n)
		if err != nil {
			return nil, fmt.Errorf("%s: flow %q step %q: %w", n.Pos, f.Name, n.ID, err)
		}
		fr.nodes = append(fr.nodes, nr)
		switch n.Kind {
		case ir.KindCollect, ir.KindConfirm:
			implicit(n.Slot)
			if n.Kind == ir.KindCollect && (nr.builtin != "" || nr.named != "" || nr.validator != nil || nr.errMsg != nil) {
				if fr.collects == nil {
					fr.collects = map[string][]*nodeRT{}
				}
				fr.collects[n.Slot] = append(fr.collects[n.Slot], nr)
			}
		case ir.KindSet:
			for _, a := range n.Assign {
				implicit(a.Slot)
			}
		case ir.KindAction:
			for _, mp := range n.MapOutputs {
				implicit(mp.Slot)
			}
		}
	}
	return fr, nil
}

func (m *Machine) compileNode(fr *flowRT, n *ir.Node) (*nodeRT, error) {
	nr := &nodeRT{n: n, flow: fr, trace: "step " + fr.f.Name + "." + n.ID + " (" + string(n.Kind) + ")"}
	var err error
	if nr.msg, err = m.parseMessage(n.Message); err != nil {
		return nil, err
	}
	if nr.errMsg, err = m.parseMessage(n.ErrorMessage); err != nil {
		return nil, err
	}
	if n.Condition != nil {
		if nr.cond, err = compileExpr(n.Condition); err != nil {
			return nil, err
		}
	}
	if n.Evaluate != nil {
		if nr.eval, err = compileExpr(n.Evaluate); err != nil {
			return nil, err
		}
	}
	if v := n.Validator; v != nil {
		switch {
		case v.Expr != nil:
			if nr.validator, err = compileExpr(v.Expr); err != nil {
				return nil, err
			}
		case v.Builtin != "":
			if _, ok := builtinValidators[v.Builtin]; !ok {
				return nil, fmt.Errorf("unknown validator %q (built-ins are %s)", v.Builtin, strings.Join(ir.BuiltinValidators, ", "))
			}
			nr.builtin = v.Builtin
		case v.Name != "":
			nr.named = v.Name
		}
	}
	if n.AskAction != "" && n.Kind != ir.KindCollect {
		return nil, fmt.Errorf("%s step has an ask_action: only a collect asks with an action", n.Kind)
	}
	switch n.Kind {
	case ir.KindSay:
		if nr.msg == nil {
			return nil, fmt.Errorf("say step has no message")
		}
	case ir.KindCollect:
		if n.Slot == "" || nr.msg == nil && n.AskAction == "" {
			return nil, fmt.Errorf("collect step needs a slot and a message or an ask_action")
		}
	case ir.KindConfirm:
		if n.Slot == "" {
			return nil, fmt.Errorf("confirm step needs a slot")
		}
	case ir.KindBranch:
		if n.Slot == "" && nr.eval == nil {
			return nil, fmt.Errorf("branch step needs a slot or an expression")
		}
	case ir.KindWhile:
		if nr.cond == nil {
			return nil, fmt.Errorf("while step has no condition")
		}
	case ir.KindAction:
		if n.Action == "" {
			return nil, fmt.Errorf("action step names no action")
		}
	case ir.KindSet, ir.KindLink, ir.KindCall:
	default:
		return nil, fmt.Errorf("unknown step kind %q", n.Kind)
	}
	for i := range n.Assign {
		a := &n.Assign[i]
		ar := assignRT{a: a}
		switch a.Kind {
		case ir.AssignLiteral, ir.AssignClear:
		case ir.AssignTemplate:
			if a.Template == nil {
				return nil, fmt.Errorf("set of slot %q has no template", a.Slot)
			}
			if ar.tmpl, err = parseTemplate(a.Template); err != nil {
				return nil, err
			}
		case ir.AssignExpr:
			if a.Expr == nil {
				return nil, fmt.Errorf("set of slot %q has no expression", a.Slot)
			}
			if ar.expr, err = compileExpr(a.Expr); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("set of slot %q has unknown kind %q", a.Slot, a.Kind)
		}
		nr.assigns = append(nr.assigns, ar)
	}
	nr.reads = m.decisionReads(nr)
	return nr, nil
}

// Program returns the program the machine runs.
func (m *Machine) Program() *ir.Program { return m.prog }

// Fingerprint returns the program's fingerprint ([ir.Fingerprint]), which every
// checkpoint written by this machine carries.
func (m *Machine) Fingerprint() string { return m.fingerprint }

// Settings returns the program's settings with defaults applied.
func (m *Machine) Settings() ir.Settings { return m.settings }

// slot resolves a slot name as seen from a flow ("" for no flow): a
// conversation slot if one is declared, else the flow's own slot.
func (m *Machine) slot(flow *flowRT, name string) *slotRT {
	if s, ok := m.conv[name]; ok {
		return s
	}
	if flow != nil {
		return flow.slots[name]
	}
	return nil
}
