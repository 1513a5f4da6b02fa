package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doc returns checkpoint bytes at revision rev with a note.
func doc(rev uint64, note string) []byte {
	return fmt.Appendf(nil, `{"format":"test","revision":%d,"note":%q}`, rev, note)
}

// turn commits revision rev+1 of the session in one transaction, which
// must find it at revision rev.
func turn(ctx context.Context, s Store, id string, rev uint64, key, note string) error {
	tx, err := s.Begin(ctx, id)
	if err != nil {
		return err
	}
	defer tx.Close()
	if _, got := tx.Checkpoint(); got != rev {
		return fmt.Errorf("session %q is at revision %d, not %d", id, got, rev)
	}
	return tx.Commit(ctx, Record{Revision: rev + 1, Key: key, Data: fmt.Appendf(nil, `{"note":%q}`, note)}, doc(rev+1, note))
}

// badIDs are ids every method must refuse, with the problem each error names.
var badIDs = []struct {
	id, problem string
}{
	{"", "it is empty"},
	{".", "it is a path, not a name"},
	{"..", "it is a path, not a name"},
	{"../../etc/passwd", `it contains '/'`},
	{"a/b", `it contains '/'`},
	{"/abs", `it contains '/'`},
	{`a\b`, `it contains '\\'`},
	{"a b", `it contains ' '`},
	{"a\x00b", `it contains '\x00'`},
	{"a\nb", `it contains '\n'`},
	{"café", `it contains 'é'`},
	{"日本", `it contains '日'`},
	{"\xff", `it contains '�'`},
	{"a:b", `it contains ':'`},
	{"*", `it contains '*'`},
	{strings.Repeat("x", MaxIDLength+1), "it is 129 bytes long"},
}

func TestValidateID(t *testing.T) {
	for _, tc := range badIDs {
		t.Run(fmt.Sprintf("%q", tc.id), func(t *testing.T) {
			err := ValidateID(tc.id)
			var ie *InvalidIDError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tc.id, ie.ID)
			assert.Equal(t, fmt.Sprintf("invalid session id %q: %s; a session id is 1 to 128 characters from A-Z, a-z, 0-9, '.', '_' and '-', and is not \".\" or \"..\"", tc.id, tc.problem), err.Error())
		})
	}
	for _, id := range []string{"a", "default", "A-Z_a-z.0-9", "...", ".x", "x.", "-", "_", "a..b", strings.Repeat("y", MaxIDLength)} {
		assert.NoError(t, ValidateID(id), id)
	}
}

func TestErrorMessages(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&ConflictError{Session: "s", Expected: 2, Actual: 3},
			`checkpoint conflict: session "s" was expected at revision 2 but it is at revision 3: another writer saved it without taking its lock; nothing of this turn was saved`},
		{&CorruptError{Path: "dir/s.json", Err: errors.New("it is empty, not a JSON object")},
			`checkpoint "dir/s.json" is corrupt: it is empty, not a JSON object; it was left untouched`},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, tc.err.Error())
		assert.NotContains(t, tc.err.Error(), "--", "a library error gives no command-line advice")
	}
	inner := errors.New("inner")
	ce := &CorruptError{Path: "p", Err: inner}
	assert.ErrorIs(t, ce, inner)
	assert.ErrorIs(t, ce, ErrCorrupt)
	assert.NotErrorIs(t, ce, ErrConflict)
	assert.NotErrorIs(t, &ConflictError{}, ErrCorrupt)
}

