// Package storetest is the conformance suite of checkpoint stores: every
// [checkpoints.Store] of soni (memory, file, sqlite, postgres) passes the
// same tests, and so should a store an embedding program writes. It covers
// the transaction (Begin, Checkpoint, Lookup, Commit, Close), the per-
// session queue and its bound, the indexed lookup over a long log, the log
// and its paging, paged listing, and deletes and prunes at scale.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Doc returns checkpoint bytes at a revision, with a note.
func Doc(rev uint64, note string) []byte {
	return []byte(fmt.Sprintf(`{"format": "test", "revision": %d, "note": %q}`, rev, note))
}

// Entry returns log record data for a turn.
func Entry(rev uint64, text string) []byte {
	return []byte(fmt.Sprintf(`{"revision": %d, "user": %q}`, rev, text))
}

// Opener returns a new, empty store for a subtest, whose per-session
// queue lets maxWaiting turns wait besides the holder (0: the store's
// default). The store must be usable concurrently; the opener closes it
// when the test ends. Run's cases run in parallel, each on a store of its
// own, so the stores an opener returns must not share their sessions.
type Opener func(t *testing.T, maxWaiting int) checkpoints.Store

// Turn runs one transaction on the session: it begins, checks that the
// session is at revision rev, and commits revision rev+1 with the note and
// the message id key.
func Turn(ctx context.Context, s checkpoints.Store, id string, rev uint64, key, note string) error {
	tx, err := s.Begin(ctx, id)
	if err != nil {
		return err
	}
	defer tx.Close()
	if _, got := tx.Checkpoint(); got != rev {
		return fmt.Errorf("session %q is at revision %d, not %d", id, got, rev)
	}
	return tx.Commit(ctx, checkpoints.Record{Revision: rev + 1, Key: key, Data: Entry(rev+1, note)}, Doc(rev+1, note))
}

// Run runs the suite: each case as a subtest of its own name, in
// parallel with the others, on a store of its own from open.
func Run(t *testing.T, open Opener) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, open)
		})
	}
}

// cases are the suite's tests, each a function of its own, in the order
// Run runs them.
var cases = []struct {
	name string
	run  func(t *testing.T, open Opener)
}{
	{"Ping", testPing},
	{"BeginNewSession", testBeginNewSession},
	{"CommitLoadDelete", testCommitLoadDelete},
	{"TransactionRules", testTransactionRules},
	{"RecordValues", testRecordValues},
	{"HostileIDs", testHostileIDs},
	{"ListPages", testListPages},
	{"LargeCheckpoint", testLargeCheckpoint},
	{"TurnsAreSerial", testTurnsAreSerial},
	{"LockWaitEndsWithContext", testLockWaitEndsWithContext},
	{"BusySession", testBusySession},
	{"IndexedLookup", testIndexedLookup},
	{"DeletesAtScale", testDeletesAtScale},
	{"Prune", testPrune},
	{"Programs", testPrograms},
	{"CanceledContext", testCanceledContext},
}

func testPing(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	require.NoError(t, s.Ping(ctx), "an empty store answers")
	require.NoError(t, Turn(ctx, s, "a", 0, "", "one"))
	require.NoError(t, s.Ping(ctx))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	assert.Error(t, s.Ping(cancelled), "a cancelled context")
}

func testBeginNewSession(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	tx, err := s.Begin(ctx, "nobody")
	require.NoError(t, err)
	data, rev := tx.Checkpoint()
	assert.Nil(t, data)
	assert.Zero(t, rev)
	_, ok, err := tx.Lookup(ctx, "k")
	require.NoError(t, err)
	assert.False(t, ok)
	tx.Close()
	tx.Close() // twice is fine
	_, rev, err = s.Load(ctx, "nobody")
	assert.ErrorIs(t, err, checkpoints.ErrNotFound, "beginning creates nothing")
	assert.Zero(t, rev)
}

