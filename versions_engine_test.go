package soni_test

import (
	"context"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/versions"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// transferV1 is the first version of a small project; the tests of
// versions change it as a deploy would.
const transferV1 = `settings:
  version_policy: POLICY
slots:
  user_name: {type: text}
flows:
  transfer:
    description: send money
    slots:
      - {name: recipient, type: text}
      - {name: amount, type: number}
    steps:
      - {step: ask_recipient, type: collect, slot: recipient, message: "Who to?"}
      - {step: ask_amount, type: collect, slot: amount, message: "How much?"}
      - {step: done, type: say, message: "Sent {amount} to {recipient}."}
  balance:
    description: check balance
    steps:
      - {step: tell, type: say, message: "You have 100."}
`

func compileVersion(t *testing.T, src, policy string) *ir.Program {
	t.Helper()
	src = strings.ReplaceAll(src, "POLICY", policy)
	r := compiler.CompileSource("p.yaml", []byte(src), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	return r.Program
}

func text(s string) vm.Input { return vm.Input{Text: s} }

// pausedAtAmount runs v1 until the session waits for the amount, with a
// conversation slot set, and returns the store.
func pausedAtAmount(t *testing.T, store checkpoints.Store) {
	t.Helper()
	ctx := context.Background()
	e1, err := soni.New(compileVersion(t, transferV1, "finish"), soni.Options{Store: store})
	require.NoError(t, err)
	require.NoError(t, e1.Seed(ctx, "u1", map[string]any{"user_name": "Ana"}))
	_, err = e1.Handle(ctx, "u1", startFlow("transfer"))
	require.NoError(t, err)
	rep, err := e1.Handle(ctx, "u1", text("Bob"))
	require.NoError(t, err)
	require.Equal(t, []string{"How much?"}, rep.Replies)
}

func TestVersionPaths(t *testing.T) {
	renamed := strings.Replace(transferV1, "step: ask_amount,", "step: ask_the_amount,", 1)
	for _, tc := range []struct {
		name, src, policy string
		// gone drops v1 from the store before the deploy.
		gone    bool
		path    versions.Path
		replies []string
		// moved: after this turn the session is saved with v2.
		moved bool
	}{
		{"texts changed: it moves", strings.Replace(transferV1, "Sent {amount}", "Done: {amount}", 1), "finish", false,
			versions.Move, []string{"Done: 50 to Bob."}, true},
		{"a rename with replaces: it moves", strings.Replace(transferV1, "step: ask_amount,", "step: ask_the_amount, replaces: [ask_amount],", 1), "finish", false,
			versions.Move, []string{"Sent 50 to Bob."}, true},
		{"a rename: it finishes on v1, then moves", renamed, "finish", false,
			versions.Finish, []string{"Sent 50 to Bob."}, true},
		{"a slot added to the running flow: it finishes on v1", strings.Replace(transferV1, "- {name: amount, type: number}", "- {name: amount, type: number}\n      - {name: note, type: text}", 1), "finish", false,
			versions.Finish, []string{"Sent 50 to Bob."}, true},
		{"upgrade: an incompatible change runs pattern_code_change", renamed, "upgrade", false,
			versions.CodeChange, []string{"I was updated since your last message and had to stop what we were doing (transfer). Please tell me again what you need."}, true},
		{"its version gone: pattern_code_change", renamed, "finish", true,
			versions.CodeChange, []string{"I was updated since your last message and had to stop what we were doing (transfer). Please tell me again what you need."}, true},
		{"restart: even a compatible change restarts", transferV1 + "  extra:\n    steps:\n      - {step: a, type: say, message: hi}\n", "restart", false,
			versions.CodeChange, []string{"I was updated since your last message and had to stop what we were doing (transfer). Please tell me again what you need."}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			store := checkpoints.NewMemoryStore()
			pausedAtAmount(t, store)
			if tc.gone {
				ps, err := store.Programs(ctx)
				require.NoError(t, err)
				require.Len(t, ps, 1)
				require.NoError(t, store.DeleteProgram(ctx, ps[0].Version))
			}
			v2, err := soni.New(compileVersion(t, tc.src, tc.policy), soni.Options{Store: store})
			require.NoError(t, err)
			rep, err := v2.Handle(ctx, "u1", text("50"))
			require.NoError(t, err, "never an error because the flows changed")
			assert.Equal(t, tc.path, rep.VersionPath)
			assert.Equal(t, tc.replies, rep.Replies)
			assert.Equal(t, "Ana", rep.Slots()["user_name"], "the conversation slot is kept")
			assert.Equal(t, string(tc.path), rep.Record.VersionPath)
			if tc.moved {
				assert.Equal(t, v2.Version(), rep.State.Fingerprint)
				assert.Equal(t, v2.Version(), rep.Record.Version)
			}
			st, _, err := v2.State(ctx, "u1")
			require.NoError(t, err)
			assert.Equal(t, v2.Version(), st.Fingerprint, "the stored checkpoint carries the version")
			rep, err = v2.Handle(ctx, "u1", startFlow("balance"))
			require.NoError(t, err)
			assert.Equal(t, versions.Same, rep.VersionPath)
		})
	}
}

// TestFinishKeepsTheOldVersionUntilIdle: a session in the middle of a
// flow whose steps changed keeps answering on its version, turn after
// turn, and moves only once its stack is empty.
func TestFinishKeepsTheOldVersionUntilIdle(t *testing.T) {
	ctx := context.Background()
	store := checkpoints.NewMemoryStore()
	e1, err := soni.New(compileVersion(t, transferV1, "finish"), soni.Options{Store: store})
	require.NoError(t, err)
	_, err = e1.Handle(ctx, "u1", startFlow("transfer"))
	require.NoError(t, err)
	v2src := strings.NewReplacer("step: ask_recipient,", "step: who,", "step: ask_amount,", "step: how_much,").Replace(transferV1)
	v2, err := soni.New(compileVersion(t, v2src, "finish"), soni.Options{Store: store})
	require.NoError(t, err)
	rep, err := v2.Handle(ctx, "u1", text("Bob"))
	require.NoError(t, err)
	assert.Equal(t, versions.Finish, rep.VersionPath)
	assert.False(t, rep.Moved)
	assert.Equal(t, e1.Version(), rep.State.Fingerprint, "still on v1: its flow runs")
	assert.Equal(t, []string{"How much?"}, rep.Replies)
	rep, err = v2.Handle(ctx, "u1", text("20"))
	require.NoError(t, err)
	assert.Equal(t, versions.Finish, rep.VersionPath)
	assert.True(t, rep.Moved)
	assert.Equal(t, v2.Version(), rep.State.Fingerprint)
}

// TestOldReplicaNeverMovesBack: in a rolling deploy an old replica meets
// a session a newer replica saved; it runs it on the newer version, from
// the store, and leaves it there.
func TestOldReplicaNeverMovesBack(t *testing.T) {
	ctx := context.Background()
	store := checkpoints.NewMemoryStore()
	old, err := soni.New(compileVersion(t, transferV1, "finish"), soni.Options{Store: store})
	require.NoError(t, err)
	_, err = old.Handle(ctx, "warmup", startFlow("balance")) // the old replica saves its version first
	require.NoError(t, err)
	newSrc := strings.Replace(transferV1, "step: ask_amount,", "step: ask_the_amount,", 1)
	newer, err := soni.New(compileVersion(t, newSrc, "finish"), soni.Options{Store: store})
	require.NoError(t, err)
	_, err = newer.Handle(ctx, "u1", startFlow("transfer"))
	require.NoError(t, err)
	_, err = newer.Handle(ctx, "u1", text("Bob"))
	require.NoError(t, err)
	rep, err := old.Handle(ctx, "u1", text("50"))
	require.NoError(t, err)
	assert.Equal(t, versions.Stay, rep.VersionPath)
	assert.Equal(t, []string{"Sent 50 to Bob."}, rep.Replies)
	assert.Equal(t, newer.Version(), rep.State.Fingerprint, "never moved back")
	rep, err = old.Handle(ctx, "u1", startFlow("balance"))
	require.NoError(t, err)
	assert.Equal(t, newer.Version(), rep.State.Fingerprint, "not even when idle")
}

func TestCheckDeployAndPruneVersions(t *testing.T) {
	ctx := context.Background()
	store := checkpoints.NewMemoryStore()
	pausedAtAmount(t, store)
	renamed := strings.Replace(transferV1, "step: ask_amount,", "step: ask_the_amount,", 1)
	for _, tc := range []struct {
		policy string
		path   versions.Path
	}{{"finish", versions.Finish}, {"upgrade", versions.CodeChange}} {
		v2, err := soni.New(compileVersion(t, renamed, tc.policy), soni.Options{Store: store})
		require.NoError(t, err)
		rep, err := v2.CheckDeploy(ctx)
		require.NoError(t, err)
		require.Len(t, rep.Sessions, 1)
		assert.Equal(t, tc.path, rep.Sessions[0].Path)
		assert.Equal(t, []string{"transfer"}, rep.Sessions[0].Stack)
		assert.Contains(t, rep.Sessions[0].Reason, `step "ask_amount" of flow "transfer" is gone`)
	}
	ps, err := store.Programs(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1, "a check saves nothing")
	deleted, err := soni.PruneVersions(ctx, store, ps[0].Used.Add(1))
	require.NoError(t, err)
	assert.Empty(t, deleted, "a live session uses it")
	require.NoError(t, store.Delete(ctx, "u1"))
	deleted, err = soni.PruneVersions(ctx, store, ps[0].Used)
	require.NoError(t, err)
	assert.Empty(t, deleted, "used since the cutoff")
	deleted, err = soni.PruneVersions(ctx, store, ps[0].Used.Add(1))
	require.NoError(t, err)
	assert.Equal(t, []string{ps[0].Version}, deleted)
}
