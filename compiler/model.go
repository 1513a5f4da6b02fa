package compiler

import (
	"regexp"
	"strings"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// Mode says how columns inside a scalar map to columns in the file.
type Mode uint8

// The scalar modes.
const (
	// ModeApprox: only the scalar's own position is known.
	ModeApprox Mode = iota
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

// Str is a positioned string from the source: a scalar, a key or a name.
type Str struct {
	V    string
	Pos  diag.Pos
	Path string
	Mode Mode
	// Set is true when the value was present in the source.
	Set bool
	// at holds the file position of each rune of V (ModeMapped only).
	at *[]filePos
}

// At returns the position of the rune at offset (line and column within the
// value are 1-based line and 0-based column) when the mode allows it, else Pos.
func (s Str) At(line, col int) diag.Pos {
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

// Project is a decoded project: every definition with its positions.
type Project struct {
	// Dir is the project directory: the directory given, or a one-file project's directory.
	Dir      string
	Files    []*File
	Settings []*Setting
	Slots    []*Slot
	Actions  []*Action
	// Validators are the named validators declared under validators:
	// action-shaped declarations with only a description and a run block.
	Validators []*Action
	Flows      []*Flow

	slots      map[string]*Slot
	actions    map[string]*Action
	validators map[string]*Action
	flows      map[string]*Flow
}

// File is one source file of the project.
type File struct {
	Path string
	Src  []byte
}

// Setting is one key of a settings mapping.
type Setting struct {
	Key   Str
	Value any
	// Text is the value with its position when it is a string (the
	// message settings are templates).
	Text Str
	Pos  diag.Pos
}

// Slot is a slot definition: a conversation slot (Flow is nil) or a flow slot.
type Slot struct {
	Name        Str
	Type        Str
	Resolved    ir.SlotType
	Description Str
	Label       Str
	Values      []ir.Value
	ValuesSet   bool
	Min, Max    *float64
	Pattern     Str
	Validation  Str
	Invalid     Str
	Initial     any
	HasInitial  bool
	InitialPos  diag.Pos
	Flow        *Flow
	// Implicit is true for a flow slot created by use, not declared.
	Implicit bool
	Pos      diag.Pos
	Path     string
}

// Action is an action declaration.
type Action struct {
	Name        Str
	Description Str
	Inputs      []Str
	Required    []Str
	Outputs     []Str
	Run         *ir.Run
	// Durations are the run block's timeouts and backoff, as written.
	Durations []Str
	Pos       diag.Pos
	Path      string
}

// Flow is a flow definition.
type Flow struct {
	Name        Str
	Description Str
	Triggers    []Str
	Slots       []*Slot
	// Steps are the top-level steps in list order, followed by inline
	// while-body steps in the order they appear.
	Steps []*Step
	// Main is the number of top-level steps at the start of Steps.
	Main  int
	Pos   diag.Pos
	Path  string
	steps map[string]*Step
	slots map[string]*Slot
}

// Step is one step of a flow, with every field it may have. The fields
// that only some step types have live in per-type groups, embedded so that
// they read as fields of the step (s.Validator, s.Cases...). A step that
// has none of a group's fields points at a shared empty group, which is
// never written: the decoder gives a step its own group before it sets one
// of its fields. Most steps have one group, which keeps the model of a
// large project small.
type Step struct {
	Flow  *Flow
	Index int
	ID    Str
	Type  Str
	// Kind is the step's kind, or "" when its type is not one the
	// language knows (the schema reports that); checks switch on it.
	Kind ir.Kind
	Pos  diag.Pos
	Path string

	JumpTo    Str
	Message   Str
	Slot      Str
	Condition Str
	Rephrase  bool

	// Inline is true for a step written inside a while's do list.
	Inline bool
	// Loop is the while step whose body holds this step, if any.
	Loop *Step

	*CollectFields
	*SetFields
	*BranchFields
	*WhileFields
	*ActionFields
	*LinkFields
	*ConfirmFields
}

// CollectFields are the fields of collect steps.
type CollectFields struct {
	Validator    Str
	ErrorMessage Str
	Force        bool
	MaxAttempts  int
	OnInvalid    Str
}

// SetFields are the fields of set steps.
type SetFields struct {
	Assign []*Assign
}

// BranchFields are the fields of branch steps.
type BranchFields struct {
	Evaluate Str
	Cases    []*Case
}

// WhileFields are the fields of while steps.
type WhileFields struct {
	Do     []*DoEntry
	ExitTo Str
}

// ActionFields are the fields of action steps.
type ActionFields struct {
	Call       Str
	MapOutputs []*Mapping
	OnError    Str
}

// LinkFields are the fields of link and call steps.
type LinkFields struct {
	Target Str
}

// ConfirmFields are the fields of confirm steps.
type ConfirmFields struct {
	OnConfirm Str
	OnDeny    Str
}

// The shared empty groups of steps that lack them. Never written.
var (
	noCollect CollectFields
	noSet     SetFields
	noBranch  BranchFields
	noWhile   WhileFields
	noAction  ActionFields
	noLink    LinkFields
	noConfirm ConfirmFields
)

// newStep returns a step that has none of the per-type field groups.
func newStep(f *Flow, pos diag.Pos, path string) *Step {
	return &Step{Flow: f, Pos: pos, Path: path,
		CollectFields: &noCollect, SetFields: &noSet, BranchFields: &noBranch, WhileFields: &noWhile,
		ActionFields: &noAction, LinkFields: &noLink, ConfirmFields: &noConfirm}
}

// The accessors below return a step's own group, allocating it the first
// time, so that the decoder never writes to a shared empty group.

func (s *Step) collect() *CollectFields {
	if s.CollectFields == &noCollect {
		s.CollectFields = &CollectFields{}
	}
	return s.CollectFields
}

func (s *Step) set() *SetFields {
	if s.SetFields == &noSet {
		s.SetFields = &SetFields{}
	}
	return s.SetFields
}

func (s *Step) branch() *BranchFields {
	if s.BranchFields == &noBranch {
		s.BranchFields = &BranchFields{}
	}
	return s.BranchFields
}

func (s *Step) while() *WhileFields {
	if s.WhileFields == &noWhile {
		s.WhileFields = &WhileFields{}
	}
	return s.WhileFields
}

func (s *Step) action() *ActionFields {
	if s.ActionFields == &noAction {
		s.ActionFields = &ActionFields{}
	}
	return s.ActionFields
}

func (s *Step) link() *LinkFields {
	if s.LinkFields == &noLink {
		s.LinkFields = &LinkFields{}
	}
	return s.LinkFields
}

func (s *Step) confirm() *ConfirmFields {
	if s.ConfirmFields == &noConfirm {
		s.ConfirmFields = &ConfirmFields{}
	}
	return s.ConfirmFields
}

// Assign is one entry of a set step's slots mapping.
type Assign struct {
	Slot Str
	Kind ir.AssignKind
	// Value is the literal (AssignLiteral).
	Value any
	// Src is the template or expression source.
	Src Str
	Pos diag.Pos
}

// Case is one branch case.
type Case struct {
	Pattern Str
	Target  Str
}

// DoEntry is one entry of a while's do list: a reference or an inline step.
type DoEntry struct {
	Ref  Str
	Step *Step
}

// Mapping is one map_outputs entry.
type Mapping struct {
	Output Str
	Slot   Str
}

// Flow returns the flow with the given name, or nil.
func (p *Project) Flow(name string) *Flow { return p.flows[name] }

// Validator returns the declared validator with the given name, or nil.
func (p *Project) Validator(name string) *Action { return p.validators[name] }

// namedValidator reports whether a collect step's validator text names a
// validator rather than being an expression: a built-in or declared name,
// or any other bare name that is not `value`, a literal or a slot the flow
// can see (an undeclared validator, to be provided at run time).
func (p *Project) namedValidator(f *Flow, v string) bool {
	switch {
	case ir.IsBuiltinValidator(v) || p.validators[v] != nil:
		return true
	case !validatorNameRE.MatchString(v):
		return false
	}
	switch strings.ToLower(v) {
	case "value", "true", "false", "nil", "null", "none":
		return false
	}
	return p.Visible(f, v) == nil
}

var validatorNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Action returns the action with the given name, or nil.
func (p *Project) Action(name string) *Action { return p.actions[name] }

// Slot returns the conversation slot with the given name, or nil.
func (p *Project) Slot(name string) *Slot { return p.slots[name] }

// Step returns the step with the given id, or nil.
func (f *Flow) Step(id string) *Step { return f.steps[id] }

// Visible returns the slot a flow sees by this name: the conversation slot
// if one is declared, else the flow's own slot, else nil.
func (p *Project) Visible(f *Flow, name string) *Slot {
	if s := p.slots[name]; s != nil {
		return s
	}
	if f != nil {
		return f.slots[name]
	}
	return nil
}
