package compiler

import (
	"errors"
	"strings"

	"reflect"

	exprast "github.com/expr-lang/expr/ast"
	exprchecker "github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/exprcompat"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/tmpl"
)

// checker holds what the semantic checks share: the project, the
// diagnostics, and every expression and template of the project, analysed
// once.
type checker struct {
	p       *project
	ds      *diag.List
	exprs   []*exprUse
	tmpls   []*tmplUse
	envs    map[*syntax.Flow]map[string]any
	configs map[envKey]*conf.Config
	// respUses lists, per response name, where it is said, in the order
	// the checker met them.
	respUses map[string][]*respUse
}

// respUse is one place that names a response: a step's response, a message
// field's {response: NAME}, or a collect that asks with utter_ask_SLOT.
type respUse struct {
	Name syntax.Str
	Flow *syntax.Flow
	Step *syntax.Step
	// Value is true where {value}, the refused input, may be shown.
	Value bool
	// Implicit is true for a collect's utter_ask_SLOT, which need not exist.
	Implicit bool
}

// envKey names an expression environment: a flow's slots, plus the type
// of `value` in validations.
type envKey struct {
	flow  *syntax.Flow
	value ir.SlotType
}

// exprUse is one expression in the project and what analysing it found.
type exprUse struct {
	Src  syntax.Str
	Flow *syntax.Flow
	Step *syntax.Step
	// Value is the slot whose value `value` stands for (validations).
	Value *syntax.Slot
	Bool  bool
	// Refs are the visible slots the expression reads, in order.
	Refs []string
	// Unknown are names that are no visible slot.
	Unknown []nameRef
	// Err is a syntax or type error.
	Err *file.Error
}

type nameRef struct {
	Name      string
	Line, Col int
	// Compared is true for an operand of == or !=, where an unknown bare
	// word is most likely text that lacks its quotes (city == Madrid).
	Compared bool
}

// tmplUse is one template in the project.
type tmplUse struct {
	Src  syntax.Str
	Flow *syntax.Flow
	Step *syntax.Step
	// Setting is true for a message setting: it is said in whatever flow
	// is running, so it may read a conversation slot or any flow's slot,
	// and action_error_message also {action}.
	Setting bool
	T       *tmpl.Template
	Err     *tmpl.Error
	Refs    []string
	Unknown []tmpl.Part
	// Via names the response this template belongs to, when the template
	// is a variation's text checked where a step says the response.
	Via *syntax.Response
}

// check is one semantic check.
type check struct {
	name string
	run  func(c *checker)
}

// checks lists every semantic check, in the order they run; each lives in
// its own file, check_NAME.go. A new check is added here, explicitly (as
// actionlint lists its rules), not registered from an init function.
var checks = []check{
	{"ask_actions", checkAskActions},
	{"branch_patterns", checkBranchPatterns},
	{"duplicates", checkDuplicates},
	{"durations", checkDurations},
	{"endless_patterns", checkEndlessPatterns},
	{"expressions", checkExpressions},
	{"flow_refs", checkFlowRefs},
	{"kept_slots", checkKeptSlots},
	{"list_slots", checkListSlots},
	{"loop_bodies", checkLoopBodies},
	{"loops", checkLoops},
	{"messages", checkMessages},
	{"mixed_logic", checkMixedLogic},
	{"names", checkNames},
	{"outputs", checkOutputs},
	{"patterns", checkPatterns},
	{"reachability", checkReachability},
	{"replaces", checkReplaces},
	{"read_only_slots", checkReadOnlySlots},
	{"recursion", checkRecursion},
	{"reserved_names", checkReservedNames},
	{"responses", checkResponses},
	{"runnerless_actions", checkRunnerlessActions},
	{"set_types", checkSetTypes},
	{"slot_refs", checkSlotRefs},
	{"slot_types", checkSlotTypes},
	{"slot_values", checkSlotValues},
	{"startable", checkStartable},
	{"step_ids", checkStepIds},
	{"targets", checkTargets},
	{"templates", checkTemplates},
	{"triggers", checkTriggers},
	{"undeclared_actions", checkUndeclaredActions},
	{"undeclared_validators", checkUndeclaredValidators},
	{"unset", checkUnset},
	{"unused_actions", checkUnusedActions},
	{"unused_slots", checkUnusedSlots},
}

func newChecker(p *project, ds *diag.List) *checker {
	c := &checker{p: p, ds: ds, envs: map[*syntax.Flow]map[string]any{}, configs: map[envKey]*conf.Config{}, respUses: map[string][]*respUse{}}
	c.collect()
	return c
}

func (c *checker) run() {
	for _, ch := range checks {
		ch.run(c)
	}
}

