// Package soni embeds the soni dialogue engine in a Go program: load a
// project (YAML flows or a compiled program), register action functions,
// pick a checkpoint store, and handle one user message at a time per
// session. The soni command is built on this package, so there is one way
// in: chat, test, eval, serve and inspect all run a turn the same way.
//
// Actions run through package actions by default: Go functions registered
// with [Engine.Register] first, then the commands (run: exec) and HTTP
// endpoints (run: http) the project declares. Commands run in the project
// directory, [Options.Dir], which [Load] sets from the path it loads.
//
// An Engine is safe for concurrent use. Turns of different sessions run in
// parallel. A turn is one transaction of the checkpoint store
// ([checkpoints.Tx]): it takes the session's lock (within the process and
// across processes sharing the store), looks the message id up, decodes
// the checkpoint, runs the turn, encodes the new checkpoint and commits it
// together with the turn's log record, so a turn is never lost or run
// twice.
package soni

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"

	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/codec"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/lexicon"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/versions"
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
	// Dir is the project directory: an exec action runs in the directory
	// of the file that declares it, which its position names relative to
	// Dir (Dir itself for a declaration with no file). [Load] sets it from
	// its path when it is empty; the default for [New] is the current
	// directory.
	Dir string
	// ActionOptions configure the default action runner (timeouts, output
	// limit, environment lookup, HTTP transport).
	ActionOptions actions.Options
	// Understander turns messages into commands. When nil, the engine
	// builds the one the program's understanding settings ask for, as the
	// soni command does (package llm's Select): Understanding first, then
	// the environment (SONI_UNDERSTANDING, SONI_LLM_BASE_URL,
	// SONI_LLM_MODEL, the key in SONI_LLM_API_KEY), then the project's
	// understanding block; the default is the built-in deterministic rules
	// of package understand.
	Understander vm.Understander
	// Understanding overrides the project's understanding mode (rules, llm
	// or hybrid), model endpoint and model, as soni's --understanding,
	// --llm-url and --llm-model flags do; an empty field keeps what the
	// environment or the project says. Unused when Understander is set.
	Understanding llm.Overrides
	// Compiler holds the compiler's limits, for [Load].
	Compiler compiler.Options
}

// Engine runs conversations over one compiled program.
type Engine struct {
	m       *vm.Machine
	codec   *codec.Codec
	store   checkpoints.Store
	runner  *actions.Runner
	actions vm.ActionRunner // the runner turns use: Options.Actions or runner
	ver     engineVersions
}

// ProjectError is returned by [Load] when the project has errors; it holds
// the compile result with every diagnostic.
type ProjectError struct {
	Result *compiler.Result
}

func (e *ProjectError) Error() string { return e.Result.Diags.Err().Error() }

// Load loads a project: a compiled program (a file written by soni
// compile, see [ir.IsProgramFile]), or a YAML file or directory, which it
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

