package soni_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func journalEngines(t *testing.T) map[string]*soni.Engine {
	fs, err := checkpoints.NewFileStore(filepath.Join(t.TempDir(), "cps"), checkpoints.WithoutSync())
	require.NoError(t, err)
	out := map[string]*soni.Engine{}
	for name, st := range map[string]checkpoints.Store{"memory": checkpoints.NewMemoryStore(), "file": fs} {
		e, err := soni.New(compileCounter(t), soni.Options{Store: st})
		require.NoError(t, err)
		e.Register("audit", auditFn(new(atomic.Int64)))
		out[name] = e
	}
	return out
}

// TestMessageIDsAreAnsweredOnce: a message id the session's log holds
// answers with the first attempt's reply, without running the turn again.
func TestMessageIDsAreAnsweredOnce(t *testing.T) {
	ctx := context.Background()
	for name, e := range journalEngines(t) {
		t.Run(name, func(t *testing.T) {
			first, err := e.HandleMessage(ctx, "s", "m-1", startFlow("audited"))
			require.NoError(t, err)
			require.False(t, first.Duplicate)
			require.NotNil(t, first.Record)
			again, err := e.HandleMessage(ctx, "s", "m-1", startFlow("audited"))
			require.NoError(t, err)
			assert.True(t, again.Duplicate)
			assert.Equal(t, first.Revision, again.Revision)
			assert.Equal(t, first.Replies, again.Replies)
			assert.Equal(t, first.Record.Slots, map[string]any{"turns": int64(1), "seen": int64(1)})
			st, rev, err := e.State(ctx, "s")
			require.NoError(t, err)
			assert.Equal(t, uint64(1), rev, "the duplicate ran nothing")
			assert.Equal(t, int64(1), st.Slots["turns"])

			_, err = e.HandleMessage(ctx, "s", "m-2", startFlow("audited"))
			require.NoError(t, err)
			log, err := e.Log(ctx, "s", 0, 0)
			require.NoError(t, err)
			require.Len(t, log, 2)
			assert.Equal(t, "m-1", log[0].MessageID)
			assert.Equal(t, []string{"audited"}, []string{log[0].Commands[0].Flow})
			// The log says which actions ran, how, and how long they took.
			require.Len(t, log[0].Actions, 1)
			call := log[0].Actions[0]
			assert.Equal(t, "audit", call.Action)
			assert.True(t, call.OK)
			assert.Equal(t, "s/1/audited.check", call.Key)
			assert.GreaterOrEqual(t, call.DurationMS, 0.0)
			assert.Equal(t, uint64(2), log[1].Revision)
			require.NoError(t, e.Reset(ctx, "s"))
			log, err = e.Log(ctx, "s", 0, 0)
			require.NoError(t, err)
			assert.Empty(t, log)
		})
	}
}

// TestStreamingCallbacks: OnReply and OnEvent see the turn's replies and
// events as they happen, the same as the reply's.
func TestStreamingCallbacks(t *testing.T) {
	e, err := soni.New(compileCounter(t), soni.Options{})
	require.NoError(t, err)
	e.Register("audit", auditFn(new(atomic.Int64)))
	var replies []string
	var events []vm.Event
	in := startFlow("audited")
	in.OnReply = func(s string) { replies = append(replies, s) }
	in.OnEvent = func(ev vm.Event) { events = append(events, ev) }
	r, err := e.Handle(context.Background(), "s", in)
	require.NoError(t, err)
	assert.Equal(t, r.Replies, replies)
	assert.Equal(t, r.Events, events)
	assert.NotEmpty(t, events)
}

// TestRecordsCarryOnlyTheirMessagesMetadata: the session keeps one merged
// metadata value, in its checkpoint, and each log record carries only the
// metadata its message came with, so the log grows with what is sent and
// not with the square of it (issue 20, defect 1: every record copied the
// whole merged metadata; 6 MB sent became a 307 MB log).
func TestRecordsCarryOnlyTheirMessagesMetadata(t *testing.T) {
	ctx := context.Background()
	for name, e := range journalEngines(t) {
		t.Run(name, func(t *testing.T) {
			chunk := strings.Repeat("x", 4<<10)
			const turns = 12
			for i := range turns {
				in := startFlow("bump")
				in.Metadata = map[string]any{fmt.Sprint("k", i): chunk}
				_, err := e.HandleMessage(ctx, "md", fmt.Sprint("m", i), in)
				require.NoError(t, err)
			}
			st, _, err := e.State(ctx, "md")
			require.NoError(t, err)
			assert.Len(t, st.Metadata, turns, "one merged value in the checkpoint")
			log, err := e.Log(ctx, "md", 0, 0)
			require.NoError(t, err)
			require.Len(t, log, turns)
			for i, r := range log {
				assert.Equal(t, map[string]any{fmt.Sprint("k", i): chunk}, r.Metadata, "record %d", i+1)
			}
			// A duplicate's reply says the same as the first attempt's.
			rep, err := e.HandleMessage(ctx, "md", "m3", startFlow("bump"))
			require.NoError(t, err)
			require.True(t, rep.Duplicate)
			assert.Equal(t, map[string]any{"k3": chunk}, rep.Record.Metadata)
		})
	}
}

// TestRecordsSayWhichLayerUnderstood: a turn's record says which
// understanding layer gave its commands and why, and a duplicate's reply
// says it too; given commands have none.
func TestRecordsSayWhichLayerUnderstood(t *testing.T) {
	ctx := context.Background()
	for name, e := range journalEngines(t) {
		t.Run(name, func(t *testing.T) {
			rep, err := e.HandleMessage(ctx, "u", "m1", vm.Input{Text: "xyzzy"})
			require.NoError(t, err)
			require.NotNil(t, rep.Record.Understood)
			assert.Equal(t, vm.Understanding{Layer: "rules", Reason: "no rule reads the message", Rule: "fallback"}, *rep.Record.Understood)
			log, err := e.Log(ctx, "u", 0, 0)
			require.NoError(t, err)
			require.Len(t, log, 1)
			assert.Equal(t, rep.Record.Understood, log[0].Understood)
			dup, err := e.HandleMessage(ctx, "u", "m1", vm.Input{Text: "xyzzy"})
			require.NoError(t, err)
			require.True(t, dup.Duplicate)
			assert.Equal(t, rep.Record.Understood, dup.Understood)
			given, err := e.HandleMessage(ctx, "u", "m2", startFlow("bump"))
			require.NoError(t, err)
			assert.Nil(t, given.Record.Understood)
		})
	}
}
