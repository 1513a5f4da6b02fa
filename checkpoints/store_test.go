package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storeMaker builds a fresh, empty store for one test.
type storeMaker func(t *testing.T) Store

// makers lists every store the conformance suite runs against.
func makers() map[string]storeMaker {
	return map[string]storeMaker{
		"memory": func(*testing.T) Store { return NewMemoryStore() },
		"file": func(t *testing.T) Store {
			s, err := NewFileStore(t.TempDir() + "/checkpoints")
			require.NoError(t, err)
			return s
		},
		"file-nosync": func(t *testing.T) Store {
			s, err := NewFileStore(t.TempDir()+"/checkpoints", WithoutSync())
			require.NoError(t, err)
			return s
		},
	}
}

// doc returns checkpoint bytes at revision rev with a note.
func doc(rev uint64, note string) []byte {
	return fmt.Appendf(nil, `{"format":"test","revision":%d,"note":%q}`, rev, note)
}

// forEachStore runs f as a subtest for every store kind.
func forEachStore(t *testing.T, f func(t *testing.T, s Store)) {
	for _, name := range []string{"memory", "file", "file-nosync"} {
		mk := makers()[name]
		t.Run(name, func(t *testing.T) {
			if name != "memory" && !lockSupported {
				t.Skip("FileStore needs flock(2)")
			}
			f(t, mk(t))
		})
	}
}

func TestConformanceLoadMissing(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		data, rev, err := s.Load(context.Background(), "nobody")
		require.ErrorIs(t, err, ErrNotFound)
		assert.Contains(t, err.Error(), `"nobody"`)
		assert.Nil(t, data)
		assert.Zero(t, rev)
	})
}

func TestConformanceSaveLoad(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		require.NoError(t, s.Save(ctx, "alice", 0, doc(1, "first")))
		data, rev, err := s.Load(ctx, "alice")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), rev)
		assert.Equal(t, doc(1, "first"), data)

		require.NoError(t, s.Save(ctx, "alice", 1, doc(2, "second")))
		data, rev, err = s.Load(ctx, "alice")
		require.NoError(t, err)
		assert.Equal(t, uint64(2), rev)
		assert.Equal(t, doc(2, "second"), data)
	})
}

func TestConformanceConflict(t *testing.T) {
	cases := []struct {
		name     string
		stored   uint64 // revisions saved before; 0 = none
		expected uint64
		msg      string
	}{
		{"create over existing", 1, 0, `session "s" was expected at revision 0 but it already exists at revision 1`},
		{"stale revision", 3, 2, `session "s" was expected at revision 2 but it is at revision 3`},
		{"future revision", 1, 5, `session "s" was expected at revision 5 but it is at revision 1`},
		{"update of missing", 0, 1, `session "s" was expected at revision 1 but it does not exist`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, s Store) {
				ctx := context.Background()
				for r := uint64(1); r <= tc.stored; r++ {
					require.NoError(t, s.Save(ctx, "s", r-1, doc(r, "kept")))
				}
				err := s.Save(ctx, "s", tc.expected, doc(tc.expected+1, "lost"))
				require.ErrorIs(t, err, ErrConflict)
				var ce *ConflictError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, ConflictError{Session: "s", Expected: tc.expected, Actual: tc.stored}, *ce)
				assert.Contains(t, err.Error(), tc.msg)

				// Nothing was lost or changed.
				data, rev, err := s.Load(ctx, "s")
				if tc.stored == 0 {
					require.ErrorIs(t, err, ErrNotFound)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tc.stored, rev)
				assert.Equal(t, doc(tc.stored, "kept"), data)
			})
		})
	}
}

func TestConformanceDelete(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		require.NoError(t, s.Delete(ctx, "never-saved"), "deleting a missing session is not an error")
		require.NoError(t, s.Save(ctx, "bob", 0, doc(1, "x")))
		require.NoError(t, s.Save(ctx, "carol", 0, doc(1, "y")))
		require.NoError(t, s.Delete(ctx, "bob"))
		_, _, err := s.Load(ctx, "bob")
		require.ErrorIs(t, err, ErrNotFound)
		require.NoError(t, s.Delete(ctx, "bob"), "deleting twice is not an error")

		// The other session is untouched and the deleted one starts afresh.
		_, rev, err := s.Load(ctx, "carol")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), rev)
		require.NoError(t, s.Save(ctx, "bob", 0, doc(1, "again")))
		ids, err := s.List(ctx)
		require.NoError(t, err)
		assert.Equal(t, []string{"bob", "carol"}, ids)
	})
}

