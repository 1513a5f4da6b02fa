package syntax

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"github.com/soni-dev/soni/internal/yamlpos"

	"github.com/goccy/go-yaml/ast"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
)

// File is one project file (flows, slots, actions, validators, responses
// and settings): what it defines, in file order. The compiler reads a
// project as the Files of its YAML files.
type File struct {
	// Name is the file's name, as positions give it.
	Name string
	// Version is the version key ("1.0").
	Version    Str
	Settings   []*Setting
	Slots      []*Slot
	Actions    []*Action
	Validators []*Action
	Flows      []*Flow
	Responses  []*Response
	// Comments are the comments of the document's top-level keys
	// ("version", "flows"...); the comment lines at the top of the file
	// are the head of "" (written before the first key).
	Comments Comments
	// Extra are the keys the model has no field for, in file order.
	Extra []Field
	// Foot are the comment lines after the last key.
	Foot []string
}

// Field is a key the model has no field for, with its value as generic
// data (see Reader.Generic): the schema reports the keys soni does not
// know, and the model keeps them, so that writing a file back loses
// nothing.
type Field struct {
	Key   Str
	Value any
}

// Response is a response definition: a name and its variations.
type Response struct {
	Name       Str
	Variations []*Variation
	// Builtin is true for a response soni provides for its default
	// patterns; its text comes from a message setting.
	Builtin bool
	Pos     Pos
	Path    string
	// Comments are the response's comments ("" is its key).
	Comments Comments
}

// Variation is one variation of a response.
type Variation struct {
	Text      Str
	Condition []*SlotCond
	Buttons   []*Button
	Image     Str
	// Custom is the custom payload, as generic data.
	Custom      any
	Channel     Str
	Translation []*Translation
	Pos         Pos
	Path        string
	// Comments are the variation's comments ("" is its list item).
	Comments Comments
	// OneLine is true for a variation written as a flow mapping, {a: 1, b: 2}:
	// Encode writes it so again when its values allow, which keeps a
	// comment after it on the line it is about (# soni:ignore).
	OneLine bool
	// Extra are the keys the model has no field for, in file order.
	Extra []Field
}

// SlotCond is one condition of a variation: the slot and the value it
// must have.
type SlotCond struct {
	// Type is the condition's type as written ("slot", the only one).
	Type  Str
	Name  Str
	Value any
	Pos   Pos
}

// Button is one button of a variation.
type Button struct {
	Title   Str
	Payload Str
	Pos     Pos
}

// Translation is a variation's text in one language.
type Translation struct {
	Lang Str
	Text Str
}

// Setting is one key of a settings mapping.
type Setting struct {
	Key Str
	// Value is the value as generic data (see Reader.Generic).
	Value any
	// Text is the value with its position when it is a string (the
	// message settings are templates).
	Text Str
	Pos  Pos
	// Comments are the setting's comments ("" is its key).
	Comments Comments
}

// Slot is a slot definition: a conversation slot (Flow is nil) or a flow
// slot.
type Slot struct {
	Name Str
	Type Str
	// Resolved is the slot's type: Type read through its aliases ("int",
	// "str"...), categorical for a slot with values and no type, else text.
	Resolved    ir.SlotType
	Description Str
	Label       Str
	Values      []ir.Value
	// ValuesSet is true when the values key is present.
	ValuesSet bool
	Min, Max  *float64
	// MinItems and MaxItems are a list slot's bounds on its number of
	// items, as written.
	MinItems, MaxItems Count
	Pattern            Str
	Validation         Str
	Invalid            Str
	// InvalidResp is the response named by invalid_message: {response: NAME}.
	InvalidResp Str
	Initial     any
	HasInitial  bool
	InitialPos  Pos
	// Flow is the flow that declares the slot, nil for a conversation slot.
	Flow *Flow
	// Implicit is true for a flow slot created by use, not declared (the
	// compiler adds them; Encode leaves them out).
	Implicit bool
	// ReadOnly is true for a pattern flow's context slot, which the VM
	// fills when it starts the pattern.
	ReadOnly bool
	Pos      Pos
	Path     string
	// Comments are the slot's comments ("" is its key or list item).
	Comments Comments
	// OneLine is true for a slot written as a flow mapping, {a: 1, b: 2}:
	// Encode writes it so again when its values allow, which keeps a
	// comment after it on the line it is about (# soni:ignore).
	OneLine bool
	// Extra are the keys the model has no field for, in file order.
	Extra []Field
}

// Action is an action or validator declaration.
type Action struct {
	Name        Str
	Description Str
	Inputs      []Str
	// Required are the inputs a call must give.
	Required []Str
	Outputs  []Str
	// RequiredOutputs are the outputs a call must return.
	RequiredOutputs []Str
	Run             *ir.Run
	// Durations are the run block's timeouts and backoff, as written.
	Durations []Str
	Pos       Pos
	Path      string
	// Comments are the action's comments ("" is its key).
	Comments Comments
	// Extra are the keys the model has no field for, in file order.
	Extra []Field
}

