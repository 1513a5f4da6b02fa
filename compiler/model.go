package compiler

import (
	"regexp"
	"strings"
	"sync"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// project is a decoded project: every definition with its positions.
type project struct {
	Files    []*File
	Settings []*syntax.Setting
	Slots    []*syntax.Slot
	Actions  []*syntax.Action
	// Validators are the named validators declared under validators:
	// action-shaped declarations with only a description and a run block.
	Validators []*syntax.Action
	Flows      []*syntax.Flow
	Responses  []*syntax.Response

	slots      map[string]*syntax.Slot
	actions    map[string]*syntax.Action
	validators map[string]*syntax.Action
	flows      map[string]*syntax.Flow
	responses  map[string]*syntax.Response
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
func (p *project) Flow(name string) *syntax.Flow { return p.flows[name] }

// Validator returns the declared validator with the given name, or nil.
func (p *project) Validator(name string) *syntax.Action { return p.validators[name] }

// namedValidator reports whether a collect step's validator text names a
// validator rather than being an expression: a built-in or declared name,
// or any other bare name that is not `value`, a literal or a slot the flow
// can see (an undeclared validator, to be provided at run time).
func (p *project) namedValidator(f *syntax.Flow, v string) bool {
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
func (p *project) Response(name string) *syntax.Response { return p.responses[name] }

// Action returns the action with the given name, or nil.
func (p *project) Action(name string) *syntax.Action { return p.actions[name] }

// Slot returns the conversation slot with the given name, or nil.
func (p *project) Slot(name string) *syntax.Slot { return p.slots[name] }

// Visible returns the slot a flow sees by this name: the conversation slot
// if one is declared, else the flow's own slot, else nil.
func (p *project) Visible(f *syntax.Flow, name string) *syntax.Slot {
	if s := p.slots[name]; s != nil {
		return s
	}
	if f != nil {
		return f.SlotsByName[name]
	}
	return nil
}
