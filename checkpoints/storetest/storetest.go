// Package storetest is the conformance suite of checkpoint stores: every
// [checkpoints.Journal] of soni (memory, file, sqlite, postgres) passes
// the same tests, and so should a store an embedding program writes.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// Run runs the suite. open returns a new, empty store for each subtest;
// the store must be usable concurrently.
func Run(t *testing.T, open func(t *testing.T) checkpoints.Journal) {
	ctx := context.Background()
	t.Run("Ping", func(t *testing.T) {
		s := open(t)
		_, ok := s.(checkpoints.Pinger)
		require.True(t, ok, "the store has a Ping that does not list its sessions")
		require.NoError(t, checkpoints.Ping(ctx, s), "an empty store answers")
		require.NoError(t, s.Save(ctx, "a", 0, Doc(1, "one")))
		require.NoError(t, checkpoints.Ping(ctx, s))
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		assert.Error(t, checkpoints.Ping(cancelled, s), "a cancelled context")
	})
	t.Run("LoadMissing", func(t *testing.T) {
		s := open(t)
		_, rev, err := s.Load(ctx, "nobody")
		assert.ErrorIs(t, err, checkpoints.ErrNotFound)
		assert.Zero(t, rev)
	})
	t.Run("SaveLoadDelete", func(t *testing.T) {
		s := open(t)
		require.NoError(t, s.Save(ctx, "a", 0, Doc(1, "one")))
		b, rev, err := s.Load(ctx, "a")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), rev)
		assert.Equal(t, string(Doc(1, "one")), string(b), "kept byte for byte")
		require.NoError(t, s.Save(ctx, "a", 1, Doc(2, "two")))
		require.NoError(t, s.Delete(ctx, "a"))
		_, _, err = s.Load(ctx, "a")
		assert.ErrorIs(t, err, checkpoints.ErrNotFound)
		require.NoError(t, s.Delete(ctx, "a"), "deleting a missing session is fine")
		require.NoError(t, s.Save(ctx, "a", 0, Doc(1, "again")), "a deleted session starts afresh")
	})
	t.Run("Conflict", func(t *testing.T) {
		s := open(t)
		require.NoError(t, s.Save(ctx, "a", 0, Doc(1, "x")))
		err := s.Save(ctx, "a", 0, Doc(1, "y"))
		var ce *checkpoints.ConflictError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, uint64(0), ce.Expected)
		assert.Equal(t, uint64(1), ce.Actual)
		assert.ErrorIs(t, s.Save(ctx, "a", 5, Doc(6, "z")), checkpoints.ErrConflict)
		assert.ErrorIs(t, s.Commit(ctx, "a", 0, Doc(1, "w"), checkpoints.Record{Revision: 1, Data: Entry(1, "w")}), checkpoints.ErrConflict)
		b, _, err := s.Load(ctx, "a")
		require.NoError(t, err)
		assert.Equal(t, string(Doc(1, "x")), string(b), "a lost save stores nothing")
		log, err := s.Log(ctx, "a", 0, 0)
		require.NoError(t, err)
		assert.Empty(t, log, "nor its record")
	})
	t.Run("InvalidData", func(t *testing.T) {
		s := open(t)
		assert.ErrorIs(t, s.Save(ctx, "a", 0, Doc(2, "skips one")), checkpoints.ErrInvalidData)
		assert.ErrorIs(t, s.Save(ctx, "a", 0, []byte("not json")), checkpoints.ErrInvalidData)
		assert.ErrorIs(t, s.Commit(ctx, "a", 0, Doc(1, "x"), checkpoints.Record{Revision: 2, Data: Entry(2, "x")}), checkpoints.ErrInvalidData)
		_, _, err := s.Load(ctx, "a")
		assert.ErrorIs(t, err, checkpoints.ErrNotFound)
	})
	t.Run("HostileIDs", func(t *testing.T) {
		s := open(t)
		for _, id := range []string{"", ".", "..", "../x", "a/b", `a\b`, "x\x00y", strings.Repeat("a", 129), "ü", "a b"} {
			var ie *checkpoints.InvalidIDError
			_, _, err := s.Load(ctx, id)
			assert.ErrorAs(t, err, &ie, "Load %q", id)
			assert.ErrorAs(t, s.Save(ctx, id, 0, Doc(1, "")), &ie, "Save %q", id)
			assert.ErrorAs(t, s.Commit(ctx, id, 0, Doc(1, ""), checkpoints.Record{Revision: 1, Data: Entry(1, "")}), &ie, "Commit %q", id)
			assert.ErrorAs(t, s.Delete(ctx, id), &ie, "Delete %q", id)
			_, err = s.Log(ctx, id, 0, 0)
			assert.ErrorAs(t, err, &ie, "Log %q", id)
			_, _, err = s.Lookup(ctx, id, "k")
			assert.ErrorAs(t, err, &ie, "Lookup %q", id)
			_, err = s.Lock(ctx, id)
			assert.ErrorAs(t, err, &ie, "Lock %q", id)
		}
		ids, err := s.List(ctx)
		require.NoError(t, err)
		assert.Empty(t, ids)
	})
	t.Run("ManySessions", func(t *testing.T) {
		s := open(t)
		var want []string
		for i := 0; i < 60; i++ {
			id := fmt.Sprintf("s%03d", i)
			want = append(want, id)
			require.NoError(t, s.Commit(ctx, id, 0, Doc(1, id), checkpoints.Record{Revision: 1, Data: Entry(1, id)}))
		}
		ids, err := s.List(ctx)
		require.NoError(t, err)
		assert.Equal(t, want, ids)
		infos, err := s.Sessions(ctx)
		require.NoError(t, err)
		require.Len(t, infos, 60)
		assert.Equal(t, "s000", infos[0].ID)
		assert.Equal(t, uint64(1), infos[0].Revision)
		assert.False(t, infos[0].Updated.IsZero())
	})
	t.Run("LargeCheckpoint", func(t *testing.T) {
		s := open(t)
		big := Doc(1, strings.Repeat("x", 4<<20))
		require.NoError(t, s.Save(ctx, "big", 0, big))
		b, _, err := s.Load(ctx, "big")
		require.NoError(t, err)
		assert.Equal(t, len(big), len(b))
		assert.Equal(t, string(big), string(b))
	})
	t.Run("ConcurrentSavers", func(t *testing.T) {
		// Many writers race on one session with plain compare-and-swap:
		// every win is one revision, and nothing is lost or doubled.
		s := open(t)
		var wins atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 20; i++ {
					_, rev, err := s.Load(ctx, "hot")
					if err != nil && !errors.Is(err, checkpoints.ErrNotFound) {
						t.Error(err)
						return
					}
					err = s.Commit(ctx, "hot", rev, Doc(rev+1, "w"), checkpoints.Record{Revision: rev + 1, Data: Entry(rev+1, "w")})
					switch {
					case err == nil:
						wins.Add(1)
					case !errors.Is(err, checkpoints.ErrConflict):
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		_, rev, err := s.Load(ctx, "hot")
		require.NoError(t, err)
		assert.Equal(t, uint64(wins.Load()), rev)
		log, err := s.Log(ctx, "hot", 0, 0)
		require.NoError(t, err)
		assert.Len(t, log, int(rev), "one record per saved turn")
	})
	t.Run("LockedTurnsAreSerial", func(t *testing.T) {
		// With the turn lock, no turn loses: load, think, save.
		s := open(t)
		var wg sync.WaitGroup
		for w := 0; w < 6; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					unlock, err := s.Lock(ctx, "serial")
					if err != nil {
						t.Error(err)
						return
					}
					_, rev, err := s.Load(ctx, "serial")
					if err != nil && !errors.Is(err, checkpoints.ErrNotFound) {
						t.Error(err)
					}
					if err := s.Commit(ctx, "serial", rev, Doc(rev+1, ""), checkpoints.Record{Revision: rev + 1, Data: Entry(rev+1, "")}); err != nil {
						t.Error(err)
					}
					unlock()
				}
			}()
		}
		wg.Wait()
		_, rev, err := s.Load(ctx, "serial")
		require.NoError(t, err)
		assert.Equal(t, uint64(60), rev)
	})
	t.Run("LockWaitEndsWithContext", func(t *testing.T) {
		s := open(t)
		unlock, err := s.Lock(ctx, "held")
		require.NoError(t, err)
		defer unlock()
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err = s.Lock(cctx, "held")
		assert.ErrorIs(t, err, context.Canceled)
		other, err := s.Lock(ctx, "other")
		require.NoError(t, err, "another session's lock is free")
		other()
	})
	t.Run("EventLog", func(t *testing.T) {
		s := open(t)
		for rev := uint64(1); rev <= 5; rev++ {
			key := ""
			if rev == 3 {
				key = "msg-3"
			}
			require.NoError(t, s.Commit(ctx, "log", rev-1, Doc(rev, ""), checkpoints.Record{Revision: rev, Key: key, Data: Entry(rev, "turn "+strconv.Itoa(int(rev)))}))
		}
		all, err := s.Log(ctx, "log", 0, 0)
		require.NoError(t, err)
		require.Len(t, all, 5)
		assert.Equal(t, uint64(1), all[0].Revision)
		assert.JSONEq(t, string(Entry(1, "turn 1")), string(all[0].Data))
		page, err := s.Log(ctx, "log", 2, 2)
		require.NoError(t, err)
		require.Len(t, page, 2)
		assert.Equal(t, []uint64{3, 4}, []uint64{page[0].Revision, page[1].Revision})
		rec, ok, err := s.Lookup(ctx, "log", "msg-3")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, uint64(3), rec.Revision)
		assert.Equal(t, "msg-3", rec.Key)
		_, ok, err = s.Lookup(ctx, "log", "msg-9")
		require.NoError(t, err)
		assert.False(t, ok)
		_, ok, err = s.Lookup(ctx, "other", "msg-3")
		require.NoError(t, err)
		assert.False(t, ok, "keys belong to their session")
		none, err := s.Log(ctx, "nobody", 0, 0)
		require.NoError(t, err)
		assert.Empty(t, none)
		require.NoError(t, s.Delete(ctx, "log"))
		gone, err := s.Log(ctx, "log", 0, 0)
		require.NoError(t, err)
		assert.Empty(t, gone, "Delete removes the log")
		_, ok, err = s.Lookup(ctx, "log", "msg-3")
		require.NoError(t, err)
		assert.False(t, ok, "and the keys")
	})
	t.Run("Prune", func(t *testing.T) {
		s := open(t)
		require.NoError(t, s.Commit(ctx, "old", 0, Doc(1, ""), checkpoints.Record{Revision: 1, Data: Entry(1, "")}))
		require.NoError(t, s.Commit(ctx, "busy", 0, Doc(1, ""), checkpoints.Record{Revision: 1, Data: Entry(1, "")}))
		n, err := s.Prune(ctx, time.Now().Add(-time.Hour))
		require.NoError(t, err)
		assert.Zero(t, n, "nothing is an hour old")
		unlock, err := s.Lock(ctx, "busy")
		require.NoError(t, err)
		done := make(chan int)
		go func() {
			n, err := s.Prune(ctx, time.Now().Add(time.Hour))
			assert.NoError(t, err)
			done <- n
		}()
		// Prune waits for the busy session's turn; meanwhile the turn saves.
		require.NoError(t, s.Commit(ctx, "busy", 1, Doc(2, ""), checkpoints.Record{Revision: 2, Data: Entry(2, "")}))
		unlock()
		assert.Equal(t, 2, <-done)
		ids, err := s.List(ctx)
		require.NoError(t, err)
		assert.Empty(t, ids)
		log, err := s.Log(ctx, "old", 0, 0)
		require.NoError(t, err)
		assert.Empty(t, log)
	})
	t.Run("CanceledContext", func(t *testing.T) {
		s := open(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, _, err := s.Load(cctx, "a")
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, s.Save(cctx, "a", 0, Doc(1, "")), context.Canceled)
		assert.ErrorIs(t, s.Commit(cctx, "a", 0, Doc(1, ""), checkpoints.Record{Revision: 1, Data: Entry(1, "")}), context.Canceled)
	})
}