// TestMemoryLendsBytes: Begin and Load lend the stored bytes without a
// copy, and a later commit stores new bytes, so what was lent never
// changes; the caller's buffer is copied on commit.
func TestMemoryLendsBytes(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	first := []byte(`{"revision": 1}`)
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx, Record{Revision: 1, Data: []byte(`{}`)}, first))
	tx.Close()
	first[2] = 'X' // the caller's buffer is the caller's: the store copied it
	lent, rev, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)
	assert.Equal(t, `{"revision": 1}`, string(lent))
	tx, err = s.Begin(ctx, "a")
	require.NoError(t, err)
	again, _ := tx.Checkpoint()
	assert.Same(t, &lent[0], &again[0], "no copy")
	require.NoError(t, tx.Commit(ctx, Record{Revision: 2, Data: []byte(`{}`)}, []byte(`{"revision": 2}`)))
	tx.Close()
	assert.Equal(t, `{"revision": 1}`, string(lent), "what was lent is never changed")
}

// TestMemoryEncodesRecordsAtCommit: a memory store encodes a record given
// as a value at commit, as the other stores do (a server's memory store
// then holds its logs as bytes), and one made WithRecordValues keeps the
// value until the record is read.
func TestMemoryEncodesRecordsAtCommit(t *testing.T) {
	ctx := context.Background()
	value := map[string]any{"replies": []string{"hi"}}
	for _, tc := range []struct {
		name  string
		store *MemoryStore
		kept  bool
	}{
		{"default", NewMemoryStore(), false},
		{"WithRecordValues", NewMemoryStore(WithRecordValues()), true},
	} {
		tx, err := tc.store.Begin(ctx, "a")
		require.NoError(t, err)
		require.NoError(t, tx.Commit(ctx, Record{Revision: 1, Key: "m1", Value: value}, []byte(`{}`)))
		tx.Close()
		rec := tc.store.sessions["a"].log[0]
		assert.Equal(t, tc.kept, rec.Value != nil, tc.name)
		if !tc.kept {
			assert.JSONEq(t, `{"replies":["hi"]}`, string(rec.Data), tc.name)
		}
		// Read, it is the same JSON either way.
		tx, err = tc.store.Begin(ctx, "a")
		require.NoError(t, err)
		got, ok, err := tx.Lookup(ctx, "m1")
		require.NoError(t, err)
		require.True(t, ok)
		assert.JSONEq(t, `{"replies":["hi"]}`, string(got.Data), tc.name)
		tx.Close()
	}
	// A value that is no JSON fails the commit, as in every other store.
	tx, err := NewMemoryStore().Begin(ctx, "b")
	require.NoError(t, err)
	defer tx.Close()
	err = tx.Commit(ctx, Record{Revision: 1, Value: map[string]any{"x": make(chan int)}}, []byte(`{}`))
	assert.ErrorIs(t, err, ErrInvalidData)
}

// TestMemoryMaxSessions: a bounded memory store evicts the session saved
// least recently, never one a transaction holds (issue 20: memory:
// grew without bound).
func TestMemoryMaxSessions(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(WithMaxSessions(3))
	for _, id := range []string{"a", "b", "c"} {
		require.NoError(t, turn(ctx, s, id, 0, "", id))
	}
	require.NoError(t, turn(ctx, s, "a", 1, "", "a again")) // b is now the oldest
	held, err := s.Begin(ctx, "b")
	require.NoError(t, err)
	require.NoError(t, turn(ctx, s, "d", 0, "", "d"))
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "d"}, idsOf(infos), "c went: b is held")
	require.NoError(t, held.Commit(ctx, Record{Revision: 2, Data: []byte(`{}`)}, doc(2, "b")))
	held.Close()
	require.NoError(t, turn(ctx, s, "e", 0, "", "e"))
	infos, err = s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "d", "e"}, idsOf(infos), "then a, the least recently saved")
	log, err := s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	assert.Empty(t, log, "with its log")

	unbounded := NewMemoryStore()
	for i := range 50 {
		require.NoError(t, turn(ctx, unbounded, fmt.Sprint("s", i), 0, "", ""))
	}
	infos, err = unbounded.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Len(t, infos, 50)
}

func idsOf(infos []SessionInfo) []string {
	out := []string{}
	for _, in := range infos {
		out = append(out, in.ID)
	}
	return out
}