func TestConformanceList(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		ids, err := s.List(ctx)
		require.NoError(t, err)
		assert.NotNil(t, ids)
		assert.Empty(t, ids)

		for _, id := range []string{"zed", "Alpha", "a.b", "_x", "-dash", "9", "alpha", ".hidden"} {
			require.NoError(t, s.Save(ctx, id, 0, doc(1, id)))
		}
		ids, err = s.List(ctx)
		require.NoError(t, err)
		assert.Equal(t, []string{"-dash", ".hidden", "9", "Alpha", "_x", "a.b", "alpha", "zed"}, ids)
	})
}

func TestConformanceCopies(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		buf := doc(1, "original")
		want := doc(1, "original")
		require.NoError(t, s.Save(ctx, "c", 0, buf))
		copy(buf[len(buf)-10:], "XXXXXXXXXX") // the caller reuses its buffer

		got, _, err := s.Load(ctx, "c")
		require.NoError(t, err)
		assert.Equal(t, want, got)
		for i := range got { // the caller scribbles on what it loaded
			got[i] = 'Z'
		}
		again, _, err := s.Load(ctx, "c")
		require.NoError(t, err)
		assert.Equal(t, want, again)
	})
}

func TestConformanceInvalidData(t *testing.T) {
	cases := []struct {
		name     string
		expected uint64
		data     string
		msg      string
	}{
		{"empty", 0, "", "it is empty"},
		{"blank", 0, " \n\t", "it is empty"},
		{"not json", 0, "revision: 1", "not valid JSON"},
		{"truncated", 0, `{"revision":1,"a":`, "not valid JSON"},
		{"trailing garbage", 0, `{"revision":1} {}`, "not valid JSON"},
		{"array", 0, `[{"revision":1}]`, "it is a JSON array, not an object"},
		{"string", 0, `"revision"`, "it is a JSON string, not an object"},
		{"null", 0, `null`, "it is JSON null, not an object"},
		{"no revision", 0, `{"rev":1}`, `no top-level "revision" field`},
		{"nested revision only", 0, `{"state":{"revision":1}}`, `no top-level "revision" field`},
		{"string revision", 0, `{"revision":"1"}`, `its "revision" is "\"1\""`},
		{"float revision", 0, `{"revision":1.0}`, `its "revision" is "1.0"`},
		{"exponent revision", 0, `{"revision":1e0}`, `its "revision" is "1e0"`},
		{"negative revision", 0, `{"revision":-1}`, `its "revision" is "-1"`},
		{"zero revision", 0, `{"revision":0}`, `its "revision" is "0"`},
		{"overflowing revision", 0, `{"revision":18446744073709551616}`, `not an integer of at least 1`},
		{"revision not next", 0, `{"revision":2}`, "its revision is 2 but saving over revision 0 must write revision 1"},
		{"revision repeated", 1, `{"revision":1}`, "its revision is 1 but saving over revision 1 must write revision 2"},
		{"expected at the maximum", ^uint64(0), `{"revision":18446744073709551615}`, "must write revision"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, s Store) {
				err := s.Save(context.Background(), "d", tc.expected, []byte(tc.data))
				require.ErrorIs(t, err, ErrInvalidData)
				assert.Contains(t, err.Error(), `session "d"`)
				assert.Contains(t, err.Error(), tc.msg)
				_, _, err = s.Load(context.Background(), "d")
				require.ErrorIs(t, err, ErrNotFound, "nothing is stored")
			})
		})
	}
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

func TestConformanceInvalidIDs(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		for _, tc := range badIDs {
			var ie *InvalidIDError
			_, _, err := s.Load(ctx, tc.id)
			assert.ErrorAs(t, err, &ie, "Load %q", tc.id)
			err = s.Save(ctx, tc.id, 0, doc(1, "x"))
			assert.ErrorAs(t, err, &ie, "Save %q", tc.id)
			err = s.Delete(ctx, tc.id)
			assert.ErrorAs(t, err, &ie, "Delete %q", tc.id)
		}
		ids, err := s.List(ctx)
		require.NoError(t, err)
		assert.Empty(t, ids)
	})
}

func TestConformanceCanceledContext(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		require.NoError(t, s.Save(context.Background(), "k", 0, doc(1, "x")))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, _, err := s.Load(ctx, "k")
		require.ErrorIs(t, err, context.Canceled)
		require.ErrorIs(t, s.Save(ctx, "k", 1, doc(2, "x")), context.Canceled)
		require.ErrorIs(t, s.Delete(ctx, "k"), context.Canceled)
		_, err = s.List(ctx)
		require.ErrorIs(t, err, context.Canceled)

		_, rev, err := s.Load(context.Background(), "k")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), rev, "nothing changed")
	})
}

