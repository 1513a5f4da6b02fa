package compiler

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// mode says how columns inside a scalar map to columns in the file.
type mode uint8

// The scalar modes.
const (
	// ModeApprox: only the scalar's own position is known.
	ModeApprox mode = iota
	// ModeInline: a one-line scalar whose characters sit on the line from Pos on.
	ModeInline
	// ModeBlock: a literal block scalar; line n of the value is line Pos.Line+n-1, starting at Pos.Col.
	ModeBlock
	// ModeMapped: a scalar whose characters do not sit one for one in the
	// file (escapes, folded lines): Str.at holds the position of each rune.
	ModeMapped
)

// filePos is where one rune of a scalar's value is in the file.
type filePos struct{ line, col int32 }

// posStr is a positioned string from the source: a scalar, a key or a name.
type posStr struct {
	V    string
	Pos  diag.Pos
	Path string
	Mode mode
	// Set is true when the value was present in the source.
	Set bool
	// at holds the file position of each rune of V (ModeMapped only).
	at *[]filePos
}

// At returns the position of the rune at offset (line and column within the
// value are 1-based line and 0-based column) when the mode allows it, else Pos.
func (s posStr) At(line, col int) diag.Pos {
	switch s.Mode {
	case ModeInline:
		if line <= 1 {
			return diag.Pos{File: s.Pos.File, Line: s.Pos.Line, Col: s.Pos.Col + col}
		}
	case ModeBlock:
		if line < 1 {
			line = 1
		}
		return diag.Pos{File: s.Pos.File, Line: s.Pos.Line + line - 1, Col: s.Pos.Col + col}
	case ModeMapped:
		if s.at == nil || len(*s.at) == 0 {
			return s.Pos
		}
		at := *s.at
		off := runeOffset(s.V, line, col)
		if off >= len(at) {
			last := at[len(at)-1]
			return diag.Pos{File: s.Pos.File, Line: int(last.line), Col: int(last.col) + 1}
		}
		return diag.Pos{File: s.Pos.File, Line: int(at[off].line), Col: int(at[off].col)}
	}
	return s.Pos
}

// runeOffset converts a 1-based line and 0-based rune column within v to
// a rune offset.
func runeOffset(v string, line, col int) int {
	off, l := 0, 1
	for _, r := range v {
		if l >= line {
			break
		}
		off++
		if r == '\n' {
			l++
		}
	}
	return off + col
}

// project is a decoded project: every definition with its positions.
type project struct {
	Files    []*File
	Settings []*setting
	Slots    []*slotDef
	Actions  []*action
	// Validators are the named validators declared under validators:
	// action-shaped declarations with only a description and a run block.
	Validators []*action
	Flows      []*flow
	Responses  []*response

	slots      map[string]*slotDef
	actions    map[string]*action
	validators map[string]*action
	flows      map[string]*flow
	responses  map[string]*response
	// stubbed are the actions the project's conversation tests stub
	// (stub_custom_actions, ACTION or CASE::ACTION), read from the test
	// files compiled with it.
	stubbed map[string]bool
}

// response is a response definition: a name and its variations.
type response struct {
	Name       posStr
	Variations []*variation
	// Builtin is true for a response soni provides for its default
	// patterns; its text comes from a message setting.
	Builtin bool
	Pos     diag.Pos
	Path    string
}

// variation is one variation of a response.
type variation struct {
	Text        posStr
	Condition   []*slotCond
	Buttons     []*button
	Image       posStr
	Custom      any
	Channel     posStr
	Translation []*translation
	Pos         diag.Pos
	Path        string
}

// slotCond is one condition of a variation.
type slotCond struct {
	Name  posStr
	Value any
	Pos   diag.Pos
}

// button is one button of a variation.
type button struct {
	Title   posStr
	Payload posStr
	Pos     diag.Pos
}

// translation is a variation's text in one language.
type translation struct {
	Lang posStr
	Text posStr
}

// File is one source file of the project.
type File struct {
	Path string
	Src  []byte
}

// setting is one key of a settings mapping.
type setting struct {
	Key   posStr
	Value any
	// Text is the value with its position when it is a string (the
	// message settings are templates).
	Text posStr
	Pos  diag.Pos
}