// Flow is a flow definition.
type Flow struct {
	Name Str
	// Label is the flow's name: key, its name for people.
	Label       Str
	Description Str
	Triggers    []Str
	// MinConfidence is trigger.min_confidence (0: any).
	MinConfidence float64
	// If is the flow's guard expression.
	If Str
	// Builtin is true for a pattern's default flow, made by soni.
	Builtin bool
	Slots   []*Slot
	// Steps are the top-level steps in list order, followed by inline
	// while-body steps in the order they appear.
	Steps []*Step
	// Main is the number of top-level steps at the start of Steps.
	Main int
	Pos  Pos
	Path string
	// StepsByID and SlotsByName index the flow's steps and slots; the
	// compiler fills them.
	StepsByID   map[string]*Step
	SlotsByName map[string]*Slot
	// Comments are the flow's comments ("" is its key).
	Comments Comments
	// Extra are the keys the model has no field for, in file order.
	Extra []Field
}

// Step returns the step with the given id, or nil.
func (f *Flow) Step(id string) *Step { return f.StepsByID[id] }

// Step is one step of a flow, with every field it may have. The fields
// that only some step types have live in per-type groups, embedded so that
// they read as fields of the step (s.Validator, s.Cases...). A step that
// has none of a group's fields points at a shared empty group, which is
// never written: set a group's fields through its accessor (s.Collect(),
// s.Branch()...), which gives the step its own group first. Most steps
// have one group, which keeps the model of a large project small. Make
// steps with NewStep.
type Step struct {
	Flow  *Flow
	Index int
	ID    Str
	Type  Str
	// Kind is the step's kind, or "" when its type is not one the
	// language knows (the schema reports that); checks switch on it.
	Kind ir.Kind
	Pos  Pos
	Path string

	JumpTo Str
	// Replaces are the step's former ids (replaces:).
	Replaces []Str
	Message  Str
	// Response is the response the step says instead of a message.
	Response  Str
	Slot      Str
	Condition Str

	// Inline is true for a step written inside a while's do list.
	Inline bool
	// Loop is the while step whose body holds this step, if any.
	Loop *Step

	// Comments are the step's comments ("" is its list item).
	Comments Comments
	// OneLine is true for a step written as a flow mapping, {a: 1, b: 2}:
	// Encode writes it so again when its values allow, which keeps a
	// comment after it on the line it is about (# soni:ignore).
	OneLine bool
	// Extra are the keys the model has no field for, in file order.
	Extra []Field

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
	// ErrorResp is the response named by validation_error_message:
	// {response: NAME}.
	ErrorResp   Str
	Force       bool
	MaxAttempts int
	OnInvalid   Str
	// AskAction is the action that asks the question (ask_action).
	AskAction Str
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
	MapOutputs []*OutputMap
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

// NewStep returns a step of flow f (nil for none yet) at pos and path
// that has none of the per-type field groups.
func NewStep(f *Flow, pos Pos, path string) *Step {
	return &Step{Flow: f, Pos: pos, Path: path,
		CollectFields: &noCollect, SetFields: &noSet, BranchFields: &noBranch, WhileFields: &noWhile,
		ActionFields: &noAction, LinkFields: &noLink, ConfirmFields: &noConfirm}
}

// The accessors below return a step's own group, allocating it the first
// time, so that no one writes to a shared empty group.

// own returns *group, first replacing it with a new group of its own
// when it is nil or the shared empty one.
func own[T any](group **T, shared *T) *T {
	if *group == nil || *group == shared {
		*group = new(T)
	}
	return *group
}

// Collect returns the step's own collect fields.
func (s *Step) Collect() *CollectFields { return own(&s.CollectFields, &noCollect) }

// Set returns the step's own set fields.
func (s *Step) Set() *SetFields { return own(&s.SetFields, &noSet) }

// Branch returns the step's own branch fields.
func (s *Step) Branch() *BranchFields { return own(&s.BranchFields, &noBranch) }

// While returns the step's own while fields.
func (s *Step) While() *WhileFields { return own(&s.WhileFields, &noWhile) }

// Action returns the step's own action fields.
func (s *Step) Action() *ActionFields { return own(&s.ActionFields, &noAction) }

// Link returns the step's own link fields.
func (s *Step) Link() *LinkFields { return own(&s.LinkFields, &noLink) }

// Confirm returns the step's own confirm fields.
func (s *Step) Confirm() *ConfirmFields { return own(&s.ConfirmFields, &noConfirm) }

// Calls returns the action a step runs: an action step's call, or a
// collect's ask_action; Set is false for none.
func (s *Step) Calls() Str {
	switch s.Kind {
	case ir.KindAction:
		if s.ActionFields != nil {
			return s.Call
		}
	case ir.KindCollect:
		if s.CollectFields != nil {
			return s.AskAction
		}
	}
	return Str{}
}

// Assign is one entry of a set step's slots mapping.
type Assign struct {
	Slot Str
	Kind ir.AssignKind
	// Value is the literal (AssignLiteral).
	Value any
	// Src is the template or expression source.
	Src Str
	Pos Pos
}

// Case is one case of a branch step: a pattern and the step it goes to.
type Case struct {
	Pattern Str
	Target  Str
}

// DoEntry is one entry of a while's do list: a reference to a step, or an
// inline step (Step is set, and Ref is its id).
type DoEntry struct {
	Ref  Str
	Step *Step
}

// OutputMap is one map_outputs entry: an action's output and the slot it
// fills.
type OutputMap struct {
	Output Str
	Slot   Str
}

// flowDecoder reads one project file's tree into a File.
type flowDecoder struct {
	*Reader
	file *File
}

// DecodeFlows reads a project file (flows, slots, actions, validators,
// responses, settings) from its source, with its comments. name is the
// file's name in positions. A file that is not valid YAML, holds several
// documents or is not a mapping is an error; problems in the definitions
// (a duplicate key, an unsupported version) come back as a diag.ListError
// beside the file, which holds what could be read. The schema is not
// checked: the compiler does that.
func DecodeFlows(name string, src []byte) (*File, error) {
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("%s: the file is not UTF-8 text", name)
	}
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			return nil, fmt.Errorf("%s: invalid YAML: %s", name, yaml.FormatError(err, false, false))
		}
		return nil, fmt.Errorf("%s: invalid YAML: %w", name, err)
	}
	var body ast.Node
	for _, doc := range f.Docs {
		if doc.Body == nil {
			continue
		}
		if _, ok := doc.Body.(*ast.CommentGroupNode); ok {
			continue
		}
		if body != nil {
			return nil, fmt.Errorf("%s: the file holds more than one YAML document", name)
		}
		body = doc.Body
	}
	if p := CheckTree(body, maxDepth, maxExpansion, nil); p != nil {
		return nil, fmt.Errorf("%s: %s", name, p.Message)
	}
	var ds diag.List
	r := NewReader(name, src, body, nil, &ds)
	if body != nil {
		if _, ok := r.Unwrap(body).(*ast.MappingNode); !ok {
			return nil, fmt.Errorf("%s: the file is %s, not a mapping of definitions", name, yamlpos.KindWord(body))
		}
	}
	file := DecodeFlowsTree(r, body)
	byPath, foot := r.AttachComments(src)
	file.Attach(byPath, foot)
	if ds.HasErrors() {
		return file, diag.ListError(ds)
	}
	return file, nil
}

