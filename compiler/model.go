package compiler

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// The compiler works on the syntax package's model of project files: the
// names below are that model's types, so that checks read as before.
type (
	posStr   = syntax.Str
	posCount = syntax.Count
	response = syntax.Response
	setting  = syntax.Setting
	slotDef  = syntax.Slot
	action   = syntax.Action
	flow     = syntax.Flow
	step     = syntax.Step
	assign   = syntax.Assign
	doEntry  = syntax.DoEntry
)

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

// File is one source file of the project.
type File struct {
	Path string
	Src  []byte
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

// Visible returns the slot a flow sees by this name: the conversation slot
// if one is declared, else the flow's own slot, else nil.
func (p *project) Visible(f *flow, name string) *slotDef {
	if s := p.slots[name]; s != nil {
		return s
	}
	if f != nil {
		return f.SlotsByName[name]
	}
	return nil
}