// TestQueue: the holder of a session's place excludes the others; at most
// maxWaiting wait, the next is refused with ErrBusy at once; a waiter that
// gives up leaves no trace; places of other sessions are free.
func TestQueue(t *testing.T) {
	ctx := context.Background()
	q := NewQueue(2)
	held, err := q.Acquire(ctx, "s")
	require.NoError(t, err)
	var wg sync.WaitGroup
	got := make(chan error, 3)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t, err := q.Acquire(ctx, "s")
			if err == nil {
				t.Release()
			}
			got <- err
		}()
	}
	err = <-got // two wait, one is refused
	require.ErrorIs(t, err, ErrBusy)
	assert.Equal(t, `session busy: session "s" already has 2 turns waiting in this process (the limit); send the message again later`, err.Error())
	other, err := q.Acquire(ctx, "t")
	require.NoError(t, err)
	other.Release()
	held.Release()
	wg.Wait()
	require.NoError(t, <-got)
	require.NoError(t, <-got)
	assert.False(t, q.Held("s"), "the last release forgets the session")

	held, err = q.Acquire(ctx, "s")
	require.NoError(t, err)
	gone, cancel := context.WithCancel(ctx)
	cancel()
	_, err = q.Acquire(gone, "s")
	require.ErrorIs(t, err, context.Canceled)
	held.Release()
	held.Release() // twice does nothing
	assert.False(t, q.Held("s"))
	assert.Equal(t, DefaultMaxWaiting, NewQueue(0).maxWaiting)
}

// TestQueueCountsWaiters: Waiting counts the turns that wait for a
// session's place besides its holder, and OnWait tells each one that
// joins them before it blocks, so that a test can know turns are queued
// without sleeping.
func TestQueueCountsWaiters(t *testing.T) {
	q := NewQueue(2)
	joined := make(chan int, 2)
	q.OnWait(func(id string, n int) {
		assert.Equal(t, "s", id)
		joined <- n
	})
	ctx := context.Background()
	held, err := q.Acquire(ctx, "s")
	require.NoError(t, err)
	assert.Zero(t, q.Waiting("s"), "a holder is not a waiter")
	got := make(chan error, 2)
	for range 2 {
		go func() {
			tk, err := q.Acquire(ctx, "s")
			tk.Release()
			got <- err
		}()
	}
	next := func() int {
		select {
		case n := <-joined:
			return n
		case <-time.After(time.Minute): // a guard on a hang, not a measure
			t.Fatal("a turn waits and the hook was not told")
			return 0
		}
	}
	assert.ElementsMatch(t, []int{1, 2}, []int{next(), next()})
	assert.Equal(t, 2, q.Waiting("s"))
	assert.Zero(t, q.Waiting("other"))
	held.Release()
	require.NoError(t, <-got)
	require.NoError(t, <-got)
	assert.Zero(t, q.Waiting("s"))
	assert.False(t, q.Held("s"))
}

// TestObserve: the observed store reports every operation of the store
// and of its transactions, with its error, and behaves as the store.
func TestObserve(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var ops []string
	s := Observe(NewMemoryStore(), func(op string, d time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			op += " error"
		}
		ops = append(ops, op)
	})
	require.NoError(t, turn(ctx, s, "a", 0, "k", ""))
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	_, ok, err := tx.Lookup(ctx, "k")
	require.NoError(t, err)
	assert.True(t, ok)
	tx.Close()
	_, _, err = s.Load(ctx, "a")
	require.NoError(t, err)
	_, err = s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	_, err = s.List(ctx, "", 0)
	require.NoError(t, err)
	require.NoError(t, s.Ping(ctx))
	require.NoError(t, s.Delete(ctx, "a"))
	_, err = s.Prune(ctx, time.Now())
	require.NoError(t, err)
	_, err = s.Begin(ctx, "../x")
	require.Error(t, err)
	require.NoError(t, s.Close())
	assert.Equal(t, []string{"begin", "commit", "begin", "lookup", "load", "log", "list", "ping", "delete", "prune", "begin error"}, ops)
}