// slotDef is a slot definition: a conversation slot (Flow is nil) or a flow slot.
type slotDef struct {
	Name        posStr
	Type        posStr
	Resolved    ir.SlotType
	Description posStr
	Label       posStr
	Values      []ir.Value
	ValuesSet   bool
	Min, Max    *float64
	// MinItems and MaxItems are a list slot's bounds on its number of
	// items, as written.
	MinItems, MaxItems posCount
	Pattern            posStr
	Validation         posStr
	Invalid            posStr
	// InvalidResp is the response named by invalid_message: {response: NAME}.
	InvalidResp posStr
	Initial     any
	HasInitial  bool
	InitialPos  diag.Pos
	Flow        *flow
	// Implicit is true for a flow slot created by use, not declared.
	Implicit bool
	// ReadOnly is true for a pattern flow's context slot, which the VM
	// fills when it starts the pattern.
	ReadOnly bool
	Pos      diag.Pos
	Path     string
}

// posCount is a whole number as written in the source: Set is true when
// the key was present, and Pos is where its value is.
type posCount struct {
	V   int
	Set bool
	Pos diag.Pos
}

// action is an action declaration.
type action struct {
	Name        posStr
	Description posStr
	Inputs      []posStr
	Required    []posStr
	Outputs     []posStr
	// RequiredOutputs are the outputs a call must return.
	RequiredOutputs []posStr
	Run             *ir.Run
	// Durations are the run block's timeouts and backoff, as written.
	Durations []posStr
	Pos       diag.Pos
	Path      string
}

// flow is a flow definition.
type flow struct {
	Name posStr
	// Label is the flow's name: key, its name for people.
	Label       posStr
	Description posStr
	Triggers    []posStr
	// MinConfidence is trigger.min_confidence (0: any).
	MinConfidence float64
	// If is the flow's guard expression.
	If posStr
	// Builtin is true for a pattern's default flow, made by soni.
	Builtin bool
	Slots   []*slotDef
	// Steps are the top-level steps in list order, followed by inline
	// while-body steps in the order they appear.
	Steps []*step
	// Main is the number of top-level steps at the start of Steps.
	Main  int
	Pos   diag.Pos
	Path  string
	steps map[string]*step
	slots map[string]*slotDef
}

// step is one step of a flow, with every field it may have. The fields
// that only some step types have live in per-type groups, embedded so that
// they read as fields of the step (s.Validator, s.Cases...). A step that
// has none of a group's fields points at a shared empty group, which is
// never written: the decoder gives a step its own group before it sets one
// of its fields. Most steps have one group, which keeps the model of a
// large project small.
type step struct {
	Flow  *flow
	Index int
	ID    posStr
	Type  posStr
	// Kind is the step's kind, or "" when its type is not one the
	// language knows (the schema reports that); checks switch on it.
	Kind ir.Kind
	Pos  diag.Pos
	Path string

	JumpTo posStr
	// Replaces are the step's former ids (replaces:).
	Replaces []posStr
	Message  posStr
	// Response is the response the step says instead of a message.
	Response  posStr
	Slot      posStr
	Condition posStr
	Rephrase  bool

	// Inline is true for a step written inside a while's do list.
	Inline bool
	// Loop is the while step whose body holds this step, if any.
	Loop *step

	*collectFields
	*setFields
	*branchFields
	*whileFields
	*actionFields
	*linkFields
	*confirmFields
}

// collectFields are the fields of collect steps.
type collectFields struct {
	Validator    posStr
	ErrorMessage posStr
	// ErrorResp is the response named by validation_error_message:
	// {response: NAME}.
	ErrorResp   posStr
	Force       bool
	MaxAttempts int
	OnInvalid   posStr
	// AskAction is the action that asks the question (ask_action).
	AskAction posStr
}

// setFields are the fields of set steps.
type setFields struct {
	Assign []*assign
}

// branchFields are the fields of branch steps.
type branchFields struct {
	Evaluate posStr
	Cases    []*branchCase
}

// whileFields are the fields of while steps.
type whileFields struct {
	Do     []*doEntry
	ExitTo posStr
}

// actionFields are the fields of action steps.
type actionFields struct {
	Call       posStr
	MapOutputs []*mapping
	OnError    posStr
}

// linkFields are the fields of link and call steps.
type linkFields struct {
	Target posStr
}

// confirmFields are the fields of confirm steps.
type confirmFields struct {
	OnConfirm posStr
	OnDeny    posStr
}