func testCommitLoadDelete(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	buf := Doc(1, "one")
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 1, Data: Entry(1, "one")}, buf))
	copy(buf, "XXXXXXXX") // the store keeps no reference to the caller's bytes
	tx.Close()
	b, rev, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)
	assert.Equal(t, string(Doc(1, "one")), string(b), "kept byte for byte")
	tx, err = s.Begin(ctx, "a")
	require.NoError(t, err)
	b, rev = tx.Checkpoint()
	assert.Equal(t, uint64(1), rev)
	assert.Equal(t, string(Doc(1, "one")), string(b), "Begin loads what was committed")
	require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 2, Data: Entry(2, "two")}, Doc(2, "two")))
	tx.Close()
	require.NoError(t, s.Delete(ctx, "a"))
	_, _, err = s.Load(ctx, "a")
	assert.ErrorIs(t, err, checkpoints.ErrNotFound)
	require.NoError(t, s.Delete(ctx, "a"), "deleting a missing session is fine")
	require.NoError(t, Turn(ctx, s, "a", 0, "", "again"), "a deleted session starts afresh")
	log, err := s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 1, "with a log of its own")
	assert.JSONEq(t, string(Entry(1, "again")), string(log[0].Data))
}

func testTransactionRules(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	bad := []struct {
		name string
		rec  checkpoints.Record
	}{
		{"skips a revision", checkpoints.Record{Revision: 2, Data: Entry(2, "")}},
		{"revision 0", checkpoints.Record{Revision: 0, Data: Entry(0, "")}},
		{"key too long", checkpoints.Record{Revision: 1, Key: strings.Repeat("k", checkpoints.MaxKeyLength+1), Data: Entry(1, "")}},
		{"not JSON", checkpoints.Record{Revision: 1, Data: []byte("not json")}},
		{"not an object", checkpoints.Record{Revision: 1, Data: []byte(`[1]`)}},
		{"no data", checkpoints.Record{Revision: 1}},
	}
	for _, tc := range bad {
		assert.ErrorIs(t, tx.Commit(ctx, tc.rec, Doc(1, "")), checkpoints.ErrInvalidData, tc.name)
	}
	_, _, err = s.Load(ctx, "a")
	assert.ErrorIs(t, err, checkpoints.ErrNotFound, "a refused commit stores nothing")
	require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 1, Data: []byte("{\n  \"pretty\": true\n}")}, Doc(1, "")), "a record spread over lines")
	assert.Error(t, tx.Commit(ctx, checkpoints.Record{Revision: 2, Data: Entry(2, "")}, Doc(2, "")), "a transaction commits once")
	tx.Close()
	_, _, err = tx.Lookup(ctx, "k")
	assert.ErrorIs(t, err, checkpoints.ErrClosed)
	assert.ErrorIs(t, tx.Commit(ctx, checkpoints.Record{Revision: 2, Data: Entry(2, "")}, Doc(2, "")), checkpoints.ErrClosed)
	log, err := s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 1)
	assert.JSONEq(t, `{"pretty": true}`, string(log[0].Data))

	tx, err = s.Begin(ctx, "a")
	require.NoError(t, err)
	tx.Close() // closed without a commit: nothing changes
	_, rev, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)
}

func testRecordValues(t *testing.T, open Opener) {
	ctx := context.Background()
	// A record given as a Go value is stored as its JSON.
	s := open(t, 0)
	tx, err := s.Begin(ctx, "v")
	require.NoError(t, err)
	v := map[string]any{"user": "hi", "n": 3}
	require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 1, Key: "m1", Value: v}, Doc(1, "")))
	tx.Close()
	log, err := s.Log(ctx, "v", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 1)
	assert.JSONEq(t, `{"user": "hi", "n": 3}`, string(log[0].Data))
	tx, err = s.Begin(ctx, "v")
	require.NoError(t, err)
	defer tx.Close()
	rec, ok, err := tx.Lookup(ctx, "m1")
	require.NoError(t, err)
	require.True(t, ok)
	assert.JSONEq(t, `{"user": "hi", "n": 3}`, string(rec.Data))
}