// LoadProgram loads a compiled program (see [ir.IsProgramFile]) or compiles a
// YAML project.
func LoadProgram(path string, copts compiler.Options) (*ir.Program, error) {
	if ir.IsProgramFile(path) {
		return ir.ReadFile(path)
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
		store:  opts.Store,
		runner: actions.New(p, dir, opts.ActionOptions),
	}
	if e.store == nil {
		e.store = checkpoints.NewMemoryStore()
	}
	var runner vm.ActionRunner = e.runner
	if opts.Actions != nil {
		runner = opts.Actions
	}
	var validators vm.ValidatorRunner = e.runner
	if opts.Validators != nil {
		validators = opts.Validators
	}
	// build makes the machine of a program version: this one, and the
	// older ones sessions still run on (see package versions).
	build := func(p *ir.Program) (*vm.Machine, error) {
		u := opts.Understander
		if u == nil {
			var err error
			if u, _, err = llm.Select(p, dir, opts.Understanding, nil); err != nil {
				return nil, fmt.Errorf("understanding: %w", err)
			}
		}
		// Button payloads are read first, whatever the understanding layer.
		u = understand.WithPayloads(u)
		return vm.New(p, vm.Options{Actions: runner, Validators: validators, Understander: u, Wording: lexicon.Wording{}})
	}
	m, err := build(p)
	if err != nil {
		return nil, err
	}
	e.ver.build = build
	if e.ver.policy, err = versions.ParsePolicy(p.Settings.VersionPolicy); err != nil {
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
	// Record is what the session's log keeps of the turn.
	Record *TurnRecord
	// Duplicate is true when the message id was seen before: nothing
	// ran, and the reply is the first attempt's, rebuilt from its record
	// (Result.State is then nil).
	Duplicate bool
	// VersionPath says what the turn did about program versions (see
	// package versions): versions.Same for a session saved with the
	// engine's program.
	VersionPath versions.Path
	// Moved is true when a session that finished its flows on an older
	// version moved to the engine's at the end of the turn.
	Moved bool
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

// State loads a session's state as last committed, without waiting for a
// turn in progress; a session never seen starts empty. The revision is
// that of the stored checkpoint (0 when there is none).
func (e *Engine) State(ctx context.Context, session string) (*vm.State, uint64, error) {
	b, rev, err := e.store.Load(ctx, session)
	if errors.Is(err, checkpoints.ErrNotFound) {
		return e.m.NewState(session), 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	r, err := e.resolve(ctx, session, b)
	if err != nil {
		return nil, 0, err
	}
	// The state as its next turn would take it, with the version it was
	// last saved with.
	r.st.Fingerprint = r.saved
	return r.st, rev, nil
}

// ResumeError reports a stored checkpoint that cannot be resumed with this
// program: it does not parse as a checkpoint, belongs to another session,
// or points at flows, steps or values the program no longer has. The
// checkpoint is left as it was.
type ResumeError struct {
	// Session is the session whose checkpoint it is.
	Session string
	Err     error
}

// Error names the session and the reason.
func (e *ResumeError) Error() string {
	return fmt.Sprintf("cannot resume the checkpoint of session %q: %v; it was left untouched", e.Session, e.Err)
}

// Unwrap returns the reason.
func (e *ResumeError) Unwrap() error { return e.Err }

// Handle runs one turn of a session, with no message id; see
// [Engine.HandleMessage].
func (e *Engine) Handle(ctx context.Context, session string, in vm.Input) (*Reply, error) {
	return e.HandleMessage(ctx, session, "", in)
}

// HandleMessage runs one turn of a session as one transaction of the
// store: Begin (the session's lock, and its checkpoint loaded once),
// Lookup of the message id (key; "" for none), decode, the turn, encode,
// and Commit of the new checkpoint with the turn's log record. A key the
// session's log already holds answers with the first attempt's reply
// (Reply.Duplicate) without running anything, across restarts and
// replicas. A turn that fails leaves the stored checkpoint as it was.
//
// The store checks the session id, once; a session with too many turns
// already waiting in this process is refused at once with an error
// matching [checkpoints.ErrBusy].
func (e *Engine) HandleMessage(ctx context.Context, session, key string, in vm.Input) (*Reply, error) {
	if len(key) > checkpoints.MaxKeyLength {
		return nil, fmt.Errorf("%w: message id is %d bytes, over the limit of %d", checkpoints.ErrInvalidData, len(key), checkpoints.MaxKeyLength)
	}
	// The engine's first turn saves its program version, before any
	// checkpoint of it commits.
	if err := e.saveProgram(ctx); err != nil {
		return nil, err
	}
	tx, err := e.store.Begin(ctx, session)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	if key != "" {
		rec, ok, err := tx.Lookup(ctx, key)
		if err != nil {
			return nil, err
		}
		if ok {
			return duplicateReply(session, rec)
		}
	}
	b, rev := tx.Checkpoint()
	r := &resolved{d: versions.Decision{Path: versions.Same, Run: e.m}, codec: e.codec}
	if rev == 0 {
		r.st = e.m.NewState(session)
	} else if r, err = e.resolve(ctx, session, b); err != nil {
		return nil, err
	}
	// The log says how long each action call took.
	timed := &timedActions{run: in.Actions}
	if timed.run == nil {
		timed.run = e.actions
	}
	in.Actions = timed
	res, err := r.d.Run.TurnOwned(ctx, r.st, in) // st was just decoded: no copy
	if err != nil {
		return nil, err
	}
	reply := &Reply{Result: res, Session: session, Revision: res.State.Revision, VersionPath: r.d.Path}
	reply.Moved = e.settle(r, res.State)
	reply.Record = recordOf(reply, key, in)
	reply.Record.Actions = timed.calls
	bp := encodeBuffers.Get().(*[]byte)
	out, err := r.codec.AppendEncode((*bp)[:0], res.State)
	if err == nil {
		// The record goes as a value: a store that keeps it in memory
		// encodes it only if it is ever read.
		err = tx.Commit(ctx, checkpoints.Record{Revision: res.State.Revision, Key: key, Value: reply.Record}, out)
	}
	if cap(out) <= 64<<10 {
		*bp = out[:0]
		encodeBuffers.Put(bp)
	}
	if err != nil {
		return nil, err
	}
	return reply, nil
}

// encodeBuffers holds the buffers turns encode their checkpoints into; a
// store does not keep the bytes it is given past Commit.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Seed starts a session with conversation slots set before its first
// turn, as a conversation test's fixtures do: it commits revision 1 of the
// session, logged as a turn that ran nothing. The session must not exist.
func (e *Engine) Seed(ctx context.Context, session string, slots map[string]any) error {
	tx, err := e.store.Begin(ctx, session)
	if err != nil {
		return err
	}
	defer tx.Close()
	if _, rev := tx.Checkpoint(); rev != 0 {
		return fmt.Errorf("session %q already exists (revision %d): only a new session can be seeded", session, rev)
	}
	if err := e.saveProgram(ctx); err != nil {
		return err
	}
	st := e.m.NewState(session)
	maps.Copy(st.Slots, slots)
	if err := e.m.Resume(st); err != nil {
		return err
	}
	st.Revision = 1
	b, err := e.codec.Encode(st)
	if err != nil {
		return err
	}
	reply := &Reply{Result: &vm.Result{State: st}, Session: session, Revision: 1}
	rec := recordOf(reply, "", vm.Input{})
	return tx.Commit(ctx, checkpoints.Record{Revision: 1, Value: rec}, b)
}

// Reset deletes a session's checkpoint and log, so its next turn starts
// afresh. It waits for a turn of the session in progress.
func (e *Engine) Reset(ctx context.Context, session string) error {
	return e.store.Delete(ctx, session)
}