// DecodeFlowsTree reads a project file from its parsed body with r, which
// reports problems to its Diags. Comments are not read: call
// r.AttachComments and File.Attach for them.
func DecodeFlowsTree(r *Reader, body ast.Node) *File {
	d := &flowDecoder{Reader: r, file: &File{Name: r.File}}
	d.decodeFile(body)
	return d.file
}

// decodeFile reads the file's top-level keys.
func (d *flowDecoder) decodeFile(body ast.Node) {
	for _, e := range d.Entries(body, "") {
		switch e.Key.V {
		case "version":
			d.version(e.Value)
			d.file.Version = d.Str(e.Value, e.Key.Path)
		case "settings":
			for _, s := range d.Entries(e.Value, "settings") {
				v, _ := d.Scalar(s.Value)
				if _, ok := d.Scalar(s.Value); !ok {
					v = d.GenericAt(s.Value, s.Key.Path)
				}
				st := &Setting{Key: s.Key, Value: v, Pos: s.Key.Pos}
				if _, isStr := v.(string); isStr {
					st.Text = d.Str(s.Value, s.Key.Path)
				}
				d.file.Settings = append(d.file.Settings, st)
			}
		case "slots":
			for _, s := range d.Entries(e.Value, "slots") {
				slot := d.slot(s.Value, s.Key, s.Key.Path)
				d.file.Slots = append(d.file.Slots, slot)
			}
		case "actions":
			for _, a := range d.Entries(e.Value, "actions") {
				d.file.Actions = append(d.file.Actions, d.action(a))
			}
		case "validators":
			for _, a := range d.Entries(e.Value, "validators") {
				d.file.Validators = append(d.file.Validators, d.action(a))
			}
		case "flows":
			for _, f := range d.Entries(e.Value, "flows") {
				d.file.Flows = append(d.file.Flows, d.flow(f))
			}
		case "responses":
			for _, r := range d.Entries(e.Value, "responses") {
				d.file.Responses = append(d.file.Responses, d.response(r))
			}
		default:
			d.file.Extra = append(d.file.Extra, d.field(e))
		}
	}
}

// version reports a version other than "1.0" (E010). The string must be
// "1.0"; a number must equal 1.0 (1, 1.0 and 1.00 are the same number). A
// list, a mapping or null is the schema's wrong type (E012), not reported
// here.
func (d *flowDecoder) version(n ast.Node) {
	raw, ok := d.Scalar(n)
	if !ok || raw == nil {
		return
	}
	switch x := raw.(type) {
	case string:
		if x == "1.0" {
			return
		}
	case int64:
		if x == 1 {
			return
		}
	case uint64:
		if x == 1 {
			return
		}
	case float64:
		if x == 1 {
			return
		}
	}
	v := d.Str(n, "version")
	d.Diags.Add(v.Pos, diag.CodeVersion, "version", "unsupported version %q: this soni supports version \"1.0\"", v.V)
}