// messageSettings are the settings that are templates (language.md §2,
// docs/language.md §7).
var messageSettings = map[string]bool{"idle_message": true, "fallback_message": true, "cancel_message": true, "action_error_message": true, "chitchat_message": true}

// collect gathers every expression and template of the project.
func (c *checker) collect() {
	for _, st := range c.p.Settings {
		if messageSettings[st.Key.V] && st.Text.Set {
			c.settingTmpl(st)
		}
	}
	for _, s := range c.p.Slots {
		c.slotUses(s, nil)
	}
	for _, f := range c.p.Flows {
		if f.If.Set {
			// A guard is tested before the flow starts, when only the
			// conversation slots hold values.
			c.expr(&exprUse{Src: f.If, Bool: true})
		}
		for _, s := range f.Slots {
			c.slotUses(s, f)
		}
		for _, s := range f.Steps {
			c.tmpl(s.Message, f, s)
			c.tmplValue(s.ErrorMessage, f, s, true, nil)
			c.response(&respUse{Name: s.Response, Flow: f, Step: s})
			c.response(&respUse{Name: s.ErrorResp, Flow: f, Step: s, Value: true})
			if s.Kind == ir.KindCollect && !s.Message.Set && !s.Response.Set && !s.AskAction.Set && s.Slot.Set {
				c.response(&respUse{Name: syntax.Str{V: ir.AskResponse(s.Slot.V), Pos: s.Pos, Path: s.Path, Set: true}, Flow: f, Step: s, Implicit: true})
			}
			if s.Condition.Set {
				c.expr(&exprUse{Src: s.Condition, Flow: f, Step: s, Bool: true})
			}
			if s.Evaluate.Set {
				c.expr(&exprUse{Src: s.Evaluate, Flow: f, Step: s, Bool: true})
			}
			if s.Validator.Set && !c.p.namedValidator(f, s.Validator.V) {
				c.expr(&exprUse{Src: s.Validator, Flow: f, Step: s, Bool: true, Value: c.p.Visible(f, s.Slot.V)})
			}
			for _, a := range s.Assign {
				switch a.Kind {
				case ir.AssignExpr:
					c.expr(&exprUse{Src: a.Src, Flow: f, Step: s})
				case ir.AssignTemplate:
					c.tmpl(a.Src, f, s)
				}
			}
		}
	}
	// A response no step says is checked on its own: its templates may
	// read any slot, as a message setting's may.
	for _, r := range c.p.Responses {
		if c.p.responses[r.Name.V] != r || len(c.respUses[r.Name.V]) > 0 {
			continue
		}
		for _, v := range r.Variations {
			c.respTmpl(v.Text, r, nil, nil, true)
			for _, t := range v.Translation {
				c.respTmpl(t.Text, r, nil, nil, true)
			}
		}
	}
}

// response records a use of a response and checks the templates of its
// variations where it is said: in flow f, at step s.
func (c *checker) response(u *respUse) {
	if !u.Name.Set {
		return
	}
	c.respUses[u.Name.V] = append(c.respUses[u.Name.V], u)
	r := c.p.responses[u.Name.V]
	if r == nil || r.Builtin {
		// Unknown (check_messages says so), or soni's own default, whose
		// text is a message setting checked as such.
		return
	}
	for _, v := range r.Variations {
		c.respTmpl(v.Text, r, u.Flow, u.Step, u.Value)
		for _, t := range v.Translation {
			c.respTmpl(t.Text, r, u.Flow, u.Step, u.Value)
		}
	}
}

// respTmpl records a variation's template as said from flow f at step st;
// with no flow it may read any slot.
func (c *checker) respTmpl(s syntax.Str, r *syntax.Response, f *syntax.Flow, st *syntax.Step, value bool) {
	if f == nil {
		c.tmplValue(s, nil, nil, value, r)
		if n := len(c.tmpls); n > 0 && c.tmpls[n-1].Src == s {
			u := c.tmpls[n-1]
			u.Setting = true
			var unknown []tmpl.Part
			for _, part := range u.Unknown {
				if c.anySlot(part.Slot) || isContextName(part.Slot) {
					u.Refs = append(u.Refs, part.Slot)
				} else {
					unknown = append(unknown, part)
				}
			}
			u.Unknown = unknown
		}
		return
	}
	c.tmplValue(s, f, st, value, r)
}

func (c *checker) slotUses(s *syntax.Slot, f *syntax.Flow) {
	c.tmplValue(s.Invalid, f, nil, true, nil)
	c.response(&respUse{Name: s.InvalidResp, Flow: f, Value: true})
	if s.Validation.Set {
		c.expr(&exprUse{Src: s.Validation, Flow: f, Bool: true, Value: s})
	}
}

// tmpl parses and records a template.
func (c *checker) tmpl(s syntax.Str, f *syntax.Flow, st *syntax.Step) {
	c.tmplValue(s, f, st, false, nil)
}

