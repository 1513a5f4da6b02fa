package soni_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counterYAML counts turns in a conversation slot. bump counts without an
// action; audited counts and then calls the audit action.
const counterYAML = `version: "1.0"
slots:
  turns:
    type: integer
    initial: 0
  seen:
    type: integer
actions:
  audit:
    inputs: [turns]
    outputs: [seen]
flows:
  bump:
    steps:
      - step: add
        type: set
        slots:
          turns: {expr: "turns + 1"}
  audited:
    steps:
      - step: add
        type: set
        slots:
          turns: {expr: "turns + 1"}
      - step: check
        type: action
        call: audit
        map_outputs:
          seen: seen
`

func compileCounter(t testing.TB) *ir.Program {
	t.Helper()
	r := compiler.CompileSource("counter.yaml", []byte(counterYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	return r.Program
}

func startFlow(name string) vm.Input {
	return vm.Input{Commands: []vm.Command{{Kind: vm.CmdStartFlow, Flow: name}}}
}

// auditFn returns the turn count it was given.
func auditFn(calls *atomic.Int64) vm.ActionFunc {
	return func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		calls.Add(1)
		return map[string]any{"seen": req.Inputs["turns"]}, nil
	}
}

// checkDense checks that the revisions a session's turns produced are
// exactly 1..n, each once, and that the stored checkpoint is at n with the
// turns slot at n.
func checkDense(t *testing.T, e *soni.Engine, session string, revs []uint64, n int) {
	t.Helper()
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	want := make([]uint64, n)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	assert.Equal(t, want, revs, "session %s: revisions", session)
	st, rev, err := e.State(context.Background(), session)
	require.NoError(t, err)
	assert.Equal(t, uint64(n), rev, "session %s: stored revision", session)
	assert.Equal(t, int64(n), st.Slots["turns"], "session %s: every turn counted", session)
}

func TestHandleConcurrentSessions(t *testing.T) {
	const goroutines, turns, sessions = 100, 50, 20
	// Up to all the goroutines may wait for one session.
	store := checkpoints.NewMemoryStore(checkpoints.WithMaxWaiting(goroutines))
	e, err := soni.New(compileCounter(t), soni.Options{Store: store})
	require.NoError(t, err)
	var calls atomic.Int64
	e.Register("audit", auditFn(&calls))

	var (
		mu   sync.Mutex
		revs = map[string][]uint64{}
		sent = map[string]int{}
		wg   sync.WaitGroup
		errs = make(chan error, goroutines*turns)
	)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range turns {
				session := fmt.Sprintf("s%02d", (g+i)%sessions)
				flow := "bump"
				if i%5 == 0 {
					flow = "audited"
				}
				rep, err := e.Handle(context.Background(), session, startFlow(flow))
				if err != nil {
					errs <- fmt.Errorf("%s: %w", session, err)
					continue
				}
				if got := rep.Slots(); flow == "audited" && got["seen"] != got["turns"] {
					// The action must see the count of its own turn.
					errs <- fmt.Errorf("%s: audit saw %v at turn %v", session, got["seen"], got["turns"])
				}
				mu.Lock()
				revs[session] = append(revs[session], rep.Revision)
				sent[session]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.Len(t, revs, sessions)
	total := 0
	for s, n := range sent {
		total += n
		checkDense(t, e, s, revs[s], n)
	}
	assert.Equal(t, goroutines*turns, total)
	assert.Equal(t, int64(goroutines*turns/5), calls.Load())
}

// TestHandleTwoEnginesOneStore runs two engines on one store, as two
// processes sharing a checkpoint directory would: the store's session lock
// serialises their turns of the same session, so none is lost.
func TestHandleTwoEnginesOneStore(t *testing.T) {
	const goroutines, turns, sessions = 8, 25, 3
	store := checkpoints.NewMemoryStore()
	prog := compileCounter(t)
	engines := make([]*soni.Engine, 2)
	for i := range engines {
		var err error
		engines[i], err = soni.New(prog, soni.Options{Store: store})
		require.NoError(t, err)
	}
	var (
		mu   sync.Mutex
		revs = map[string][]uint64{}
		wg   sync.WaitGroup
	)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := engines[g%2]
			for i := range turns {
				session := fmt.Sprintf("s%d", (g+i)%sessions)
				rep, err := e.Handle(context.Background(), session, startFlow("bump"))
				if !assert.NoError(t, err) {
					continue
				}
				mu.Lock()
				revs[session] = append(revs[session], rep.Revision)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	total := 0
	for s, r := range revs {
		total += len(r)
		checkDense(t, engines[0], s, r, len(r))
	}
	assert.Equal(t, goroutines*turns, total)
}

// losingStore is a store whose commits lose their compare-and-swap, as
// they would to a writer that bypassed the session lock.
type losingStore struct{ checkpoints.Store }

type losingTx struct{ checkpoints.Tx }

func (s losingStore) Begin(ctx context.Context, id string) (checkpoints.Tx, error) {
	tx, err := s.Store.Begin(ctx, id)
	if err != nil {
		return nil, err
	}
	return losingTx{tx}, nil
}

func (tx losingTx) Commit(ctx context.Context, rec checkpoints.Record, data []byte) error {
	_, rev := tx.Checkpoint()
	return &checkpoints.ConflictError{Session: "s", Expected: rev, Actual: rev + 1}
}

// TestHandleConflict: a turn whose commit loses is reported as a conflict,
// once, and nothing of it is saved; it is not run again (its action ran).
func TestHandleConflict(t *testing.T) {
	mem := checkpoints.NewMemoryStore()
	e, err := soni.New(compileCounter(t), soni.Options{Store: losingStore{mem}})
	require.NoError(t, err)
	var calls atomic.Int64
	e.Register("audit", auditFn(&calls))
	rep, err := e.Handle(context.Background(), "s", startFlow("audited"))
	require.ErrorIs(t, err, checkpoints.ErrConflict)
	assert.Nil(t, rep)
	_, _, err = mem.Load(context.Background(), "s")
	require.ErrorIs(t, err, checkpoints.ErrNotFound)
	assert.Equal(t, int64(1), calls.Load(), "the action ran once")
}

// TestTurnIsOneTransaction: a turn is Begin, Lookup (with a message id),
// Commit, and nothing else: one lock, one load, one commit; a duplicate is
// Begin and Lookup; a read of the state takes no lock (issue 20: a turn
// took two locks and read its checkpoint three times). The engine's first
// turn saves its program version first, once.
func TestTurnIsOneTransaction(t *testing.T) {
	var ops []string
	store := checkpoints.Observe(checkpoints.NewMemoryStore(), func(op string, _ time.Duration, err error) {
		ops = append(ops, op)
	})
	e, err := soni.New(compileCounter(t), soni.Options{Store: store})
	require.NoError(t, err)
	ctx := context.Background()
	_, err = e.Handle(ctx, "s", startFlow("bump"))
	require.NoError(t, err)
	assert.Equal(t, []string{"save_program", "begin", "commit"}, ops)
	ops = nil
	_, err = e.HandleMessage(ctx, "s", "m1", startFlow("bump"))
	require.NoError(t, err)
	assert.Equal(t, []string{"begin", "lookup", "commit"}, ops)
	ops = nil
	rep, err := e.HandleMessage(ctx, "s", "m1", startFlow("bump"))
	require.NoError(t, err)
	assert.True(t, rep.Duplicate)
	assert.Equal(t, []string{"begin", "lookup"}, ops)
	ops = nil
	_, _, err = e.State(ctx, "s")
	require.NoError(t, err)
	assert.Equal(t, []string{"load"}, ops)
	ops = nil
	_, err = e.Handle(ctx, "../etc", startFlow("bump"))
	var ie *checkpoints.InvalidIDError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, []string{"begin"}, ops, "the store checks the id, once")
}

func TestRegisterAndRunners(t *testing.T) {
	dir := t.TempDir()
	src := `version: "1.0"
actions:
  hello:
    outputs: [greeting]
    run:
      exec: ["./hello.sh"]
flows:
  greet:
    slots:
      - name: greeting
        type: text
    steps:
      - step: call
        type: action
        call: hello
        map_outputs:
          greeting: greeting
      - step: say
        type: say
        message: "{greeting}"
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.sh"), []byte("#!/bin/sh\necho '{\"greeting\": \"hello from exec\"}'\n"), 0o755))
	goHello := func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"greeting": "hello from Go"}, nil
	}
	stub := vm.ActionFunc(func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"greeting": "hello from a stub"}, nil
	})
	tests := []struct {
		name     string
		path     string
		opts     soni.Options
		register bool
		want     string
	}{
		{name: "exec in the loaded directory", path: dir, want: "hello from exec"},
		{name: "exec next to a one-file project", path: filepath.Join(dir, "flows.yaml"), want: "hello from exec"},
		{name: "registered function first", path: dir, register: true, want: "hello from Go"},
		{name: "own runner", path: dir, opts: soni.Options{Actions: stub}, register: true, want: "hello from a stub"},
		{name: "wrong directory", path: dir, opts: soni.Options{Dir: t.TempDir()}, want: "Sorry, something went wrong while trying to do that."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := soni.Load(tc.path, tc.opts)
			require.NoError(t, err)
			if tc.register {
				e.Register("hello", goHello)
			}
			rep, err := e.Handle(context.Background(), "s", startFlow("greet"))
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want}, rep.Replies)
		})
	}
}

func TestProjectDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.yaml")
	require.NoError(t, os.WriteFile(file, []byte("version: \"1.0\"\n"), 0o644))
	tests := []struct{ path, want string }{
		{dir, dir},
		{file, dir},
		{filepath.Join(dir, "compiled.json"), dir},
		{"bot.yaml", "."},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, soni.ProjectDir(tc.path), tc.path)
	}
}

func TestNewWithoutProgram(t *testing.T) {
	_, err := soni.New(nil, soni.Options{})
	require.EqualError(t, err, "no program: compile a project first")
}

// TestResumeErrorsNameTheCheckpoint: a checkpoint that cannot be resumed
// (it belongs to another session, or does not decode) is an error that
// names its session and gives no command-line advice (the CLI adds it),
// and it is left untouched.
func TestResumeErrorsNameTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := checkpoints.NewFileStore(dir)
	require.NoError(t, err)
	e, err := soni.New(compileCounter(t), soni.Options{Store: store})
	require.NoError(t, err)
	_, err = e.Handle(ctx, "ana", startFlow("bump"))
	require.NoError(t, err)
	good, err := os.ReadFile(filepath.Join(dir, "ana.json"))
	require.NoError(t, err)

	cases := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"copied from another session", "bob.json", good, `its session field is "ana", not "bob"`},
		{"not a checkpoint", "eve.json", []byte(`{"revision": 1, "format": "x"}`), `checkpoint format is "x"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(path, tc.data, 0o600))
			session := tc.file[:len(tc.file)-len(".json")]
			_, err := e.Handle(ctx, session, startFlow("bump"))
			require.Error(t, err)
			var re *soni.ResumeError
			require.ErrorAs(t, err, &re)
			assert.Contains(t, err.Error(), fmt.Sprintf("cannot resume the checkpoint of session %q", session))
			assert.Equal(t, session, re.Session)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "--")
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tc.data, after, "the checkpoint was changed")
		})
	}
}