// TypeAliases are the slot type names and the types they stand for.
var TypeAliases = map[string]ir.SlotType{
	"text": ir.TypeText, "string": ir.TypeText, "str": ir.TypeText,
	"integer": ir.TypeInteger, "int": ir.TypeInteger,
	"number": ir.TypeNumber, "float": ir.TypeNumber,
	"boolean": ir.TypeBoolean, "bool": ir.TypeBoolean,
	"categorical": ir.TypeCategorical,
	"date":        ir.TypeDate,
	"any":         ir.TypeAny,
	"list":        ir.TypeList,
}

// slot decodes a slot definition mapping.
func (d *flowDecoder) slot(n ast.Node, name Str, path string) *Slot {
	s := &Slot{Name: name, Pos: name.Pos, Path: path, Resolved: ir.TypeText}
	s.OneLine = d.oneLine(n)
	for _, e := range d.Entries(n, path) {
		switch e.Key.V {
		case "name":
			if s.Name.V == "" {
				s.Name = d.Str(e.Value, e.Key.Path)
			}
		case "type":
			s.Type = d.Str(e.Value, e.Key.Path)
		case "description":
			s.Description = d.Str(e.Value, e.Key.Path)
		case "label":
			s.Label = d.Str(e.Value, e.Key.Path)
		case "values":
			s.ValuesSet = true
			if items := d.ItemsAt(e.Value, e.Key.Path); items != nil {
				for i, it := range items {
					if v := d.Str(it, Index(e.Key.Path, i)); v.Set {
						s.Values = append(s.Values, ir.Value{Value: v.V})
					}
				}
			} else {
				for _, ve := range d.Entries(e.Value, e.Key.Path) {
					val := ir.Value{Value: ve.Key.V}
					syns := ve.Value
					// {label: "premium economy", synonyms: [...]}
					if fields := d.Entries(ve.Value, ve.Key.Path); fields != nil {
						syns = nil
						for _, f := range fields {
							switch f.Key.V {
							case "label":
								val.Label = d.Str(f.Value, f.Key.Path).V
							case "synonyms":
								syns = f.Value
							}
						}
					}
					if syns != nil {
						for _, syn := range d.StrList(syns, ve.Key.Path) {
							val.Synonyms = append(val.Synonyms, syn.V)
						}
					}
					s.Values = append(s.Values, val)
				}
			}
		case "min":
			if f, ok := d.Number(e.Value); ok {
				s.Min = &f
			}
		case "max":
			if f, ok := d.Number(e.Value); ok {
				s.Max = &f
			}
		case "pattern":
			s.Pattern = d.Str(e.Value, e.Key.Path)
		case "min_items":
			s.MinItems = d.Count(e.Value)
		case "max_items":
			s.MaxItems = d.Count(e.Value)
		case "validation":
			s.Validation = d.Str(e.Value, e.Key.Path)
		case "invalid_message":
			s.Invalid, s.InvalidResp = d.message(e)
		case "initial":
			s.Initial = d.GenericAt(e.Value, e.Key.Path)
			s.HasInitial = true
			s.InitialPos = d.Pos(e.Value)
		default:
			s.Extra = append(s.Extra, d.field(e))
		}
	}
	if s.Type.Set {
		if t, ok := TypeAliases[strings.ToLower(s.Type.V)]; ok {
			s.Resolved = t
		}
	} else if s.ValuesSet {
		s.Resolved = ir.TypeCategorical
	}
	return s
}

// action decodes an action declaration.
func (d *flowDecoder) action(e Entry) *Action {
	a := &Action{Name: e.Key, Pos: e.Key.Pos, Path: e.Key.Path}
	for _, f := range d.Entries(e.Value, e.Key.Path) {
		switch f.Key.V {
		case "description":
			a.Description = d.Str(f.Value, f.Key.Path)
		case "inputs":
			items := d.ItemsAt(f.Value, f.Key.Path)
			if items != nil && a.Inputs == nil {
				a.Inputs = []Str{}
			}
			for i, it := range items {
				p := Index(f.Key.Path, i)
				if s := d.Str(it, p); s.Set {
					a.Inputs = append(a.Inputs, s)
					continue
				}
				var name Str
				req := false
				for _, g := range d.Entries(it, p) {
					switch g.Key.V {
					case "name":
						name = d.Str(g.Value, g.Key.Path)
					case "required":
						req = d.Bool(g.Value)
					}
				}
				if name.Set {
					a.Inputs = append(a.Inputs, name)
					if req {
						a.Required = append(a.Required, name)
					}
				}
			}
		case "required":
			a.Required = append(a.Required, d.StrList(f.Value, f.Key.Path)...)
		case "outputs":
			a.Outputs = d.StrList(f.Value, f.Key.Path)
		case "required_outputs":
			a.RequiredOutputs = d.StrList(f.Value, f.Key.Path)
		case "run":
			a.Run = d.run(f.Value, f.Key.Path, &a.Durations)
		default:
			a.Extra = append(a.Extra, d.field(f))
		}
	}
	return a
}

