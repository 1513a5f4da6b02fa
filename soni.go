// Package soni embeds the soni dialogue engine in a Go program: load a
// project (YAML flows or a compiled program), register action functions,
// pick a checkpoint store, and handle one user message at a time per
// session. The soni command is built on this package, so there is one way
// in.
//
// Actions run through package actions by default: Go functions registered
// with [Engine.Register] first, then the commands (run: exec) and HTTP
// endpoints (run: http) the project declares. Commands run in the project
// directory, [Options.Dir], which [Load] sets from the path it loads.
//
// An Engine is safe for concurrent use. Turns of different sessions run in
// parallel; turns of the same session are serialised within the process,
// and every turn is saved with a compare-and-swap on the checkpoint's
// revision, so a turn is never lost. When another process saved the same
// session in between (a conflict), a turn that ran no action is run again
// on the newer state, up to [Options.ConflictRetries] times; a turn that
// ran an action is never repeated, because the action's effect on the
// outside world cannot be undone: its conflict is reported as an error
// matching [checkpoints.ErrConflict], and nothing of it is saved.
package soni

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/codec"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// Options configure an Engine. Every field is optional.
type Options struct {
	// Store keeps the checkpoints; the default is a new in-memory store.
	Store checkpoints.Store
	// Actions runs action steps. When nil, the engine uses an
	// [actions.Runner]: the functions registered with [Engine.Register],
	// else the project's run: exec and run: http declarations.
	Actions vm.ActionRunner
	// Validators runs the named validators of collect steps. When nil,
	// the engine's [actions.Runner] runs them: the functions registered
	// with [Engine.RegisterValidator], else the project's validators
	// declarations (run: exec or run: http).
	Validators vm.ValidatorRunner
	// Dir is the project directory: exec actions run there and relative
	// command paths are resolved against it. [Load] sets it from its path
	// when it is empty; the default for [New] is the current directory.
	Dir string
	// ActionOptions configure the default action runner (timeouts, output
	// limit, environment lookup, HTTP transport).
	ActionOptions actions.Options
	// ConflictRetries is how many times a turn that lost a checkpoint
	// compare-and-swap, and ran no action, is run again on the newer
	// state. Zero means the default, 3; a negative value disables retries.
	ConflictRetries int
	// Understander turns messages into commands; the default is the
	// built-in deterministic understanding of package understand.
	Understander vm.Understander
	// Compiler holds the compiler's limits, for [Load].
	Compiler compiler.Options
	// NoLog turns off the event log: turns are saved with Save, not
	// Commit, and message ids are not remembered. Conversation tests use
	// it; a server should not.
	NoLog bool
}

// Engine runs conversations over one compiled program.
type Engine struct {
	m       *vm.Machine
	codec   *codec.Codec
	store   checkpoints.Store
	journal checkpoints.Journal // the store, when it keeps a log (and NoLog is off)
	runner  *actions.Runner
	actions vm.ActionRunner // the runner turns use: Options.Actions or runner
	retries int

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

// Load loads a project: a compiled program (a file written by soni
// compile, see [IsProgramFile]), or a YAML file or directory, which it
// compiles. A project with
// errors gives a *ProjectError.
func Load(path string, opts Options) (*Engine, error) {
	prog, err := LoadProgram(path, opts.Compiler)
	if err != nil {
		return nil, err
	}
	if opts.Dir == "" {
		opts.Dir = ProjectDir(path)
	}
	return New(prog, opts)
}

// ProjectDir returns the project directory of a project path: the path
// itself for a directory, the directory holding it for a file (a one-file
// project or a compiled program).
func ProjectDir(path string) string {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return path
	}
	return filepath.Dir(path)
}