// tmplValue parses and records a template; with value, {value} (the
// refused input of an invalid message) is no slot reference. via is the
// response whose variation the template is, if any.
func (c *checker) tmplValue(s syntax.Str, f *syntax.Flow, st *syntax.Step, value bool, via *syntax.Response) {
	if !s.Set {
		return
	}
	u := &tmplUse{Src: s, Flow: f, Step: st, Via: via}
	t, err := tmpl.Parse(s.V)
	if err != nil {
		var te *tmpl.Error
		if errors.As(err, &te) {
			u.Err = te
		}
	} else {
		u.T = t
		for _, part := range t.Parts {
			if part.Slot == "" || (value && part.Slot == "value" && !c.visible(f, "value")) {
				continue
			}
			if c.visible(f, part.Slot) {
				u.Refs = append(u.Refs, part.Slot)
			} else {
				u.Unknown = append(u.Unknown, part)
			}
		}
	}
	c.tmpls = append(c.tmpls, u)
}

// settingTmpl parses and records a message setting's template. Its
// references may name a conversation slot or a slot of any flow (the
// message is said while that flow runs), and action_error_message may
// also say {action}, the failed action's name.
func (c *checker) settingTmpl(st *syntax.Setting) {
	u := &tmplUse{Src: st.Text, Setting: true}
	t, err := tmpl.Parse(st.Text.V)
	if err != nil {
		var te *tmpl.Error
		if errors.As(err, &te) {
			u.Err = te
		}
		c.tmpls = append(c.tmpls, u)
		return
	}
	u.T = t
	for _, part := range t.Parts {
		switch {
		case part.Slot == "":
		case part.Slot == "action" && st.Key.V == "action_error_message":
		case c.anySlot(part.Slot):
			u.Refs = append(u.Refs, part.Slot)
		default:
			u.Unknown = append(u.Unknown, part)
		}
	}
	c.tmpls = append(c.tmpls, u)
}

// anySlot reports whether some conversation slot or some flow's slot
// (declared or implicit) has this name.
func (c *checker) anySlot(name string) bool {
	if c.p.slots[name] != nil {
		return true
	}
	for _, f := range c.p.Flows {
		if f.SlotsByName[name] != nil {
			return true
		}
	}
	return false
}

// visible reports whether a flow (nil: conversation scope) sees a slot.
func (c *checker) visible(f *syntax.Flow, name string) bool {
	if f == nil {
		return c.p.slots[name] != nil
	}
	return c.p.Visible(f, name) != nil
}

// env builds the expr environment of a flow: every visible typed slot as a
// variable holding a zero value of its type, and the slots map. Slots of
// type any are left out: the configuration is not strict, so expr types
// them as interface values that compare with anything, and unknown names
// were already reported by the reference walk.
func (c *checker) env(f *syntax.Flow) map[string]any {
	if e, ok := c.envs[f]; ok {
		return e
	}
	e := map[string]any{}
	for _, s := range c.p.Slots {
		if s.Resolved != ir.TypeAny && !exprcompat.IsBuiltin(s.Name.V) {
			e[s.Name.V] = zeroOf(s.Resolved)
		}
	}
	if f != nil {
		for _, s := range f.Slots {
			if _, ok := e[s.Name.V]; !ok && s.Resolved != ir.TypeAny && c.p.slots[s.Name.V] == nil && !exprcompat.IsBuiltin(s.Name.V) {
				e[s.Name.V] = zeroOf(s.Resolved)
			}
		}
	}
	e["slots"] = map[string]any{}
	c.envs[f] = e
	return e
}

func zeroOf(t ir.SlotType) any {
	switch t {
	case ir.TypeInteger:
		return 0
	case ir.TypeNumber:
		return 0.0
	case ir.TypeBoolean:
		return false
	case ir.TypeList:
		return []string{}
	}
	return ""
}

// expr parses an expression, records the slots it reads and names it does
// not know, and type-checks it against the slot types.
func (c *checker) expr(u *exprUse) {
	c.exprs = append(c.exprs, u)
	src := exprcompat.Rewrite(u.Src.V)
	cfg := c.config(u.Flow, u.Value)
	tree, err := parser.ParseWithConfig(src, cfg)
	if err != nil {
		u.Err = fileError(err)
		return
	}
	runes := []rune(src)
	// Walk visits children before their parent, so the names that let
	// declares are collected first.
	locals := localNames{}
	exprast.Walk(&tree.Node, locals)
	compared := comparedNames{}
	exprast.Walk(&tree.Node, compared)
	v := &refVisitor{c: c, u: u, runes: runes, seen: map[string]bool{}, locals: locals, compared: compared}
	exprast.Walk(&tree.Node, v)
	if len(u.Unknown) > 0 {
		return
	}
	// A slot named like a built-in (count, date) is the slot.
	exprast.Walk(&tree.Node, &exprcompat.ShadowBuiltins{})
	cfg.Expect, cfg.ExpectAny = reflect.Invalid, false
	if u.Bool {
		cfg.Expect, cfg.ExpectAny = reflect.Bool, true
	}
	if _, err := exprchecker.Check(tree, cfg); err != nil {
		u.Err = fileError(err)
	}
}