// run decodes an action's run block.
func (d *flowDecoder) run(n ast.Node, path string, durations *[]Str) *ir.Run {
	dur := func(n ast.Node, path string) string {
		s := d.Str(n, path)
		if s.Set {
			*durations = append(*durations, s)
		}
		return s.V
	}
	r := &ir.Run{}
	for _, e := range d.Entries(n, path) {
		switch e.Key.V {
		case "exec":
			if s := d.Str(e.Value, e.Key.Path); s.Set {
				r.Exec = strings.Fields(s.V)
			} else {
				for _, s := range d.StrList(e.Value, e.Key.Path) {
					r.Exec = append(r.Exec, s.V)
				}
			}
		case "env":
			for _, s := range d.StrList(e.Value, e.Key.Path) {
				r.Env = append(r.Env, s.V)
			}
		case "timeout":
			r.Timeout = dur(e.Value, e.Key.Path)
		case "http":
			r.HTTP = d.httpRun(e.Value, e.Key.Path, dur)
		case "rasa":
			r.Rasa = d.httpRun(e.Value, e.Key.Path, dur)
		}
	}
	return r
}

// httpRun decodes an http or rasa block of a run block; dur decodes a
// duration.
func (d *flowDecoder) httpRun(n ast.Node, path string, dur func(ast.Node, string) string) *ir.HTTP {
	h := &ir.HTTP{}
	for _, g := range d.Entries(n, path) {
		switch g.Key.V {
		case "url":
			h.URL = d.Str(g.Value, g.Key.Path).V
		case "timeout":
			h.Timeout = dur(g.Value, g.Key.Path)
		case "headers":
			h.Headers = map[string]string{}
			for _, hh := range d.Entries(g.Value, g.Key.Path) {
				h.Headers[hh.Key.V] = d.Str(hh.Value, hh.Key.Path).V
			}
		case "retry":
			rt := &ir.Retry{}
			for _, rr := range d.Entries(g.Value, g.Key.Path) {
				switch rr.Key.V {
				case "attempts":
					f, _ := d.Number(rr.Value)
					rt.Attempts = int(f)
				case "backoff":
					rt.Backoff = dur(rr.Value, rr.Key.Path)
				}
			}
			h.Retry = rt
		}
	}
	return h
}

// flow decodes a flow definition.
func (d *flowDecoder) flow(e Entry) *Flow {
	f := &Flow{Name: e.Key, Pos: e.Key.Pos, Path: e.Key.Path, StepsByID: map[string]*Step{}, SlotsByName: map[string]*Slot{}}
	var inline []*Step
	for _, g := range d.Entries(e.Value, e.Key.Path) {
		switch g.Key.V {
		case "description":
			f.Description = d.Str(g.Value, g.Key.Path)
		case "name":
			f.Label = d.Str(g.Value, g.Key.Path)
		case "if":
			f.If = d.Str(g.Value, g.Key.Path)
		case "trigger":
			for _, t := range d.Entries(g.Value, g.Key.Path) {
				switch t.Key.V {
				case "intents":
					f.Triggers = append(f.Triggers, d.StrList(t.Value, t.Key.Path)...)
				case "min_confidence":
					if v, ok := d.Number(t.Value); ok {
						f.MinConfidence = v
					}
				}
			}
		case "slots":
			for i, it := range d.ItemsAt(g.Value, g.Key.Path) {
				p := Index(g.Key.Path, i)
				s := d.slot(it, Str{Pos: d.ItemPos(g.Value, i, it), Path: p}, p)
				if s.Name.Set {
					s.Pos = s.Name.Pos
				}
				s.Flow = f
				f.Slots = append(f.Slots, s)
			}
		case "steps":
			for i, it := range d.ItemsAt(g.Value, g.Key.Path) {
				st := d.step(f, it, d.ItemPos(g.Value, i, it), Index(g.Key.Path, i), &inline)
				f.Steps = append(f.Steps, st)
			}
		default:
			f.Extra = append(f.Extra, d.field(g))
		}
	}
	f.Main = len(f.Steps)
	f.Steps = append(f.Steps, inline...)
	for i, s := range f.Steps {
		s.Index = i
	}
	return f
}