// LoadProgram loads a compiled program (see [IsProgramFile]) or compiles a
// YAML project.
func LoadProgram(path string, copts compiler.Options) (*ir.Program, error) {
	if IsProgramFile(path) {
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
	if p == nil {
		return nil, errors.New("no program: compile a project first")
	}
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	e := &Engine{
		store:   opts.Store,
		runner:  actions.New(p, dir, opts.ActionOptions),
		retries: opts.ConflictRetries,
		locks:   map[string]*sessionLock{},
	}
	if e.retries == 0 {
		e.retries = 3
	}
	if e.store == nil {
		e.store = checkpoints.NewMemoryStore()
	}
	if j, ok := e.store.(checkpoints.Journal); ok && !opts.NoLog {
		e.journal = j
	}
	var runner vm.ActionRunner = e.runner
	if opts.Actions != nil {
		runner = opts.Actions
	}
	u := opts.Understander
	if u == nil {
		u = understand.New(p)
	}
	// Button payloads are read first, whatever the understanding layer.
	u = payloadUnderstander{next: u}
	var validators vm.ValidatorRunner = e.runner
	if opts.Validators != nil {
		validators = opts.Validators
	}
	m, err := vm.New(p, vm.Options{Actions: runner, Validators: validators, Understander: u})
	if err != nil {
		return nil, err
	}
	e.m = m
	e.codec = codec.New(m)
	e.actions = runner
	return e, nil
}

// Register makes a Go function the implementation of the action name,
// used before any run: declaration of it. It may be called at any time,
// also while turns run; it applies when Options.Actions was nil.
func (e *Engine) Register(name string, fn vm.ActionFunc) { e.runner.Register(name, fn) }

// RegisterValidator makes a Go function the implementation of the named
// validator name (a collect step's validator: name), used before any
// declaration of it under validators. It may be called at any time; it
// applies when Options.Validators was nil.
func (e *Engine) RegisterValidator(name string, fn vm.ValidatorFunc) {
	e.runner.RegisterValidator(name, fn)
}

// Machine returns the engine's VM.
func (e *Engine) Machine() *vm.Machine { return e.m }

// Codec returns the codec of the engine's checkpoints.
func (e *Engine) Codec() *codec.Codec { return e.codec }

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
	// Record is what the session's event log keeps of the turn (nil
	// when the store keeps no log).
	Record *TurnRecord
	// Duplicate is true when the message id was seen before: nothing
	// ran, and the reply is the first attempt's, rebuilt from its record
	// (Result.State is then nil).
	Duplicate bool
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

// sessionLocks recycles the per-session locks: a session's lock lives only
// while a turn of it runs or waits.
var sessionLocks = sync.Pool{New: func() any { return new(sessionLock) }}

// lock serialises the turns of one session within this process.
func (e *Engine) lock(session string) func() {
	e.mu.Lock()
	l := e.locks[session]
	if l == nil {
		l = sessionLocks.Get().(*sessionLock)
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
			sessionLocks.Put(l) // unlocked, and no turn holds it any more
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
	var b []byte
	var rev uint64
	var err error
	if sl, ok := e.store.(checkpoints.SharedLoader); ok {
		b, rev, err = sl.LoadShared(ctx, session) // read-only: DecodeOwned never writes
	} else {
		b, rev, err = e.store.Load(ctx, session)
	}
	if errors.Is(err, checkpoints.ErrNotFound) {
		return e.m.NewState(session), 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	st, err := e.codec.DecodeOwned(b) // bytes of our own, or lent read-only
	if err == nil && st.Session != session {
		err = fmt.Errorf("its session field is %q, not %q (was it copied or renamed from another session?)", st.Session, session)
	}
	if err != nil {
		return nil, 0, &ResumeError{Checkpoint: e.checkpointName(session), Err: err}
	}
	return st, rev, nil
}

// ResumeError reports a stored checkpoint that cannot be resumed with this
// program: it does not parse as a checkpoint, belongs to another session,
// or points at flows, steps or values the program no longer has. The
// checkpoint is left as it was.
type ResumeError struct {
	// Checkpoint names the checkpoint: its file for a file store, else
	// the session.
	Checkpoint string
	Err        error
}

// Error names the checkpoint and the reason, and says how to go on: a
// new conversation beside it (--session), or discarding it (--reset).
func (e *ResumeError) Error() string {
	return fmt.Sprintf("cannot resume %s: %v; it was left untouched: to keep it and start a new conversation, choose another session with --session NAME; to discard it, start the session afresh with --reset",
		e.Checkpoint, e.Err)
}

// Unwrap returns the reason.
func (e *ResumeError) Unwrap() error { return e.Err }

// checkpointName names a session's checkpoint for an error message: the
// file that holds it when the store keeps files, else the session.
func (e *Engine) checkpointName(session string) string {
	if fs, ok := e.store.(interface{ Path(string) (string, error) }); ok {
		if p, err := fs.Path(session); err == nil {
			return fmt.Sprintf("checkpoint %q", p)
		}
	}
	return fmt.Sprintf("the checkpoint of session %q", session)
}

// Handle runs one turn of a session: it loads the checkpoint, applies the
// input, and saves the new state with a compare-and-swap on the revision.
// A turn that fails leaves the stored checkpoint as it was. A lost
// compare-and-swap is retried or reported as described in the package
// documentation.
func (e *Engine) Handle(ctx context.Context, session string, in vm.Input) (*Reply, error) {
	return e.HandleMessage(ctx, session, "", in)
}

// HandleMessage runs one turn like Handle, with an idempotency key (a
// message id; "" for none). When the store keeps an event log
// ([checkpoints.Journal]), the session's turns are serialised across
// processes by the store's turn lock, held for the whole turn; the turn is
// saved together with its log record; and a key the session's log already
// holds answers with the first attempt's reply (Reply.Duplicate) without
// running anything, across restarts and replicas.
func (e *Engine) HandleMessage(ctx context.Context, session, key string, in vm.Input) (*Reply, error) {
	if err := checkpoints.ValidateID(session); err != nil {
		return nil, err
	}
	if len(key) > checkpoints.MaxKeyLength {
		return nil, fmt.Errorf("message id is %d bytes, over the limit of %d", len(key), checkpoints.MaxKeyLength)
	}
	var unlock func()
	if e.journal != nil {
		u, err := e.journal.Lock(ctx, session)
		if err != nil {
			return nil, err
		}
		unlock = u
	} else {
		unlock = e.lock(session)
	}
	defer unlock()
	if key != "" && e.journal != nil {
		rec, ok, err := e.journal.Lookup(ctx, session, key)
		if err != nil {
			return nil, err
		}
		if ok {
			return duplicateReply(session, rec)
		}
	}
	streamed := false
	if in.OnReply != nil || in.OnEvent != nil {
		onReply, onEvent := in.OnReply, in.OnEvent
		in.OnReply = func(s string) {
			streamed = true
			if onReply != nil {
				onReply(s)
			}
		}
		in.OnEvent = func(ev vm.Event) {
			streamed = true
			if onEvent != nil {
				onEvent(ev)
			}
		}
	}
	var timed *timedActions
	if e.journal != nil {
		// The log says how long each action call took.
		base := in.Actions
		if base == nil {
			base = e.actions
		}
		timed = &timedActions{run: base}
		in.Actions = timed
	}
	for attempt := 0; ; attempt++ {
		st, rev, err := e.State(ctx, session)
		if err != nil {
			return nil, err
		}
		if timed != nil {
			timed.calls = timed.calls[:0]
		}
		res, err := e.m.TurnOwned(ctx, st, in) // st was just decoded: no copy
		if err != nil {
			return nil, err
		}
		reply := &Reply{Result: res, Session: session, Revision: res.State.Revision}
		bp := encodeBuffers.Get().(*[]byte)
		b, err := e.codec.AppendEncode((*bp)[:0], res.State)
		if err == nil {
			if e.journal != nil {
				reply.Record = recordOf(reply, key, in)
				reply.Record.Actions = slices.Clone(timed.calls)
				var data []byte
				if data, err = json.Marshal(reply.Record); err == nil {
					err = e.journal.Commit(ctx, session, rev, b, checkpoints.Record{Revision: res.State.Revision, Key: key, Data: data})
				}
			} else {
				err = e.store.Save(ctx, session, rev, b) // stores keep no reference to b
			}
		}
		if cap(b) <= 64<<10 {
			*bp = b[:0]
			encodeBuffers.Put(bp)
		}
		if errors.Is(err, checkpoints.ErrConflict) && attempt < e.retries && !ranAction(res) && !streamed {
			continue
		}
		if err != nil {
			return nil, err
		}
		return reply, nil
	}
}

// encodeBuffers holds the buffers turns encode their checkpoints into; a
// store does not keep the bytes it is given past Save.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// ranAction reports whether a turn called an action, which makes it
// unsafe to run again.
func ranAction(res *vm.Result) bool {
	for _, ev := range res.Events {
		if ev.Type == vm.EventActionExecuted || ev.Type == vm.EventActionFailed {
			return true
		}
	}
	return false
}

// Reset deletes a session's checkpoint, so its next turn starts afresh.
func (e *Engine) Reset(ctx context.Context, session string) error {
	if err := checkpoints.ValidateID(session); err != nil {
		return err
	}
	if e.journal != nil {
		unlock, err := e.journal.Lock(ctx, session)
		if err != nil {
			return err
		}
		defer unlock()
	} else {
		unlock := e.lock(session)
		defer unlock()
	}
	return e.store.Delete(ctx, session)
}
