package soni_test

import (
	"context"
	"fmt"
	"maps"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/checkpoints/postgres"
	"github.com/soni-dev/soni/checkpoints/sqlite"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/versions"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The deploy test under load (issue 29 §5): sessions paused at every
// point the example projects' conversation tests reach, 500 per store,
// then a deploy of a program that renames a step, removes a flow, adds a
// slot to a running flow and changes texts. Every session answers its
// next message with no error, none loses a slot it held, and each takes
// the path the rules say, which this test works out from what the deploy
// changed, not from the engine's answer.

const deploySessions = 500

// pausedSession is a session made by the replay, with what it held.
type pausedSession struct {
	id, project string
	// next is its next message: the case's next turn, or a greeting.
	next vm.Input
	// stack is its flows, bottom first; slots what it held.
	stack []vm.Frame
	slots map[string]any
}

// deployProject is one example project, its replayed sessions' source
// and its v2.
type deployProject struct {
	name   string
	v1, v2 *ir.Program
	// changed are the flows v2 changed incompatibly for any session in
	// them (a slot added, the flow removed); renamed is the step v2
	// renamed, as FLOW.STEP, incompatible for the sessions at it.
	changed map[string]bool
	renamed string
	// grown is the flow v2 added a slot to: without v1 to compare with,
	// nothing a session holds shows the change, so it moves.
	grown string
	cases []*convtest.Case
	// stubs answers the project's actions as its test files stub them
	// (the first stub of each action that does not fail): the test is of
	// versions, and the example actions' go run would take most of its
	// time.
	stubs map[string]map[string]any
}

// engine makes an engine of the project's v1 or v2 on the store.
func (dp *deployProject) engine(t *testing.T, store checkpoints.Store, v2 bool) *soni.Engine {
	t.Helper()
	p := dp.v1
	if v2 {
		p = dp.v2
	}
	run := vm.ActionFunc(func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		out, ok := dp.stubs[req.Action]
		if !ok {
			return nil, fmt.Errorf("action %q has no stub in the project's tests", req.Action)
		}
		return maps.Clone(out), nil
	})
	e, err := soni.New(p, soni.Options{Store: store, Dir: filepath.Join("flows", dp.name), Actions: run})
	require.NoError(t, err)
	return e
}

// exampleProjects loads the example projects and their conversation
// tests, and makes each one's v2.
func exampleProjects(t *testing.T) []*deployProject {
	t.Helper()
	var out []*deployProject
	for _, name := range []string{"banking", "travel", "support"} {
		dir := filepath.Join("flows", name)
		p1, err := soni.LoadProgram(dir, soni.Options{}.Compiler)
		require.NoError(t, err)
		dp := &deployProject{name: name, v1: p1, changed: map[string]bool{}, stubs: map[string]map[string]any{}}
		tests, _ := filepath.Glob(filepath.Join(dir, "tests", "*.yaml"))
		for _, path := range tests {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			f, diags := convtest.ParseFile(path, src)
			if f == nil || diags.HasErrors() {
				continue
			}
			for _, s := range f.Stubs {
				if _, seen := dp.stubs[s.Action]; !seen && !s.Fails {
					dp.stubs[s.Action] = s.Outputs
				}
			}
			for _, c := range f.Cases {
				if !c.Skipped && len(c.Fixtures) == 0 && c.Metadata.Name == "" {
					dp.cases = append(dp.cases, c)
				}
			}
		}
		require.NotEmpty(t, dp.cases, name)
		out = append(out, dp)
	}
	return out
}