// TestConformanceRace has goroutines race to save over the same revision:
// exactly one wins each round and the others get a ConflictError naming the
// winner's revision.
func TestConformanceRace(t *testing.T) {
	const racers = 8
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		for round := range uint64(rounds) {
			start := make(chan struct{})
			errs := make([]error, racers)
			var wg sync.WaitGroup
			for g := range racers {
				wg.Go(func() {
					<-start
					errs[g] = s.Save(ctx, "race", round, doc(round+1, fmt.Sprint("racer ", g)))
				})
			}
			close(start)
			wg.Wait()

			winner := -1
			for g, err := range errs {
				if err == nil {
					require.Equal(t, -1, winner, "round %d: racers %d and %d both won", round, winner, g)
					winner = g
					continue
				}
				var ce *ConflictError
				require.ErrorAs(t, err, &ce, "round %d racer %d", round, g)
				assert.Equal(t, ConflictError{Session: "race", Expected: round, Actual: round + 1}, *ce)
			}
			require.NotEqual(t, -1, winner, "round %d: nobody won", round)
			data, rev, err := s.Load(ctx, "race")
			require.NoError(t, err)
			require.Equal(t, round+1, rev)
			require.Equal(t, doc(round+1, fmt.Sprint("racer ", winner)), data, "the winner's bytes are stored")
		}
	})
}

// TestConformanceNoLostUpdates has goroutines increment one session with a
// load, save, retry-on-conflict loop: with a working compare-and-swap the
// final revision counts every increment.
func TestConformanceNoLostUpdates(t *testing.T) {
	const workers, each = 4, 25
	forEachStore(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Go(func() {
				for range each {
					if err := increment(ctx, s, "counter", fmt.Sprint("worker ", w)); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		_, rev, err := s.Load(ctx, "counter")
		require.NoError(t, err)
		assert.Equal(t, uint64(workers*each), rev)
	})
}

// increment adds one revision to the session, retrying lost races.
func increment(ctx context.Context, s Store, id, note string) error {
	for {
		_, rev, err := s.Load(ctx, id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		err = s.Save(ctx, id, rev, doc(rev+1, note))
		if !errors.Is(err, ErrConflict) {
			return err
		}
	}
}

func TestRevision(t *testing.T) {
	cases := []struct {
		data string
		want uint64
	}{
		{`{"revision":1}`, 1},
		{` {"a":[1,2],"revision":42,"b":{"revision":7}} `, 42},
		{`{"revision":18446744073709551615}`, 18446744073709551615},
		{`{"revision":1,"revision":3}`, 3}, // the last duplicate wins, as in encoding/json
	}
	for _, tc := range cases {
		got, err := Revision([]byte(tc.data))
		require.NoError(t, err, tc.data)
		assert.Equal(t, tc.want, got, tc.data)
	}
}

func TestErrorMessages(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&ConflictError{Session: "s", Expected: 2, Actual: 3},
			`checkpoint conflict: session "s" was expected at revision 2 but it is at revision 3 (saved by another process or turn?); reload it and try again`},
		{&CorruptError{Path: "dir/s.json", Err: errors.New("it is empty, not a JSON object")},
			`checkpoint "dir/s.json" is corrupt: it is empty, not a JSON object; it was left untouched: inspect or remove it, or start the session afresh with --reset`},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, tc.err.Error())
	}
	inner := errors.New("inner")
	ce := &CorruptError{Path: "p", Err: inner}
	assert.ErrorIs(t, ce, inner)
	assert.ErrorIs(t, ce, ErrCorrupt)
	assert.NotErrorIs(t, ce, ErrConflict)
	assert.NotErrorIs(t, &ConflictError{}, ErrCorrupt)
}

// TestMemoryLoadShared: LoadShared lends the stored bytes without a copy,
// and a later save stores new bytes, so what was lent never changes.
func TestMemoryLoadShared(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	_, _, err := s.LoadShared(ctx, "a")
	require.ErrorIs(t, err, ErrNotFound)
	first := []byte(`{"revision": 1}`)
	require.NoError(t, s.Save(ctx, "a", 0, first))
	first[2] = 'X' // the caller's buffer is the caller's: the store copied it
	lent, rev, err := s.LoadShared(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)
	assert.Equal(t, `{"revision": 1}`, string(lent))
	again, _, _ := s.LoadShared(ctx, "a")
	assert.Same(t, &lent[0], &again[0], "no copy")
	require.NoError(t, s.Save(ctx, "a", 1, []byte(`{"revision": 2}`)))
	assert.Equal(t, `{"revision": 1}`, string(lent), "what was lent is never changed")
	_, _, err = s.LoadShared(ctx, "../x")
	assert.Error(t, err)
}
