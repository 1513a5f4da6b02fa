// Package soni embeds the soni dialogue engine in a Go program: load a
// project (YAML flows or a compiled program), register action functions,
// pick a checkpoint store, and handle one user message at a time per
// session. The soni command is built on this package, so there is one way
// in.
//
// An Engine is safe for concurrent use. Turns of different sessions run in
// parallel; turns of the same session are serialised, and every turn is
// saved with a compare-and-swap on the checkpoint's revision, so a turn is
// never lost: a conflict with another process is reported as
// [checkpoints.ErrConflict].
package soni

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// Options configure an Engine. Every field is optional.
type Options struct {
	// Store keeps the checkpoints; the default is a new in-memory store.
	Store checkpoints.Store
	// Actions runs action steps. When nil, actions registered with
	// [Engine.Register] are used.
	Actions vm.ActionRunner
	// Understander turns messages into commands; the default is the
	// built-in deterministic understanding of package understand.
	Understander vm.Understander
	// Compiler holds the compiler's limits, for [Load].
	Compiler compiler.Options
}

// Engine runs conversations over one compiled program.
type Engine struct {
	m     *vm.Machine
	store checkpoints.Store
	reg   *vm.Registry

	mu    sync.Mutex
	locks map[string]*sessionLock
}

type sessionLock struct {
	mu   sync.Mutex
	refs int
}

// ProjectError is returned by [Load] when the project has errors; it holds
// the compile result with every diagnostic.
type ProjectError struct {
	Result *compiler.Result
}

func (e *ProjectError) Error() string { return e.Result.Diags.Err().Error() }

// Load loads a project: a compiled program (a .json file written by soni
// compile), or a YAML file or directory, which it compiles. A project with
// errors gives a *ProjectError.
func Load(path string, opts Options) (*Engine, error) {
	prog, err := LoadProgram(path, opts.Compiler)
	if err != nil {
		return nil, err
	}
	return New(prog, opts)
}

// LoadProgram loads a compiled program or compiles a YAML project.
func LoadProgram(path string, copts compiler.Options) (*ir.Program, error) {
	if strings.HasSuffix(path, ".json") {
		b, err := readFile(path)
		if err != nil {
			return nil, err
		}
		p, err := ir.Decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return p, nil
	}
	r := compiler.Compile(path, copts)
	if r.Program == nil {
		return nil, &ProjectError{Result: r}
	}
	return r.Program, nil
}

// New builds an Engine for a compiled program.
func New(p *ir.Program, opts Options) (*Engine, error) {
	e := &Engine{store: opts.Store, reg: &vm.Registry{}, locks: map[string]*sessionLock{}}
	if e.store == nil {
		e.store = checkpoints.NewMemoryStore()
	}
	runner := opts.Actions
	if runner == nil {
		runner = e.reg
	}
	u := opts.Understander
	if u == nil {
		u = understand.New(p)
	}
	m, err := vm.New(p, vm.Options{Actions: runner, Understander: u})
	if err != nil {
		return nil, err
	}
	e.m = m
	return e, nil
}

// Register makes a Go function available as the action name. It applies
// when Options.Actions was nil.
func (e *Engine) Register(name string, fn vm.ActionFunc) { e.reg.Register(name, fn) }

// Machine returns the engine's VM.
func (e *Engine) Machine() *vm.Machine { return e.m }

// Program returns the engine's compiled program.
func (e *Engine) Program() *ir.Program { return e.m.Program() }

// Store returns the engine's checkpoint store.
func (e *Engine) Store() checkpoints.Store { return e.store }

// Reply is the result of one turn.
type Reply struct {
	*vm.Result
	// Session and Revision identify the saved checkpoint.
	Session  string
	Revision uint64
}

// Slots returns the slot values visible after the turn: the conversation
// slots, and the flow slots of the flow on top of the stack.
func (r *Reply) Slots() map[string]any {
	out := map[string]any{}
	if r.State == nil {
		return out
	}
	for k, v := range r.State.Slots {
		out[k] = v
	}
	if n := len(r.State.Stack); n > 0 {
		for k, v := range r.State.Stack[n-1].Slots {
			out[k] = v
		}
	}
	return out
}

// lock serialises the turns of one session within this process.
func (e *Engine) lock(session string) func() {
	e.mu.Lock()
	l := e.locks[session]
	if l == nil {
		l = &sessionLock{}
		e.locks[session] = l
	}
	l.refs++
	e.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		e.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(e.locks, session)
		}
		e.mu.Unlock()
	}
}

// State loads a session's state; a session never seen starts empty. The
// revision is that of the stored checkpoint (0 when there is none).
func (e *Engine) State(ctx context.Context, session string) (*vm.State, uint64, error) {
	if err := checkpoints.ValidateID(session); err != nil {
		return nil, 0, err
	}
	b, rev, err := e.store.Load(ctx, session)
	if errors.Is(err, checkpoints.ErrNotFound) {
		return e.m.NewState(session), 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	st, err := e.m.Decode(b)
	if err != nil {
		return nil, 0, fmt.Errorf("session %q: %w", session, err)
	}
	return st, rev, nil
}

// Handle runs one turn of a session: it loads the checkpoint, applies the
// input, and saves the new state with a compare-and-swap on the revision.
// A turn that fails leaves the stored checkpoint as it was.
func (e *Engine) Handle(ctx context.Context, session string, in vm.Input) (*Reply, error) {
	unlock := e.lock(session)
	defer unlock()
	st, rev, err := e.State(ctx, session)
	if err != nil {
		return nil, err
	}
	res, err := e.m.Turn(ctx, st, in)
	if err != nil {
		return nil, err
	}
	b, err := e.m.Encode(res.State)
	if err != nil {
		return nil, err
	}
	if err := e.store.Save(ctx, session, rev, b); err != nil {
		return nil, err
	}
	return &Reply{Result: res, Session: session, Revision: res.State.Revision}, nil
}

// Reset deletes a session's checkpoint, so its next turn starts afresh.
func (e *Engine) Reset(ctx context.Context, session string) error {
	unlock := e.lock(session)
	defer unlock()
	return e.store.Delete(ctx, session)
}