func testHostileIDs(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	for _, id := range []string{"", ".", "..", "../x", "a/b", `a\b`, "x\x00y", strings.Repeat("a", 129), "ü", "a b"} {
		var ie *checkpoints.InvalidIDError
		_, err := s.Begin(ctx, id)
		assert.ErrorAs(t, err, &ie, "Begin %q", id)
		_, _, err = s.Load(ctx, id)
		assert.ErrorAs(t, err, &ie, "Load %q", id)
		assert.ErrorAs(t, s.Delete(ctx, id), &ie, "Delete %q", id)
		_, err = s.Log(ctx, id, 0, 0)
		assert.ErrorAs(t, err, &ie, "Log %q", id)
	}
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Empty(t, infos)
}

func testListPages(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	var want []string
	for i := range 60 {
		id := fmt.Sprintf("s%03d", i)
		want = append(want, id)
		require.NoError(t, Turn(ctx, s, id, 0, "", id))
	}
	require.NoError(t, Turn(ctx, s, "s000", 1, "", "again"))
	all, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	require.Len(t, all, 60)
	assert.Equal(t, want, ids(all))
	assert.Equal(t, uint64(2), all[0].Revision)
	assert.Equal(t, uint64(1), all[1].Revision)
	assert.False(t, all[0].Updated.IsZero())
	var paged []string
	for after := ""; ; {
		page, err := s.List(ctx, after, 25)
		require.NoError(t, err)
		require.LessOrEqual(t, len(page), 25)
		if len(page) == 0 {
			break
		}
		paged = append(paged, ids(page)...)
		after = page[len(page)-1].ID
	}
	assert.Equal(t, want, paged, "the pages cover every session once, in order")
}

func testLargeCheckpoint(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	big := Doc(1, strings.Repeat("x", 4<<20))
	tx, err := s.Begin(ctx, "big")
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 1, Data: Entry(1, "")}, big))
	tx.Close()
	b, _, err := s.Load(ctx, "big")
	require.NoError(t, err)
	assert.Equal(t, string(big), string(b))
}

func testTurnsAreSerial(t *testing.T, open Opener) {
	ctx := context.Background()
	// Turns of one session from many goroutines never overlap: each
	// begins at the revision the previous one committed.
	s := open(t, 64)
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				tx, err := s.Begin(ctx, "serial")
				if err != nil {
					t.Error(err)
					return
				}
				_, rev := tx.Checkpoint()
				key := fmt.Sprintf("w%d-%d", w, i)
				if err := tx.Commit(ctx, checkpoints.Record{Revision: rev + 1, Key: key, Data: Entry(rev+1, key)}, Doc(rev+1, key)); err != nil {
					t.Error(err)
				}
				tx.Close()
			}
		}()
	}
	wg.Wait()
	_, rev, err := s.Load(ctx, "serial")
	require.NoError(t, err)
	assert.Equal(t, uint64(60), rev, "no turn lost")
	log, err := s.Log(ctx, "serial", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 60, "one record per turn")
	for i, r := range log {
		assert.Equal(t, uint64(i+1), r.Revision)
	}
}

func testLockWaitEndsWithContext(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	held, err := s.Begin(ctx, "held")
	require.NoError(t, err)
	defer held.Close()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.Begin(cctx, "held")
	assert.ErrorIs(t, err, context.Canceled)
	wait, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() {
		_, err := s.Begin(wait, "held")
		done <- err
	}()
	other, err := s.Begin(ctx, "other")
	require.NoError(t, err, "another session's lock is free")
	other.Close()
	stop()
	assert.ErrorIs(t, <-done, context.Canceled, "a waiter gives up when its context ends")
}

func testBusySession(t *testing.T, open Opener) {
	ctx := context.Background()
	// With room for one waiter, of two more turns one waits and the
	// other is refused at once with ErrBusy; other sessions are free.
	s := open(t, 1)
	held, err := s.Begin(ctx, "hot")
	require.NoError(t, err)
	results := make(chan error, 2)
	for range 2 {
		go func() {
			tx, err := s.Begin(ctx, "hot")
			if err == nil {
				defer tx.Close()
			}
			results <- err
		}()
	}
	err = <-results
	require.ErrorIs(t, err, checkpoints.ErrBusy)
	assert.Contains(t, err.Error(), `session "hot"`)
	cold, err := s.Begin(ctx, "cold")
	require.NoError(t, err, "a hot session does not hold up others")
	cold.Close()
	held.Close()
	require.NoError(t, <-results, "the waiter gets the session")
}

