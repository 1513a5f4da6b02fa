//go:build unix

package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newFileStore(t *testing.T, opts ...Option) *FileStore {
	t.Helper()
	s, err := NewFileStore(filepath.Join(t.TempDir(), "cp"), opts...)
	require.NoError(t, err)
	return s
}

// dirNames returns the sorted names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestNewFileStore(t *testing.T) {
	_, err := NewFileStore("")
	require.EqualError(t, err, "checkpoint directory is empty")

	file := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	_, err = NewFileStore(file)
	require.EqualError(t, err, `checkpoint directory "`+file+`" is not a directory`)

	s, err := NewFileStore(filepath.Join(t.TempDir(), "a", "..", "b") + "/")
	require.NoError(t, err)
	assert.Equal(t, "b", filepath.Base(s.Dir()))
	p, err := s.Path("sess")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(s.Dir(), "sess.json"), p)
	_, err = s.Path("../x")
	var ie *InvalidIDError
	require.ErrorAs(t, err, &ie)
}

func TestFileStoreCreatesDirLazily(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	_, _, err := s.Load(ctx, "a")
	require.ErrorIs(t, err, ErrNotFound)
	ids, err := s.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, ids)
	require.NoError(t, s.Delete(ctx, "a"))
	_, err = os.Stat(s.Dir())
	require.ErrorIs(t, err, fs.ErrNotExist, "only Save creates the directory")

	require.NoError(t, s.Save(ctx, "a", 0, doc(1, "x")))
	fi, err := os.Stat(s.Dir())
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	assert.Equal(t, fs.FileMode(0o755&^umask), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(s.Dir(), "a.json"))
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm(), "checkpoints hold conversations: owner only")
	assert.Equal(t, []string{"a.json", "a.lock"}, dirNames(t, s.Dir()), "no temporary file is left behind")
}

func TestFileStoreNestedDir(t *testing.T) {
	s, err := NewFileStore(filepath.Join(t.TempDir(), ".soni", "checkpoints"))
	require.NoError(t, err)
	require.NoError(t, s.Save(context.Background(), "default", 0, doc(1, "x")))
	_, rev, err := s.Load(context.Background(), "default")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)
}

// TestFileStoreCorrupt writes broken files and checks that every method
// reports them naming the file, and that Save leaves the bytes alone.
func TestFileStoreCorrupt(t *testing.T) {
	cases := []struct {
		name, content, reason string
	}{
		{"empty", "", "it is empty, not a JSON object"},
		{"blank", "\n\n", "it is empty, not a JSON object"},
		{"truncated", `{"format":"soni.checkpoint/v1","revision":3,"slots":{"a":`, "it is not valid JSON: unexpected end of JSON input"},
		{"not json", "revision = 3\n", "it is not valid JSON"},
		{"binary", "\x00\x01\x02\xff", "it is not valid JSON"},
		{"array", `[1,2]`, "it is a JSON array, not an object"},
		{"null", `null`, "it is JSON null, not an object"},
		{"no revision", `{"format":"soni.checkpoint/v1"}`, `it has no top-level "revision" field`},
		{"string revision", `{"revision":"3"}`, `its "revision" is "\"3\"", not an integer of at least 1`},
		{"zero revision", `{"revision":0}`, `its "revision" is "0", not an integer of at least 1`},
		{"two documents", `{"revision":3}{"revision":4}`, "it is not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := newFileStore(t)
			require.NoError(t, os.MkdirAll(s.Dir(), 0o755))
			path := filepath.Join(s.Dir(), "broken.json")
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o600))

			check := func(err error) {
				t.Helper()
				var ce *CorruptError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, path, ce.Path)
				assert.ErrorIs(t, err, ErrCorrupt)
				assert.Contains(t, err.Error(), `checkpoint "`+path+`" is corrupt: `+tc.reason)
				assert.Contains(t, err.Error(), "--reset")
			}
			_, _, err := s.Load(ctx, "broken")
			check(err)
			for _, expected := range []uint64{0, 1, 3, 4} {
				check(s.Save(ctx, "broken", expected, doc(expected+1, "overwrite")))
			}
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tc.content, string(got), "a corrupt checkpoint is never overwritten")

			ids, err := s.List(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{"broken"}, ids, "a corrupt session is still listed")

			// Delete is the explicit reset: afterwards the session starts afresh.
			require.NoError(t, s.Delete(ctx, "broken"))
			require.NoError(t, s.Save(ctx, "broken", 0, doc(1, "fresh")))
		})
	}
}