// The shared empty groups of steps that lack them. Never written.
var (
	noCollect collectFields
	noSet     setFields
	noBranch  branchFields
	noWhile   whileFields
	noAction  actionFields
	noLink    linkFields
	noConfirm confirmFields
)

// newStep returns a step that has none of the per-type field groups.
func newStep(f *flow, pos diag.Pos, path string) *step {
	return &step{Flow: f, Pos: pos, Path: path,
		collectFields: &noCollect, setFields: &noSet, branchFields: &noBranch, whileFields: &noWhile,
		actionFields: &noAction, linkFields: &noLink, confirmFields: &noConfirm}
}

// The accessors below return a step's own group, allocating it the first
// time, so that the decoder never writes to a shared empty group.

func (s *step) collect() *collectFields {
	if s.collectFields == &noCollect {
		s.collectFields = &collectFields{}
	}
	return s.collectFields
}

// calls returns the action a step runs: an action step's call, or a
// collect's ask_action; Set is false for none.
func (s *step) calls() posStr {
	switch s.Kind {
	case ir.KindAction:
		return s.Call
	case ir.KindCollect:
		return s.AskAction
	}
	return posStr{}
}

func (s *step) set() *setFields {
	if s.setFields == &noSet {
		s.setFields = &setFields{}
	}
	return s.setFields
}

func (s *step) branch() *branchFields {
	if s.branchFields == &noBranch {
		s.branchFields = &branchFields{}
	}
	return s.branchFields
}

func (s *step) while() *whileFields {
	if s.whileFields == &noWhile {
		s.whileFields = &whileFields{}
	}
	return s.whileFields
}

func (s *step) action() *actionFields {
	if s.actionFields == &noAction {
		s.actionFields = &actionFields{}
	}
	return s.actionFields
}

func (s *step) link() *linkFields {
	if s.linkFields == &noLink {
		s.linkFields = &linkFields{}
	}
	return s.linkFields
}

func (s *step) confirm() *confirmFields {
	if s.confirmFields == &noConfirm {
		s.confirmFields = &confirmFields{}
	}
	return s.confirmFields
}

// assign is one entry of a set step's slots mapping.
type assign struct {
	Slot posStr
	Kind ir.AssignKind
	// Value is the literal (AssignLiteral).
	Value any
	// Src is the template or expression source.
	Src posStr
	Pos diag.Pos
}

// branchCase is one branch case.
type branchCase struct {
	Pattern posStr
	Target  posStr
}

// doEntry is one entry of a while's do list: a reference or an inline step.
type doEntry struct {
	Ref  posStr
	Step *step
}

// mapping is one map_outputs entry.
type mapping struct {
	Output posStr
	Slot   posStr
}

// Flow returns the flow with the given name, or nil.
func (p *project) Flow(name string) *flow { return p.flows[name] }

// Validator returns the declared validator with the given name, or nil.
func (p *project) Validator(name string) *action { return p.validators[name] }

// namedValidator reports whether a collect step's validator text names a
// validator rather than being an expression: a built-in or declared name,
// or any other bare name that is not `value`, a literal or a slot the flow
// can see (an undeclared validator, to be provided at run time).
func (p *project) namedValidator(f *flow, v string) bool {
	switch {
	case ir.IsBuiltinValidator(v) || p.validators[v] != nil:
		return true
	case !validatorNameRE().MatchString(v):
		return false
	}
	switch strings.ToLower(v) {
	case "value", "true", "false", "nil", "null", "none":
		return false
	}
	return p.Visible(f, v) == nil
}

var validatorNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Response returns the response with the given name, or nil.
func (p *project) Response(name string) *response { return p.responses[name] }

// Action returns the action with the given name, or nil.
func (p *project) Action(name string) *action { return p.actions[name] }

// Slot returns the conversation slot with the given name, or nil.
func (p *project) Slot(name string) *slotDef { return p.slots[name] }

// Step returns the step with the given id, or nil.
func (f *flow) Step(id string) *step { return f.steps[id] }

// Visible returns the slot a flow sees by this name: the conversation slot
// if one is declared, else the flow's own slot, else nil.
func (p *project) Visible(f *flow, name string) *slotDef {
	if s := p.slots[name]; s != nil {
		return s
	}
	if f != nil {
		return f.slots[name]
	}
	return nil
}