// makeV2 deploys a changed program: in the flows that most sessions wait
// in, one step renamed, one flow removed (one no other flow links to or
// calls), a slot added to one more, and every say text changed.
func (dp *deployProject) makeV2(t *testing.T, waits map[string]int) {
	t.Helper()
	b, err := ir.Encode(dp.v1)
	require.NoError(t, err)
	p2, err := ir.Decode(b)
	require.NoError(t, err)
	referenced := map[string]bool{p2.Settings.Handoff: true}
	for _, f := range p2.Flows {
		for _, n := range f.Nodes {
			if n.Kind == ir.KindLink || n.Kind == ir.KindCall {
				referenced[n.Target] = true
			}
		}
	}
	var busy []string
	for name := range waits {
		busy = append(busy, name)
	}
	sort.Slice(busy, func(i, j int) bool {
		if waits[busy[i]] != waits[busy[j]] {
			return waits[busy[i]] > waits[busy[j]]
		}
		return busy[i] < busy[j]
	})
	var renamed, removed, grown string
	for _, name := range busy {
		f := p2.Flow(name)
		switch {
		case renamed == "" && hasWait(f):
			renamed = name
			for _, n := range f.Nodes {
				if n.Kind.WaitsForUser() {
					dp.renamed = name + "." + n.ID
					n.ID += "_v2" // node references are indexes: the rename is the id alone
					break
				}
			}
		case removed == "" && !referenced[name]:
			removed = name
		case grown == "":
			grown = name
			dp.grown = name
			f.Slots = append(f.Slots, &ir.Slot{Name: "deploy_note", Type: ir.TypeText, Pos: f.Pos})
		}
	}
	require.NotEmpty(t, renamed, dp.name)
	if removed != "" {
		kept := p2.Flows[:0]
		for _, f := range p2.Flows {
			if f.Name != removed {
				kept = append(kept, f)
			}
		}
		p2.Flows = kept
	}
	for _, f := range p2.Flows {
		for _, n := range f.Nodes {
			if n.Kind == ir.KindSay && n.Message != nil && n.Message.Src != "" {
				n.Message.Src += " (v2)"
			}
		}
	}
	for _, name := range []string{removed, grown} {
		if name != "" {
			dp.changed[name] = true
		}
	}
	dp.v2 = p2
}

func hasWait(f *ir.Flow) bool {
	for _, n := range f.Nodes {
		if n.Kind.WaitsForUser() {
			return true
		}
	}
	return false
}

func userInput(s *convtest.Step) vm.Input {
	if s.Commands != nil {
		return vm.Input{Commands: s.Commands}
	}
	return vm.Input{Text: s.Text}
}

// replay runs the projects' cases on v1 engines of the store, each case
// once, and copies its session after each of its turns into a session of
// its own (cases taken in turn, so that every case gives its first points
// first), until there are n sessions; it returns them.
func replay(t *testing.T, store checkpoints.Store, projects []*deployProject, n int) []*pausedSession {
	t.Helper()
	ctx := context.Background()
	type running struct {
		dp   *deployProject
		e    *soni.Engine
		c    *convtest.Case
		src  string
		done int
	}
	var all []*running
	for _, dp := range projects {
		e := dp.engine(t, store, false)
		for ci, c := range dp.cases {
			all = append(all, &running{dp: dp, e: e, c: c, src: fmt.Sprintf("src-%s-%d", dp.name, ci)})
		}
	}
	var out []*pausedSession
	for len(out) < n {
		progress := false
		for _, r := range all {
			if len(out) >= n || r.done >= len(r.c.Turns) {
				continue
			}
			progress = true
			_, err := r.e.Handle(ctx, r.src, userInput(r.c.Turns[r.done].User))
			require.NoError(t, err, "%s: %s", r.dp.name, r.c.Name)
			r.done++
			st, _, err := r.e.State(ctx, r.src)
			require.NoError(t, err)
			id := fmt.Sprintf("%s-%d", r.src[4:], r.done)
			st.Session, st.Revision = id, 1
			b, err := r.e.Codec().Encode(st)
			require.NoError(t, err)
			tx, err := store.Begin(ctx, id)
			require.NoError(t, err)
			require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 1, Data: []byte(`{"replayed":true}`)}, b))
			tx.Close()
			ps := &pausedSession{id: id, project: r.dp.name, stack: st.Stack, slots: heldSlots(st), next: vm.Input{Text: "hello"}}
			if r.done < len(r.c.Turns) {
				ps.next = userInput(r.c.Turns[r.done].User)
			}
			out = append(out, ps)
		}
		if !progress {
			break
		}
	}
	for _, r := range all {
		require.NoError(t, r.e.Reset(ctx, r.src))
	}
	return out
}

// heldSlots is every slot value a state holds: conversation slots by
// name, flow slots as FLOW#INDEX.SLOT.
func heldSlots(st *vm.State) map[string]any {
	out := map[string]any{}
	maps.Copy(out, st.Slots)
	for i, f := range st.Stack {
		for k, v := range f.Slots {
			out[fmt.Sprintf("%s#%d.%s", f.Flow, i, k)] = v
		}
	}
	return out
}