func TestFileStoreNotARegularFile(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, os.MkdirAll(filepath.Join(s.Dir(), "d.json"), 0o755))
	_, _, err := s.Load(ctx, "d")
	require.ErrorContains(t, err, `checkpoint "`+filepath.Join(s.Dir(), "d.json")+`" is not a regular file`)
	require.ErrorContains(t, s.Save(ctx, "d", 0, doc(1, "x")), "is not a regular file")
	ids, err := s.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, ids)
}

func TestFileStoreMaxSize(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t, WithMaxSize(64))
	big := doc(1, strings.Repeat("b", 64))
	err := s.Save(ctx, "big", 0, big)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), fmt.Sprintf(`the data for session "big" is %d bytes, over the limit of 64 bytes`, len(big)))

	require.NoError(t, s.Save(ctx, "small", 0, doc(1, "s")))
	path := filepath.Join(s.Dir(), "small.json")
	require.NoError(t, os.WriteFile(path, big, 0o600)) // grown behind our back
	_, _, err = s.Load(ctx, "small")
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), fmt.Sprintf(`checkpoint %q is %d bytes, over the limit of 64 bytes`, path, len(big)))
	require.ErrorIs(t, s.Save(ctx, "small", 1, doc(2, "s")), ErrTooLarge)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, big, got, "an unreadable checkpoint is not overwritten")

	def := newFileStore(t)
	assert.Equal(t, DefaultMaxSize, def.maxSize)
	assert.Equal(t, DefaultMaxSize, newFileStore(t, WithMaxSize(0)).maxSize)
}

func TestFileStoreListIgnoresOtherFiles(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, s.Save(ctx, "real", 0, doc(1, "x")))
	require.NoError(t, s.Save(ctx, "x.lock", 0, doc(1, "x")))
	dir := s.Dir()
	for _, name := range []string{
		".real.json.tmp-0123456789abcdef", // a crashed save
		"other.lock",                      // a lock without a checkpoint
		"README", "notes.txt", "a b.json", // not sessions
		"..json", // would be id "."
		".json",  // would be the empty id
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o600))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.json"), 0o755))
	require.NoError(t, os.Symlink("real.json", filepath.Join(dir, "link.json")))
	ids, err := s.List(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"real", "x.lock"}, ids)
}

func TestIsTempOf(t *testing.T) {
	const hex16 = "0123456789abcdef"
	cases := []struct {
		name, id string
		want     bool
	}{
		{".a.json.tmp", "a", true},
		{".a.json.tmp", "b", false},
		{".b.json.tmp", "a", false},
		{".a.json.tmp-" + hex16, "a", true},
		{".a.json.tmp-" + hex16, "b", false},
		{".a.json.tmp-" + hex16[:15], "a", false},
		{".a.json.tmp-" + hex16 + "0", "a", false},
		{".a.json.tmp-0123456789abcdeg", "a", false},
		{"a.json", "a", false},
		{"a.lock", "a", false},
		// The temporary file of session "a.json.tmp-x" is not one of "a".
		{".a.json.tmp-x.json.tmp-" + hex16, "a", false},
		{".a.json.tmp-x.json.tmp-" + hex16, "a.json.tmp-x", true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, isTempOf(tc.name, tc.id), "%s / %s", tc.name, tc.id)
	}
}

func TestFileStoreDeleteCleansUp(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, s.Save(ctx, "a", 0, doc(1, "x")))
	require.NoError(t, s.Save(ctx, "a.json.tmp-x", 0, doc(1, "x")))
	dir := s.Dir()
	leftovers := []string{".a.json.tmp-00112233445566ff", ".a.json.tmp-x.json.tmp-00112233445566ff"}
	for _, name := range leftovers {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(`{"revision":`), 0o600))
	}
	require.NoError(t, s.Delete(ctx, "a"))
	assert.Equal(t, []string{".a.json.tmp-x.json.tmp-00112233445566ff", "a.json.tmp-x.json", "a.json.tmp-x.lock"}, dirNames(t, dir))
	require.NoError(t, s.Delete(ctx, "a.json.tmp-x"))
	assert.Empty(t, dirNames(t, dir))
}