// step decodes one step; inline while-body steps are appended to inline.
func (d *flowDecoder) step(f *Flow, n ast.Node, pos Pos, path string, inline *[]*Step) *Step {
	s := NewStep(f, pos, path)
	s.OneLine = d.oneLine(n)
	str := func(e Entry) Str { return d.Str(e.Value, e.Key.Path) }
	// jump reads a jump target: the Python framework's __end_flow__ is
	// read as __end__, with a warning.
	jump := func(v Str, field string) Str {
		if v.V == "__end_flow__" {
			d.Diags.Add(v.Pos, diag.CodeEndFlow, v.Path, "%s: __end_flow__ is the Python framework's name for __end__: soni reads it as __end__ (ends the flow normally); write __end__", field)
			v.V = ir.EndStep
		}
		return v
	}
	var slotKey, evalKey *Str
	for _, e := range d.Entries(n, path) {
		switch e.Key.V {
		case "slot":
			slotKey = &e.Key
		case "evaluate":
			evalKey = &e.Key
		}
		switch e.Key.V {
		case "step":
			s.ID = str(e)
		case "type":
			s.Type = str(e)
			if knownKind(s.Type.V) {
				s.Kind = ir.Kind(s.Type.V)
			}
		case "jump_to":
			s.JumpTo = jump(str(e), "jump_to")
		case "replaces":
			s.Replaces = d.StrList(e.Value, e.Key.Path)
		case "message":
			s.Message = str(e)
		case "response":
			s.Response = str(e)
		case "slot":
			s.Slot = str(e)
		case "validator":
			s.Collect().Validator = str(e)
		case "validation_error_message":
			s.Collect().ErrorMessage, s.Collect().ErrorResp = d.message(e)
		case "force":
			s.Collect().Force = d.Bool(e.Value)
		case "max_attempts":
			if f, ok := d.Number(e.Value); ok {
				s.Collect().MaxAttempts = int(f)
			}
		case "on_invalid":
			s.Collect().OnInvalid = jump(str(e), "on_invalid")
		case "ask_action":
			s.Collect().AskAction = str(e)
		case "slots":
			for _, a := range d.Entries(e.Value, e.Key.Path) {
				s.Set().Assign = append(s.Assign, d.assign(a))
			}
		case "condition":
			s.Condition = str(e)
		case "evaluate":
			s.Branch().Evaluate = str(e)
		case "cases":
			for _, c := range d.Entries(e.Value, e.Key.Path) {
				pat := c.Key
				if c.Bool {
					// True: or FALSE: is a YAML boolean, and means the
					// pattern true or false (as for the Python framework,
					// whose YAML reader saw a boolean key).
					pat.V = strings.ToLower(pat.V)
				}
				s.Branch().Cases = append(s.Cases, &Case{Pattern: pat, Target: jump(d.Str(c.Value, c.Key.Path), "branch case")})
			}
		case "do":
			for i, it := range d.ItemsAt(e.Value, e.Key.Path) {
				p := Index(e.Key.Path, i)
				if ref := d.Str(it, p); ref.Set {
					s.While().Do = append(s.Do, &DoEntry{Ref: ref})
					continue
				}
				if _, ok := d.Unwrap(it).(*ast.MappingNode); ok {
					body := d.step(f, it, d.ItemPos(e.Value, i, it), p, inline)
					body.Inline = true
					*inline = append(*inline, body)
					s.While().Do = append(s.Do, &DoEntry{Ref: body.ID, Step: body})
				}
			}
		case "exit_to":
			s.While().ExitTo = jump(str(e), "exit_to")
		case "call":
			s.Action().Call = str(e)
		case "map_outputs":
			for _, m := range d.Entries(e.Value, e.Key.Path) {
				s.Action().MapOutputs = append(s.MapOutputs, &OutputMap{Output: m.Key, Slot: d.Str(m.Value, m.Key.Path)})
			}
		case "on_error":
			s.Action().OnError = jump(str(e), "on_error")
		case "target":
			s.Link().Target = str(e)
		case "on_confirm":
			s.Confirm().OnConfirm = jump(str(e), "on_confirm")
		case "on_deny":
			s.Confirm().OnDeny = jump(str(e), "on_deny")
		default:
			s.Extra = append(s.Extra, d.field(e))
		}
	}
	if s.Kind == ir.KindBranch {
		switch {
		case slotKey == nil && evalKey == nil:
			d.Diags.Add(pos, diag.CodeMissingField, path,
				"missing required field \"slot\" or \"evaluate\" in branch step: give the slot whose value the cases test, or an expression")
		case slotKey != nil && evalKey != nil:
			d.Diags.Add(evalKey.Pos, diag.CodeInvalidValue, evalKey.Path,
				"branch step has both \"slot\" and \"evaluate\": keep exactly one")
		}
	}
	return s
}

// assign decodes one Entry of a set step's slots.
func (d *flowDecoder) assign(e Entry) *Assign {
	a := &Assign{Slot: e.Key, Pos: d.Pos(e.Value)}
	if ents := d.Entries(e.Value, e.Key.Path); ents != nil {
		for _, x := range ents {
			if x.Key.V == "expr" {
				a.Kind = ir.AssignExpr
				a.Src = d.Str(x.Value, x.Key.Path)
				a.Pos = a.Src.Pos
			}
		}
		if a.Kind == "" {
			a.Kind = ir.AssignLiteral
			a.Value = d.GenericAt(e.Value, e.Key.Path)
			if len(ents) == 1 && IsExprTypo(ents[0].Key.V) {
				k := ents[0].Key
				dg := d.Diags.Add(k.Pos, diag.CodeUnknownKey, k.Path, "unknown key %q in an {expr: ...} value", k.V)
				dg.Suggestion = `did you mean "expr"?`
			}
		}
		return a
	}
	v, ok := d.Scalar(e.Value)
	if !ok {
		a.Kind = ir.AssignLiteral
		a.Value = d.GenericAt(e.Value, e.Key.Path)
		return a
	}
	switch x := v.(type) {
	case nil:
		a.Kind = ir.AssignClear
	case string:
		if strings.ContainsAny(x, "{}") {
			a.Kind = ir.AssignTemplate
			a.Src = d.Str(e.Value, e.Key.Path)
		} else {
			a.Kind = ir.AssignLiteral
			a.Value = x
		}
	default:
		a.Kind = ir.AssignLiteral
		a.Value = v
	}
	return a
}