// onlyGrown reports whether the only change v2 made under the session is
// the slot added to a flow on its stack.
func onlyGrown(ps *pausedSession, dp *deployProject) bool {
	for _, f := range ps.stack {
		if (dp.changed[f.Flow] && f.Flow != dp.grown) || f.Flow+"."+f.Step == dp.renamed {
			return false
		}
	}
	return true
}

// countConv counts the conversation slots a replayed session held.
func countConv(ps *pausedSession) int {
	n := 0
	for k := range ps.slots {
		if !strings.Contains(k, "#") {
			n++
		}
	}
	return n
}

// expectedPath is the path §1 gives a session of v1 under v2, with v1
// still in the store and the default policy.
func expectedPath(ps *pausedSession, dp *deployProject) versions.Path {
	for _, f := range ps.stack {
		if dp.changed[f.Flow] || f.Flow+"."+f.Step == dp.renamed {
			return versions.Finish
		}
	}
	return versions.Move
}

// runDeploy replays 500 sessions on store, deploys v2 and sends every
// session its next message on a v2 engine (replica), concurrently,
// checking each. With old, a v1 engine of the same store (an old replica
// of a rolling deploy), every session then sends one more message there,
// which is answered and never moves the session back to v1.
//
// With gone, the store loses v1 before the deploy (a memory store
// restarted, or the versions pruned): the sessions that would finish on
// v1 run pattern_code_change instead, and keep their conversation slots.
func runDeploy(t *testing.T, store checkpoints.Store, replica, old func(dp *deployProject) *soni.Engine, gone bool) {
	ctx := context.Background()
	projects := exampleProjects(t)
	sessions := replay(t, store, projects, deploySessions)
	require.Len(t, sessions, deploySessions, "the example projects' cases reach enough points")
	byName := map[string]*deployProject{}
	waits := map[string]map[string]int{}
	for _, dp := range projects {
		byName[dp.name] = dp
		waits[dp.name] = map[string]int{}
	}
	for _, ps := range sessions {
		for _, f := range ps.stack {
			waits[ps.project][f.Flow]++
		}
	}
	for _, dp := range projects {
		dp.makeV2(t, waits[dp.name])
	}
	if gone {
		ps, err := store.Programs(ctx)
		require.NoError(t, err)
		require.Len(t, ps, len(projects), "one version a project")
		for _, p := range ps {
			require.NoError(t, store.DeleteProgram(ctx, p.Version))
		}
	}
	paths := map[versions.Path]int{}
	var mu sync.Mutex
	work := make(chan *pausedSession)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ps := range work {
				dp := byName[ps.project]
				e := replica(dp)
				want := expectedPath(ps, dp)
				st, _, err := e.State(ctx, ps.id)
				if !assert.NoError(t, err, ps.id) {
					continue
				}
				held, had := heldSlots(st), ps.slots
				if gone && want == versions.Finish && onlyGrown(ps, dp) {
					want = versions.Move
				}
				if gone && want == versions.Finish && !onlyGrown(ps, dp) {
					// Its flows end: it keeps what it said outside them.
					want = versions.CodeChange
					had = maps.Clone(st.Slots)
					maps.DeleteFunc(had, func(k string, _ any) bool { _, ok := ps.slots[k]; return !ok })
					held = map[string]any{}
					for k := range had {
						held[k] = ps.slots[k]
					}
					assert.Len(t, had, countConv(ps), "%s keeps every conversation slot", ps.id)
				}
				assert.Equal(t, had, held, "%s (%s, stack %v) lost or changed a slot it held", ps.id, want, ps.stack)
				next := ps.next
				if want == versions.CodeChange && next.Commands != nil {
					// Commands a test gave for the flows that ended
					// cannot apply (set_slot of their slots): a user
					// types a message.
					next = vm.Input{Text: "hello"}
				}
				rep, err := e.Handle(ctx, ps.id, next)
				if !assert.NoError(t, err, "%s answers its next message", ps.id) {
					continue
				}
				assert.Equal(t, want, rep.VersionPath, "%s (stack %v)", ps.id, ps.stack)
				assert.NotEmpty(t, rep.Replies, ps.id)
				mu.Lock()
				paths[rep.VersionPath]++
				mu.Unlock()
				if old == nil {
					continue
				}
				onNew := rep.State.Fingerprint == e.Version()
				rep, err = old(dp).Handle(ctx, ps.id, vm.Input{Text: "hello"})
				if !assert.NoError(t, err, "%s answers on the old replica", ps.id) {
					continue
				}
				if onNew {
					assert.Equal(t, e.Version(), rep.State.Fingerprint, "%s: the old replica never moves it back", ps.id)
					assert.Equal(t, versions.Stay, rep.VersionPath, ps.id)
				}
				mu.Lock()
				paths["old replica: "+rep.VersionPath]++
				mu.Unlock()
			}
		}()
	}
	for _, ps := range sessions {
		work <- ps
	}
	close(work)
	wg.Wait()
	t.Logf("paths: %v", paths)
	assert.NotZero(t, paths[versions.Move], "some sessions move")
	if gone {
		assert.NotZero(t, paths[versions.CodeChange], "some sessions run pattern_code_change")
	} else {
		assert.NotZero(t, paths[versions.Finish], "some sessions finish on v1")
	}
}