// TestFileStoreStaysInDir tries every method with hostile ids and checks
// that nothing appears outside the store's directory.
func TestFileStoreStaysInDir(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	inner := filepath.Join(root, "a", "b", "cp")
	s, err := NewFileStore(inner)
	require.NoError(t, err)
	require.NoError(t, s.Save(ctx, "ok", 0, doc(1, "x")))
	for _, tc := range badIDs {
		_, _, err := s.Load(ctx, tc.id)
		require.Error(t, err)
		require.Error(t, s.Save(ctx, tc.id, 0, doc(1, "x")))
		require.Error(t, s.Delete(ctx, tc.id))
	}
	var found []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, path)
		found = append(found, rel)
		return err
	}))
	assert.Equal(t, []string{".", "a", "a/b", "a/b/cp", "a/b/cp/ok.json", "a/b/cp/ok.lock"}, found)
}

// holdLock takes the session's lock the way another process would.
func holdLock(t *testing.T, s *FileStore, id string) (release func()) {
	t.Helper()
	require.NoError(t, os.MkdirAll(s.Dir(), 0o755))
	f, err := os.OpenFile(s.lockPath(id), os.O_RDWR|os.O_CREATE, 0o600)
	require.NoError(t, err)
	require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX))
	return func() { _ = f.Close() }
}

func TestFileStoreWaitsForLock(t *testing.T) {
	s := newFileStore(t)
	require.NoError(t, s.Save(context.Background(), "l", 0, doc(1, "x")))
	release := holdLock(t, s, "l")

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := s.Save(ctx, "l", 1, doc(2, "x"))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), `lock session "l"`)
	require.ErrorIs(t, s.Delete(ctx, "l"), context.DeadlineExceeded)

	// Load takes no lock.
	_, rev, err := s.Load(context.Background(), "l")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)

	// A waiting Save proceeds once the holder lets go. (That it waits at
	// all is proven above: with the lock held it ran into its deadline.)
	done := make(chan error, 1)
	go func() { done <- s.Save(context.Background(), "l", 1, doc(2, "x")) }()
	release()
	require.NoError(t, <-done)
}