func testIndexedLookup(t *testing.T, open Opener) {
	ctx := context.Background()
	// Message ids are found among many turns, in the session they
	// belong to only, and not after a delete.
	s := open(t, 0)
	const turns = 1000
	for rev := uint64(0); rev < turns; rev++ {
		key := ""
		if rev%3 == 0 {
			key = fmt.Sprintf("msg-%d", rev+1)
		}
		require.NoError(t, Turn(ctx, s, "long", rev, key, fmt.Sprint("turn ", rev+1)))
	}
	require.NoError(t, Turn(ctx, s, "other", 0, "msg-1", "other's"))
	tx, err := s.Begin(ctx, "long")
	require.NoError(t, err)
	for _, rev := range []uint64{1, 502, turns - 3} {
		rec, ok, err := tx.Lookup(ctx, fmt.Sprint("msg-", rev))
		require.NoError(t, err)
		require.True(t, ok, "msg-%d", rev)
		assert.Equal(t, rev, rec.Revision)
		assert.Equal(t, fmt.Sprint("msg-", rev), rec.Key)
		assert.JSONEq(t, string(Entry(rev, fmt.Sprint("turn ", rev))), string(rec.Data))
	}
	for _, key := range []string{"msg-2", "msg-99999", ""} {
		_, ok, err := tx.Lookup(ctx, key)
		require.NoError(t, err)
		assert.False(t, ok, "%q", key)
	}
	tx.Close()
	page, err := s.Log(ctx, "long", 500, 5)
	require.NoError(t, err)
	require.Len(t, page, 5)
	assert.Equal(t, uint64(501), page[0].Revision)
	assert.Equal(t, uint64(505), page[4].Revision)
	rest, err := s.Log(ctx, "long", turns-2, 0)
	require.NoError(t, err)
	assert.Len(t, rest, 2)
	none, err := s.Log(ctx, "nobody", 0, 0)
	require.NoError(t, err)
	assert.Empty(t, none)

	require.NoError(t, s.Delete(ctx, "long"))
	gone, err := s.Log(ctx, "long", 0, 0)
	require.NoError(t, err)
	assert.Empty(t, gone, "Delete removes the log")
	require.NoError(t, Turn(ctx, s, "long", 0, "", "new"))
	tx, err = s.Begin(ctx, "long")
	require.NoError(t, err)
	_, ok, err := tx.Lookup(ctx, "msg-1")
	require.NoError(t, err)
	assert.False(t, ok, "and its message ids")
	tx.Close()
}

func testDeletesAtScale(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	const n = 1000
	for i := range n {
		require.NoError(t, Turn(ctx, s, fmt.Sprintf("s%04d", i), 0, "k", ""))
	}
	for i := 0; i < n; i += 2 {
		require.NoError(t, s.Delete(ctx, fmt.Sprintf("s%04d", i)))
	}
	left, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	require.Len(t, left, n/2)
	assert.Equal(t, "s0001", left[0].ID)
	pruned, err := s.Prune(ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, n/2, pruned)
	left, err = s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Empty(t, left)
	log, err := s.Log(ctx, "s0001", 0, 0)
	require.NoError(t, err)
	assert.Empty(t, log)
}

func testPrune(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	require.NoError(t, Turn(ctx, s, "old", 0, "", ""))
	require.NoError(t, Turn(ctx, s, "busy", 0, "", ""))
	n, err := s.Prune(ctx, time.Now().Add(-time.Hour))
	require.NoError(t, err)
	assert.Zero(t, n, "nothing is an hour old")
	tx, err := s.Begin(ctx, "busy")
	require.NoError(t, err)
	done := make(chan int)
	go func() {
		n, err := s.Prune(ctx, time.Now().Add(time.Hour))
		assert.NoError(t, err)
		done <- n
	}()
	// Prune waits for the busy session's turn; meanwhile the turn saves.
	require.NoError(t, tx.Commit(ctx, checkpoints.Record{Revision: 2, Data: Entry(2, "")}, Doc(2, "")))
	tx.Close()
	assert.Equal(t, 2, <-done)
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Empty(t, infos)
	log, err := s.Log(ctx, "old", 0, 0)
	require.NoError(t, err)
	assert.Empty(t, log)
}