func fileError(err error) *file.Error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return fe
	}
	return &file.Error{Message: err.Error(), Line: 1}
}

// config returns the expr configuration for expressions of a flow (nil:
// conversation scope), built once per flow and validated slot type.
func (c *checker) config(f *syntax.Flow, value *syntax.Slot) *conf.Config {
	k := envKey{flow: f}
	if value != nil {
		k.value = value.Resolved
		if k.value == "" {
			k.value = ir.TypeText
		}
	}
	if cfg, ok := c.configs[k]; ok {
		return cfg
	}
	env := c.env(f)
	if value != nil {
		e := make(map[string]any, len(env)+1)
		for name, val := range env {
			e[name] = val
		}
		if value.Resolved != ir.TypeAny {
			e["value"] = zeroOf(value.Resolved)
		}
		env = e
	}
	cfg := conf.New(env)
	cfg.Strict = false
	c.configs[k] = cfg
	return cfg
}

type refVisitor struct {
	c        *checker
	u        *exprUse
	runes    []rune
	seen     map[string]bool
	locals   localNames
	compared comparedNames
}

// comparedNames collects the identifiers compared by == or != with another
// name (city == Madrid), where one of the two is probably text that lacks
// its quotes.
type comparedNames map[*exprast.IdentifierNode]bool

func (m comparedNames) Visit(n *exprast.Node) {
	b, ok := (*n).(*exprast.BinaryNode)
	if !ok || (b.Operator != "==" && b.Operator != "!=") {
		return
	}
	l, lok := b.Left.(*exprast.IdentifierNode)
	r, rok := b.Right.(*exprast.IdentifierNode)
	if lok && rok {
		m[l], m[r] = true, true
	}
}

// localNames collects the variables an expression declares with let.
type localNames map[string]bool

func (l localNames) Visit(n *exprast.Node) {
	if x, ok := (*n).(*exprast.VariableDeclaratorNode); ok {
		l[x.Name] = true
	}
}

func (v *refVisitor) Visit(n *exprast.Node) {
	switch x := (*n).(type) {
	case *exprast.MemberNode:
		if id, ok := x.Node.(*exprast.IdentifierNode); ok && id.Value == "slots" {
			if prop, ok := x.Property.(*exprast.StringNode); ok {
				v.ref(prop.Value, prop.Location().From)
			}
		}
	case *exprast.IdentifierNode:
		switch x.Value {
		case "slots", "value":
			if x.Value == "value" && v.u.Value == nil {
				v.ref(x.Value, x.Location().From)
			}
			return
		}
		if v.locals[x.Value] {
			return
		}
		v.ref(x.Value, x.Location().From)
		if n := len(v.u.Unknown); n > 0 && v.compared[x] && v.u.Unknown[n-1].Name == x.Value {
			v.u.Unknown[n-1].Compared = true
		}
	}
}

func (v *refVisitor) ref(name string, from int) {
	if v.c.visible(v.u.Flow, name) {
		if !v.seen[name] {
			v.seen[name] = true
			v.u.Refs = append(v.u.Refs, name)
		}
		return
	}
	line, col := runePos(v.runes, from)
	v.u.Unknown = append(v.u.Unknown, nameRef{Name: name, Line: line, Col: col})
}

// visibleNames lists the slot names a flow sees, for suggestions.
func (c *checker) visibleNames(f *syntax.Flow) []string {
	var out []string
	for _, s := range c.p.Slots {
		out = append(out, s.Name.V)
	}
	if f != nil {
		for _, s := range f.Slots {
			if c.p.slots[s.Name.V] == nil {
				out = append(out, s.Name.V)
			}
		}
	}
	return out
}

// stepDesc names a step for messages: step "x" of flow "f".
func stepDesc(s *syntax.Step) string {
	var b strings.Builder
	b.WriteString("step ")
	b.WriteString(quote(s.ID.V))
	b.WriteString(" of flow ")
	b.WriteString(quote(s.Flow.Name.V))
	return b.String()
}

func quote(s string) string { return `"` + s + `"` }

// isContextName reports whether name is a pattern's read-only slot: a
// response said by a default pattern may show it.
func isContextName(name string) bool {
	for _, p := range ir.Patterns {
		if ir.IsPatternSlot(p, name) {
			return true
		}
	}
	return false
}