// TestLockFileRemovedWhileHeld checks the lock's guarantee when holders
// remove the lock file as the last thing they do before unlocking, as Delete
// does: lockFile must notice that the file it waited on is no longer the one
// at the path, and no two holders are ever inside at once. (A holder that
// went on working after removing the file would no longer be protected: a
// newcomer locks a new file of the same name. Delete never does.)
func TestLockFileRemovedWhileHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for w := range 6 {
		wg.Go(func() {
			for range 150 {
				unlock, err := lockFile(context.Background(), path)
				if err != nil {
					errs <- err
					return
				}
				if inside.Add(1) != 1 {
					overlaps.Add(1)
				}
				for range w % 3 {
					runtime.Gosched()
				}
				inside.Add(-1)
				if w%2 == 0 {
					if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
						errs <- err
					}
				}
				unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Zero(t, overlaps.Load(), "two holders were inside the lock at once")
}

// TestFileStoreSaveDeleteStress mixes increments and deletes of one session.
// Every error must be a conflict that the retry handles, and the session
// must end readable.
func TestFileStoreSaveDeleteStress(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t, WithoutSync())
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 4 {
		wg.Go(func() {
			for i := range 40 {
				var err error
				if w == 0 && i%4 == 0 {
					err = s.Delete(ctx, "churn")
				} else {
					err = increment(ctx, s, "churn", "w")
				}
				if err != nil {
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
	require.NoError(t, increment(ctx, s, "churn", "last"))
	_, rev, err := s.Load(ctx, "churn")
	require.NoError(t, err)
	assert.Positive(t, rev)
	for _, name := range dirNames(t, s.Dir()) {
		assert.NotContains(t, name, ".tmp-", "no temporary file is left behind")
	}
}

// TestFileStoreRefusesPlantedLinks plants symbolic links where the store
// creates or reads its files. None of them may be followed: no file appears
// outside the directory, and the error names the link and the fix.
func TestFileStoreRefusesPlantedLinks(t *testing.T) {
	cases := []struct {
		name string
		link func(s *FileStore, id string) string
		op   func(ctx context.Context, s *FileStore, id string) error
	}{
		{"lock on save", (*FileStore).lockPath, func(ctx context.Context, s *FileStore, id string) error {
			return s.Save(ctx, id, 0, doc(1, "x"))
		}},
		{"lock on delete", (*FileStore).lockPath, func(ctx context.Context, s *FileStore, id string) error {
			return s.Delete(ctx, id)
		}},
		{"checkpoint on load", (*FileStore).path, func(ctx context.Context, s *FileStore, id string) error {
			_, _, err := s.Load(ctx, id)
			return err
		}},
		{"checkpoint on save", (*FileStore).path, func(ctx context.Context, s *FileStore, id string) error {
			return s.Save(ctx, id, 0, doc(1, "x"))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFileStore(t)
			require.NoError(t, os.MkdirAll(s.Dir(), 0o755))
			outside := filepath.Join(t.TempDir(), "outside")
			require.NoError(t, os.Symlink(outside, tc.link(s, "planted")))
			err := tc.op(context.Background(), s, "planted")
			require.Error(t, err)
			assert.Contains(t, err.Error(), "symbolic link")
			assert.NotContains(t, err.Error(), outside, "the error leaks the link's target")
			assert.NoFileExists(t, outside, "the store followed a planted link")
		})
	}
	t.Run("temporary file", func(t *testing.T) {
		// A link at the temporary name is removed, never written through.
		s := newFileStore(t)
		require.NoError(t, os.MkdirAll(s.Dir(), 0o755))
		outside := filepath.Join(t.TempDir(), "outside")
		require.NoError(t, os.Symlink(outside, s.tempPath("planted")))
		require.NoError(t, s.Save(context.Background(), "planted", 0, doc(1, "x")))
		assert.NoFileExists(t, outside)
		assert.Equal(t, []string{"planted.json", "planted.lock"}, dirNames(t, s.Dir()))
	})
}

// TestFileStoreTempFileReplaced leaves a temporary file as a save killed
// midway does; the next save replaces it instead of adding another.
func TestFileStoreTempFileReplaced(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, s.Save(ctx, "a", 0, doc(1, "x")))
	require.NoError(t, os.WriteFile(s.tempPath("a"), []byte(`{"revi`), 0o600))
	require.NoError(t, s.Save(ctx, "a", 1, doc(2, "x")))
	assert.Equal(t, []string{"a.json", "a.lock"}, dirNames(t, s.Dir()))
}

// TestFileStoreLogCrashRule: a log line whose checkpoint never landed (a
// crash between the two writes), and a torn last line, are not part of
// the log; the next turn's line for that revision wins.
func TestFileStoreLogCrashRule(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, s.Commit(ctx, "a", 0, doc(1, ""), Record{Revision: 1, Data: []byte(`{"n": 1}`)}))
	f, err := os.OpenFile(s.logPath("a"), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"revision":2,"data":{"n":"lost"}}` + "\n" + `{"revision":3,"da`)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	log, err := s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 1)

	// The next turn cuts the torn tail off before appending.
	require.NoError(t, s.Commit(ctx, "a", 1, doc(2, ""), Record{Revision: 2, Data: []byte(`{"n": 2}`)}))
	log, err = s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 2)
	assert.JSONEq(t, `{"n": 2}`, string(log[1].Data), "the landed turn's line wins")
}

// TestFileStorePing: a directory that does not exist yet answers (the
// first save creates it); one that cannot be read does not, and the
// message names the directory's problem.
func TestFileStorePing(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "later")
	s, err := NewFileStore(dir)
	require.NoError(t, err)
	require.NoError(t, s.Ping(ctx), "not created yet")
	require.NoError(t, os.WriteFile(dir, []byte("not a directory"), 0o600))
	err = s.Ping(ctx)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "read checkpoint directory")
	_, listErr := s.List(ctx)
	assert.Error(t, listErr, "List agrees")
}