// IsExprTypo reports whether the only key of a mapping set as a value is
// a misspelt expr ("exp", "Expr", "expression"), not a mapping literal's key.
func IsExprTypo(key string) bool {
	return key != "expr" && exprTypos[strings.ToLower(key)]
}

var exprTypos = map[string]bool{"expr": true, "exp": true, "exprs": true, "exrp": true, "epxr": true, "expression": true, "eval": true}

// message reads a message field: a template string, or {response: NAME}.
// It returns the template or the response name; at most one is set.
func (d *flowDecoder) message(e Entry) (text, resp Str) {
	if _, ok := d.Unwrap(e.Value).(*ast.MappingNode); ok {
		for _, f := range d.Entries(e.Value, e.Key.Path) {
			if f.Key.V == "response" {
				resp = d.Str(f.Value, f.Key.Path)
			}
		}
		return Str{}, resp
	}
	return d.Str(e.Value, e.Key.Path), Str{}
}

// response decodes a response: a list of variations (the schema checked
// the shape; anything else is skipped).
func (d *flowDecoder) response(e Entry) *Response {
	r := &Response{Name: e.Key, Pos: e.Key.Pos, Path: e.Key.Path}
	for i, it := range d.ItemsAt(e.Value, e.Key.Path) {
		p := Index(e.Key.Path, i)
		v := &Variation{Pos: d.ItemPos(e.Value, i, it), Path: p, OneLine: d.oneLine(it)}
		for _, f := range d.Entries(it, p) {
			switch f.Key.V {
			case "text":
				v.Text = d.Str(f.Value, f.Key.Path)
			case "image":
				v.Image = d.Str(f.Value, f.Key.Path)
			case "channel":
				v.Channel = d.Str(f.Value, f.Key.Path)
			case "custom":
				v.Custom = d.GenericAt(f.Value, f.Key.Path)
			case "condition":
				var sc *SlotCond
				d.eachMapping(f, func(pos Pos) {
					sc = &SlotCond{Pos: pos}
					v.Condition = append(v.Condition, sc)
				}, func(g Entry) {
					switch g.Key.V {
					case "type":
						sc.Type = d.Str(g.Value, g.Key.Path)
					case "name":
						sc.Name = d.Str(g.Value, g.Key.Path)
					case "value":
						sc.Value = d.GenericAt(g.Value, g.Key.Path)
					}
				})
			case "buttons":
				var bt *Button
				d.eachMapping(f, func(pos Pos) {
					bt = &Button{Pos: pos}
					v.Buttons = append(v.Buttons, bt)
				}, func(g Entry) {
					switch g.Key.V {
					case "title":
						bt.Title = d.Str(g.Value, g.Key.Path)
					case "payload":
						bt.Payload = d.Str(g.Value, g.Key.Path)
					}
				})
			case "translation":
				for _, g := range d.Entries(f.Value, f.Key.Path) {
					v.Translation = append(v.Translation, &Translation{Lang: g.Key, Text: d.Str(g.Value, g.Key.Path)})
				}
			default:
				v.Extra = append(v.Extra, d.field(f))
			}
		}
		r.Variations = append(r.Variations, v)
	}
	return r
}

// eachMapping reads the list e holds as a list of mappings: item is
// called for each item with its position, then field for each Entry.
func (d *flowDecoder) eachMapping(e Entry, item func(pos Pos), field func(g Entry)) {
	for j, it := range d.ItemsAt(e.Value, e.Key.Path) {
		item(d.ItemPos(e.Value, j, it))
		for _, g := range d.Entries(it, Index(e.Key.Path, j)) {
			field(g)
		}
	}
}

// knownKind reports whether t is a step type the language knows.
func knownKind(t string) bool {
	for _, k := range ir.Kinds {
		if string(k) == t {
			return true
		}
	}
	return false
}