func testPrograms(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	ps, err := s.Programs(ctx)
	require.NoError(t, err)
	assert.Empty(t, ps, "a new store has no versions")
	_, _, err = s.LoadProgram(ctx, "sha256:aa")
	assert.ErrorIs(t, err, checkpoints.ErrNoProgram)
	first, err := s.SaveProgram(ctx, "sha256:aa", []byte(`{"v": 1}`))
	require.NoError(t, err)
	second, err := s.SaveProgram(ctx, "sha256:bb", []byte(`{"v": 2}`))
	require.NoError(t, err)
	again, err := s.SaveProgram(ctx, "sha256:aa", []byte(`{"v": "other bytes are ignored"}`))
	require.NoError(t, err)
	assert.True(t, again.Equal(first), "saving again keeps when it was first saved")
	assert.False(t, second.Before(first))
	b, saved, err := s.LoadProgram(ctx, "sha256:aa")
	require.NoError(t, err)
	assert.Equal(t, `{"v": 1}`, string(b), "a version's bytes never change")
	assert.True(t, saved.Equal(first))
	ps, err = s.Programs(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.Equal(t, "sha256:aa", ps[0].Version, "first saved first")
	assert.Equal(t, 8, ps[0].Size)
	assert.False(t, ps[0].Used.Before(ps[0].Saved), "used again after it was saved")
	// Concurrent saves of one version from several goroutines (as
	// replicas starting together) all succeed and agree.
	var wg sync.WaitGroup
	times := make([]time.Time, 8)
	for i := range times {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			times[i], err = s.SaveProgram(ctx, "sha256:cc", []byte(`{"v": 3}`))
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	for _, tm := range times[1:] {
		assert.True(t, tm.Equal(times[0]), "every saver learns the same first save")
	}
	require.NoError(t, s.DeleteProgram(ctx, "sha256:aa"))
	require.NoError(t, s.DeleteProgram(ctx, "sha256:aa"), "deleting twice is fine")
	_, _, err = s.LoadProgram(ctx, "sha256:aa")
	assert.ErrorIs(t, err, checkpoints.ErrNoProgram)
	for _, bad := range []string{"", "../x", "SHA256:AA", "a:b:c", ":a", strings.Repeat("a", 129)} {
		_, err := s.SaveProgram(ctx, bad, []byte("{}"))
		assert.Error(t, err, "version %q", bad)
		_, _, err = s.LoadProgram(ctx, bad)
		assert.Error(t, err, "version %q", bad)
	}
	// Sessions are not programs, and programs are not sessions.
	require.NoError(t, Turn(ctx, s, "a", 0, "", ""))
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, ids(infos))
	n, err := s.Prune(ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	ps, err = s.Programs(ctx)
	require.NoError(t, err)
	assert.Len(t, ps, 2, "Prune leaves the versions to their owner")
}

func testCanceledContext(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t, 0)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := s.Begin(cctx, "a")
	assert.ErrorIs(t, err, context.Canceled)
	_, _, err = s.Load(cctx, "a")
	assert.ErrorIs(t, err, context.Canceled)
	_, err = s.Log(cctx, "a", 0, 0)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = s.List(cctx, "", 0)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, s.Delete(cctx, "a"), context.Canceled)
	_, err = s.Prune(cctx, time.Now())
	assert.ErrorIs(t, err, context.Canceled)
	_, err = s.SaveProgram(cctx, "v1", nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, _, err = s.LoadProgram(cctx, "v1")
	assert.ErrorIs(t, err, context.Canceled)
	_, err = s.Programs(cctx)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, s.DeleteProgram(cctx, "v1"), context.Canceled)
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	defer tx.Close()
	assert.True(t, errors.Is(tx.Commit(cctx, checkpoints.Record{Revision: 1, Data: Entry(1, "")}, Doc(1, "")), context.Canceled))
}

func ids(infos []checkpoints.SessionInfo) []string {
	out := make([]string, len(infos))
	for i, in := range infos {
		out[i] = in.ID
	}
	return out
}