// engines returns a function that gives each project one engine of the
// store, on v1 or v2.
func engines(t *testing.T, store checkpoints.Store, v2 bool) func(*deployProject) *soni.Engine {
	var mu sync.Mutex
	made := map[string]*soni.Engine{}
	return func(dp *deployProject) *soni.Engine {
		mu.Lock()
		defer mu.Unlock()
		if e := made[dp.name]; e != nil {
			return e
		}
		e := dp.engine(t, store, v2)
		made[dp.name] = e
		return e
	}
}

func TestDeployUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the deploy test replays the example projects 4 times")
	}
	t.Run("memory", func(t *testing.T) {
		store := checkpoints.NewMemoryStore()
		runDeploy(t, store, engines(t, store, true), nil, false)
	})
	t.Run("memory, v1 gone", func(t *testing.T) {
		store := checkpoints.NewMemoryStore()
		runDeploy(t, store, engines(t, store, true), nil, true)
	})
	t.Run("file", func(t *testing.T) {
		store, err := checkpoints.NewFileStore(t.TempDir(), checkpoints.WithoutSync())
		require.NoError(t, err)
		runDeploy(t, store, engines(t, store, true), nil, false)
	})
	t.Run("sqlite", func(t *testing.T) {
		store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "soni.db"), sqlite.Options{})
		require.NoError(t, err)
		defer store.Close()
		runDeploy(t, store, engines(t, store, true), nil, false)
	})
	t.Run("postgres", func(t *testing.T) {
		store := deployPostgres(t)
		runDeploy(t, store, engines(t, store, true), nil, false)
	})
	// Two replicas of different versions on one PostgreSQL, as in a
	// rolling deploy.
	t.Run("postgres two replicas", func(t *testing.T) {
		store := deployPostgres(t)
		runDeploy(t, store, engines(t, store, true), engines(t, store, false), false)
	})
}

// deployPostgres opens a PostgreSQL store in a schema of its own:
// SONI_TEST_POSTGRES, which .ci/run sets; without it the test skips, and
// fails under CI.
func deployPostgres(t *testing.T) checkpoints.Store {
	t.Helper()
	url := os.Getenv("SONI_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("SONI_TEST_POSTGRES is not set under CI: .ci/run starts a PostgreSQL cluster and sets it (scripts/postgres.sh)")
		}
		t.Skip("SONI_TEST_POSTGRES is not set: start a cluster with scripts/postgres.sh")
	}
	ctx := context.Background()
	admin, err := pgxpool.New(ctx, url)
	require.NoError(t, err)
	defer admin.Close()
	schema := fmt.Sprintf("deploy_%d", time.Now().UnixNano())
	_, err = admin.Exec(ctx, "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		if a, err := pgxpool.New(context.Background(), url); err == nil {
			_, _ = a.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			a.Close()
		}
	})
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	store, err := postgres.Open(ctx, url+sep+"options="+neturl.QueryEscape("-csearch_path="+schema), postgres.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	return store
}