// Attach gives the file's comments, by the path of the key or list item
// they belong to (see Reader.AttachComments), to the nodes of the model:
// each goes to the innermost flow, step, slot, action, response,
// variation or setting whose path holds it, under its path relative to
// that node, or else to the file. foot are the file's last comment lines.
func (f *File) Attach(byPath map[string]*Comment, foot []string) {
	owners := map[string]*Comments{}
	for _, s := range f.Settings {
		owners[s.Key.Path] = &s.Comments
	}
	for _, s := range f.Slots {
		owners[s.Path] = &s.Comments
	}
	for _, a := range f.Actions {
		owners[a.Path] = &a.Comments
	}
	for _, a := range f.Validators {
		owners[a.Path] = &a.Comments
	}
	for _, fl := range f.Flows {
		owners[fl.Path] = &fl.Comments
		for _, s := range fl.Slots {
			if !s.Implicit {
				owners[s.Path] = &s.Comments
			}
		}
		for _, s := range fl.Steps {
			owners[s.Path] = &s.Comments
		}
	}
	for _, r := range f.Responses {
		owners[r.Path] = &r.Comments
		for _, v := range r.Variations {
			owners[v.Path] = &v.Comments
		}
	}
	for path, c := range byPath {
		owner, rel := &f.Comments, path
		for end := len(path); end > 0; end-- {
			if end < len(path) && path[end] != '.' && path[end] != '[' {
				continue
			}
			if o := owners[path[:end]]; o != nil {
				owner, rel = o, strings.TrimPrefix(path[end:], ".")
				break
			}
		}
		if *owner == nil {
			*owner = Comments{}
		}
		(*owner)[rel] = c
	}
	f.Foot = append(f.Foot, foot...)
}

// field reads an entry the model has no field for.
func (d *flowDecoder) field(e Entry) Field {
	return Field{Key: e.Key, Value: d.GenericAt(e.Value, e.Key.Path)}
}

// oneLine reports whether n is a mapping written on one line, {a: 1, b: 2}.
func (d *flowDecoder) oneLine(n ast.Node) bool {
	m, ok := n.(*ast.MappingNode)
	return ok && m.IsFlowStyle
}

// The limits of DecodeFlows on a file's tree (the compiler, which parses
// files itself, applies its own configurable ones through CheckTree).
const (
	maxDepth     = 100
	maxExpansion = 100_000
)

// TreeProblem is why CheckTree refused a tree: the node at fault, whether
// the tree is nested too deep (or else an alias is at fault), and the
// message that says so.
type TreeProblem struct {
	Node    ast.Node
	Nesting bool
	Message string
}

// CheckTree walks a file's tree once, before anything expands its
// aliases: it refuses a tree nested deeper than maxDepth, an alias inside
// the anchor it names (a recursive structure), an alias of no anchor
// defined before it, and aliases that expand to more than maxExpansion
// nodes in all (an alias bomb). anchor, when not nil, is called with
// each named anchor and its node as the walk leaves it. It returns nil
// when the tree is within the limits.
func CheckTree(body ast.Node, maxDepth, maxExpansion int, anchor func(name string, n ast.Node)) *TreeProblem {
	sizes := map[string]int{}
	open := map[string]bool{}
	total := 0
	var problem *TreeProblem
	refuse := func(n ast.Node, nesting bool, format string, args ...any) (int, bool) {
		problem = &TreeProblem{Node: n, Nesting: nesting, Message: fmt.Sprintf(format, args...)}
		return 0, false
	}
	var walk func(n ast.Node, depth int) (int, bool)
	walk = func(n ast.Node, depth int) (int, bool) {
		if n == nil {
			return 0, true
		}
		if depth > maxDepth {
			return refuse(n, true, "nesting is deeper than %d levels", maxDepth)
		}
		size := 1
		add := func(c ast.Node) bool {
			s, ok := walk(c, depth+1)
			size += s
			return ok
		}
		switch x := n.(type) {
		case *ast.MappingNode:
			for _, v := range x.Values {
				if !add(v.Key) || !add(v.Value) {
					return 0, false
				}
			}
		case *ast.MappingValueNode:
			if !add(x.Key) || !add(x.Value) {
				return 0, false
			}
		case *ast.SequenceNode:
			for _, v := range x.Values {
				if !add(v) {
					return 0, false
				}
			}
		case *ast.AnchorNode:
			name := ""
			if x.Name != nil {
				name = x.Name.GetToken().Value
			}
			open[name] = true
			s, ok := walk(x.Value, depth+1)
			delete(open, name)
			if !ok {
				return 0, false
			}
			if name != "" {
				sizes[name] = s
				if anchor != nil {
					anchor(name, x.Value)
				}
			}
			size += s
		case *ast.AliasNode:
			name := ""
			if x.Value != nil {
				name = x.Value.GetToken().Value
			}
			if open[name] {
				return refuse(n, false, "alias %q refers to the anchor it is inside of: a recursive structure cannot be expanded", name)
			}
			s, defined := sizes[name]
			if !defined {
				return refuse(n, false, "alias %q refers to no anchor defined before it", name)
			}
			total += s
			if total > maxExpansion {
				return refuse(n, false, "aliases expand to more than %d nodes (alias %q); this looks like an alias bomb", maxExpansion, name)
			}
			size += s
		case *ast.TagNode:
			if !add(x.Value) {
				return 0, false
			}
		case *ast.MappingKeyNode:
			if !add(x.Value) {
				return 0, false
			}
		}
		return min(size, 2*maxExpansion), true
	}
	walk(body, 0)
	return problem
}
