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

func (s *FileStore) lockPath(id string) string { return filepath.Join(s.dir, id+lockExt) }

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
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Empty(t, infos)
	require.NoError(t, s.Delete(ctx, "a"))
	_, err = os.Stat(s.Dir())
	require.ErrorIs(t, err, fs.ErrNotExist, "only a transaction creates the directory")

	require.NoError(t, turn(ctx, s, "a", 0, "", "x"))
	fi, err := os.Stat(s.Dir())
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	assert.Equal(t, fs.FileMode(0o755&^umask), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(s.Dir(), "a.json"))
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm(), "checkpoints hold conversations: owner only")
	assert.Equal(t, []string{"a.json", "a.lock", "a.log"}, dirNames(t, s.Dir()), "no temporary file is left behind")
}

// TestFileStoreCorrupt writes broken files and checks that Begin and Load
// report them naming the file, and that nothing overwrites them.
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
		{"torn header", "soni-file-store/v1 rev", "its header is cut short"},
		{"header without its line's end", "soni-file-store/v1 revision 3", "its header \"soni-file-store/v1 revision 3\" has no end of line"},
		{"header with no revision", "soni-file-store/v1 revision \n{}", `its header gives the revision "", not an integer of at least 1`},
		{"header with revision 0", "soni-file-store/v1 revision 0\n{}", `its header gives the revision "0", not an integer of at least 1`},
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
			}
			_, _, err := s.Load(ctx, "broken")
			check(err)
			_, err = s.Begin(ctx, "broken")
			check(err)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tc.content, string(got), "a corrupt checkpoint is never overwritten")

			infos, err := s.List(ctx, "", 0)
			require.NoError(t, err)
			assert.Equal(t, []string{"broken"}, idsOf(infos), "a corrupt session is still listed")

			// Delete is the explicit reset: afterwards the session starts afresh.
			require.NoError(t, s.Delete(ctx, "broken"))
			require.NoError(t, turn(ctx, s, "broken", 0, "", "fresh"))
		})
	}
}

// TestFileStoreMigratesLegacyFiles: a checkpoint file written before the
// revision header (the bare checkpoint, whose revision is its JSON's) is
// read as it is by Load, List and a transaction, left as it is until a
// commit, and written with the header by the commit.
func TestFileStoreMigratesLegacyFiles(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, os.MkdirAll(s.Dir(), 0o755))
	path := filepath.Join(s.Dir(), "old.json")
	legacy := doc(4, "from an older soni")
	require.NoError(t, os.WriteFile(path, legacy, 0o600))

	data, rev, err := s.Load(ctx, "old")
	require.NoError(t, err)
	assert.Equal(t, legacy, data)
	assert.Equal(t, uint64(4), rev)
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	require.Len(t, infos, 1)
	assert.Equal(t, uint64(4), infos[0].Revision)
	on, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, legacy, on, "a read without the lock changes nothing")

	tx, err := s.Begin(ctx, "old")
	require.NoError(t, err)
	data, rev = tx.Checkpoint()
	assert.Equal(t, legacy, data)
	assert.Equal(t, uint64(4), rev)
	on, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, legacy, on, "a transaction that commits nothing changes nothing")
	tx.Close()
	tx, err = s.Begin(ctx, "old")
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx, Record{Revision: 5, Data: []byte(`{}`)}, doc(5, "now")))
	tx.Close()

	data, rev, err = s.Load(ctx, "old")
	require.NoError(t, err)
	assert.Equal(t, doc(5, "now"), data)
	assert.Equal(t, uint64(5), rev)
	on, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "soni-file-store/v1 revision 5\n"+string(doc(5, "now")), string(on))
}

// TestFileStoreNeverLooksInside: the revision is the header's, whatever
// the checkpoint's bytes hold (the store keeps them as it was given them).
func TestFileStoreNeverLooksInside(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx, Record{Revision: 1, Data: []byte(`{}`)}, []byte("not JSON, and no revision")))
	tx.Close()
	data, rev, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, "not JSON, and no revision", string(data))
	assert.Equal(t, uint64(1), rev)
	require.NoError(t, turn(ctx, s, "a", 1, "", "next"))
}

func TestFileStoreNotARegularFile(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, os.MkdirAll(filepath.Join(s.Dir(), "d.json"), 0o755))
	_, _, err := s.Load(ctx, "d")
	require.ErrorContains(t, err, `checkpoint "`+filepath.Join(s.Dir(), "d.json")+`" is not a regular file`)
	_, err = s.Begin(ctx, "d")
	require.ErrorContains(t, err, "is not a regular file")
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Empty(t, infos)
}

func TestFileStoreMaxSize(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t, WithMaxSize(64))
	big := doc(1, strings.Repeat("b", 64))
	tx, err := s.Begin(ctx, "big")
	require.NoError(t, err)
	err = tx.Commit(ctx, Record{Revision: 1, Data: []byte(`{}`)}, big)
	tx.Close()
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), fmt.Sprintf(`the checkpoint of session "big" is %d bytes, over the limit of 64 bytes`, len(big)))

	require.NoError(t, turn(ctx, s, "small", 0, "", "s"))
	path := filepath.Join(s.Dir(), "small.json")
	require.NoError(t, os.WriteFile(path, big, 0o600)) // grown behind our back
	_, _, err = s.Load(ctx, "small")
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), fmt.Sprintf(`checkpoint %q is %d bytes, over the limit of 64 bytes`, path, len(big)))
	_, err = s.Begin(ctx, "small")
	require.ErrorIs(t, err, ErrTooLarge)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, big, got, "an unreadable checkpoint is not overwritten")

	assert.Equal(t, DefaultMaxSize, newFileStore(t).maxSize)
	assert.Equal(t, DefaultMaxSize, newFileStore(t, WithMaxSize(0)).maxSize)
}

func TestFileStoreListIgnoresOtherFiles(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, turn(ctx, s, "real", 0, "", "x"))
	require.NoError(t, turn(ctx, s, "x.lock", 0, "", "x"))
	dir := s.Dir()
	for _, name := range []string{
		".real.json.tmp-0123456789abcdef", // a crashed save of an old version
		".real.json.tmp",                  // a crashed save
		"other.lock", "other.turn",        // locks without a checkpoint
		"README", "notes.txt", "a b.json", // not sessions
		"..json", // would be id "."
		".json",  // would be the empty id
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o600))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.json"), 0o755))
	require.NoError(t, os.Symlink("real.json", filepath.Join(dir, "link.json")))
	infos, err := s.List(ctx, "", 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"real", "x.lock"}, idsOf(infos))
}

func TestLegacyTempOf(t *testing.T) {
	const hex16 = "0123456789abcdef"
	cases := []struct {
		name, id string
		ok       bool
	}{
		{".a.json.tmp-" + hex16, "a", true},
		{".a.json.tmp-" + hex16[:15], "", false},
		{".a.json.tmp-" + hex16 + "0", "", false},
		{".a.json.tmp-0123456789abcdeg", "", false},
		{".a.json.tmp", "", false},
		{"a.json", "", false},
		{"a.lock", "", false},
		{".a.json.tmp-x.json.tmp-" + hex16, "a.json.tmp-x", true},
		{"..json.tmp-" + hex16, "", false},
	}
	for _, tc := range cases {
		id, ok := legacyTempOf(tc.name)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.id, id, tc.name)
	}
}

// countDirReads counts the times the store reads its directory.
func countDirReads(t *testing.T) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	old := onReadDir
	onReadDir = func() { n.Add(1) }
	t.Cleanup(func() { onReadDir = old })
	return &n
}

// TestFileStoreDeleteReadsNoDirectory: Delete removes the session's files
// by their names, without listing the directory, so its cost does not
// grow with the number of sessions (issue 20, defect 5: it read the whole
// directory, 359 ms at 50,000 sessions), and it leaves nothing behind.
func TestFileStoreDeleteReadsNoDirectory(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t, WithoutSync())
	for i := range 200 {
		require.NoError(t, turn(ctx, s, fmt.Sprint("s", i), 0, "k", ""))
	}
	require.NoError(t, turn(ctx, s, "a", 0, "", "x"))
	require.NoError(t, os.WriteFile(s.tempPath("a"), []byte(`{"revi`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "a.turn"), nil, 0o600))
	before := len(dirNames(t, s.Dir()))
	reads := countDirReads(t)
	require.NoError(t, s.Delete(ctx, "a"))
	assert.Zero(t, reads.Load(), "Delete listed the directory")
	assert.Len(t, dirNames(t, s.Dir()), before-5, "the checkpoint, log, lock, temporary and old turn-lock files go")
	assert.NotContains(t, dirNames(t, s.Dir()), "a.lock")
}

// TestFileStorePruneIsOnePass: Prune reads the directory once, a batch of
// entries at a time, however many sessions it deletes (issue 20, defect 5:
// it listed the directory again for each session, quadratic: 4,000
// sessions took 34 s), and cleans up what crashes and older versions left.
func TestFileStorePruneIsOnePass(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t, WithoutSync())
	const n = 3 * pruneBatch / 2
	for i := range n {
		require.NoError(t, turn(ctx, s, fmt.Sprintf("s%04d", i), 0, "", ""))
	}
	dir := s.Dir()
	for _, name := range []string{".s0001.json.tmp-0123456789abcdef", "gone.lock", "gone.turn"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o600))
	}
	reads := countDirReads(t)
	pruned, err := s.Prune(ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, n, pruned)
	assert.Equal(t, int64(1), reads.Load(), "one pass over the directory")
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
	require.NoError(t, turn(ctx, s, "ok", 0, "", "x"))
	for _, tc := range badIDs {
		_, _, err := s.Load(ctx, tc.id)
		require.Error(t, err)
		_, err = s.Begin(ctx, tc.id)
		require.Error(t, err)
		require.Error(t, s.Delete(ctx, tc.id))
		_, err = s.Log(ctx, tc.id, 0, 0)
		require.Error(t, err)
	}
	var found []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, path)
		found = append(found, rel)
		return err
	}))
	assert.Equal(t, []string{".", "a", "a/b", "a/b/cp", "a/b/cp/ok.json", "a/b/cp/ok.lock", "a/b/cp/ok.log"}, found)
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
	require.NoError(t, turn(context.Background(), s, "l", 0, "", "x"))
	release := holdLock(t, s, "l")

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := s.Begin(ctx, "l")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorIs(t, s.Delete(ctx, "l"), context.DeadlineExceeded)

	// Load takes no lock.
	_, rev, err := s.Load(context.Background(), "l")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev)

	// A waiting turn proceeds once the holder lets go. (That it waits at
	// all is proven above: with the lock held it ran into its deadline.)
	done := make(chan error, 1)
	go func() { done <- turn(context.Background(), s, "l", 1, "", "x") }()
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

// TestFileStoreTurnDeleteStress mixes turns and deletes of one session:
// none fails, and the session ends readable with no leftovers.
func TestFileStoreTurnDeleteStress(t *testing.T) {
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
					err = increment(ctx, s, "churn")
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
	require.NoError(t, increment(ctx, s, "churn"))
	_, rev, err := s.Load(ctx, "churn")
	require.NoError(t, err)
	assert.Positive(t, rev)
	assert.Equal(t, []string{"churn.json", "churn.lock", "churn.log"}, dirNames(t, s.Dir()))
}

// increment runs one turn on the session at whatever revision it is.
func increment(ctx context.Context, s Store, id string) error {
	tx, err := s.Begin(ctx, id)
	if err != nil {
		return err
	}
	defer tx.Close()
	_, rev := tx.Checkpoint()
	return tx.Commit(ctx, Record{Revision: rev + 1, Data: []byte(`{}`)}, doc(rev+1, "inc"))
}

// TestFileStoreConflictWithABypassingWriter: a writer that replaces the
// checkpoint without the lock makes the transaction's commit a conflict,
// found without reading the file again, and nothing of the turn is kept.
func TestFileStoreConflictWithABypassingWriter(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, turn(ctx, s, "a", 0, "", "x"))
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	defer tx.Close()
	require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "x.json"), doc(5, "rogue"), 0o600))
	require.NoError(t, os.Rename(filepath.Join(s.Dir(), "x.json"), filepath.Join(s.Dir(), "a.json")))
	err = tx.Commit(ctx, Record{Revision: 2, Data: []byte(`{}`)}, doc(2, "mine"))
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, ConflictError{Session: "a", Expected: 1, Actual: 5}, *ce)
	log, err := s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	assert.Len(t, log, 1, "no record of the lost turn")
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
		{"lock on begin", (*FileStore).lockPath, func(ctx context.Context, s *FileStore, id string) error {
			_, err := s.Begin(ctx, id)
			return err
		}},
		{"lock on delete", (*FileStore).lockPath, func(ctx context.Context, s *FileStore, id string) error {
			return s.Delete(ctx, id)
		}},
		{"checkpoint on load", (*FileStore).path, func(ctx context.Context, s *FileStore, id string) error {
			_, _, err := s.Load(ctx, id)
			return err
		}},
		{"checkpoint on begin", (*FileStore).path, func(ctx context.Context, s *FileStore, id string) error {
			_, err := s.Begin(ctx, id)
			return err
		}},
		{"log on commit", (*FileStore).logPath, func(ctx context.Context, s *FileStore, id string) error {
			return turn(ctx, s, id, 0, "", "x")
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
		require.NoError(t, turn(context.Background(), s, "planted", 0, "", "x"))
		assert.NoFileExists(t, outside)
		assert.Equal(t, []string{"planted.json", "planted.lock", "planted.log"}, dirNames(t, s.Dir()))
	})
}

// TestFileStoreTempFileReplaced leaves a temporary file as a save killed
// midway does; the next commit replaces it instead of adding another.
func TestFileStoreTempFileReplaced(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, turn(ctx, s, "a", 0, "", "x"))
	require.NoError(t, os.WriteFile(s.tempPath("a"), []byte(`{"revi`), 0o600))
	require.NoError(t, turn(ctx, s, "a", 1, "", "x"))
	assert.Equal(t, []string{"a.json", "a.lock", "a.log"}, dirNames(t, s.Dir()))
}

// TestFileStoreLogCrashRule: a log line whose checkpoint never landed (a
// crash between the two writes), and a torn last line, are not part of
// the log; the next turn's line for that revision wins, also for message
// ids.
func TestFileStoreLogCrashRule(t *testing.T) {
	ctx := context.Background()
	s := newFileStore(t)
	require.NoError(t, turn(ctx, s, "a", 0, "k1", "one"))
	f, err := os.OpenFile(s.logPath("a"), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"revision":2,"key":"lost","data":{"n":"lost"}}` + "\n" + `{"revision":3,"da`)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	log, err := s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 1)
	tx, err := s.Begin(ctx, "a")
	require.NoError(t, err)
	_, ok, err := tx.Lookup(ctx, "lost")
	require.NoError(t, err)
	assert.False(t, ok, "the message id of a turn that never landed is not known")
	// The next turn cuts the torn tail off before appending.
	require.NoError(t, tx.Commit(ctx, Record{Revision: 2, Key: "k2", Data: []byte(`{"n": 2}`)}, doc(2, "")))
	tx.Close()
	log, err = s.Log(ctx, "a", 0, 0)
	require.NoError(t, err)
	require.Len(t, log, 2)
	assert.JSONEq(t, `{"n": 2}`, string(log[1].Data), "the landed turn's line wins")
	tx, err = s.Begin(ctx, "a")
	require.NoError(t, err)
	defer tx.Close()
	for key, found := range map[string]bool{"k1": true, "k2": true, "lost": false} {
		_, ok, err := tx.Lookup(ctx, key)
		require.NoError(t, err)
		assert.Equal(t, found, ok, key)
	}
}

// TestFileStoreIndexFollowsOtherProcesses: two stores on one directory
// (as two processes are) keep their own indexes of a session's log; each
// finds the message ids the other committed, reading only what it did not
// see, and a log replaced by a delete is indexed afresh.
func TestFileStoreIndexFollowsOtherProcesses(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "cp")
	a, err := NewFileStore(dir, WithoutSync())
	require.NoError(t, err)
	b, err := NewFileStore(dir, WithoutSync())
	require.NoError(t, err)
	stores := []*FileStore{a, b}
	for rev := range uint64(20) {
		require.NoError(t, turn(ctx, stores[rev%2], "s", rev, fmt.Sprint("m", rev+1), ""))
	}
	for _, s := range stores {
		tx, err := s.Begin(ctx, "s")
		require.NoError(t, err)
		for rev := 1; rev <= 20; rev++ {
			rec, ok, err := tx.Lookup(ctx, fmt.Sprint("m", rev))
			require.NoError(t, err)
			require.True(t, ok, "m%d", rev)
			assert.Equal(t, uint64(rev), rec.Revision)
		}
		tx.Close()
	}
	require.NoError(t, a.Delete(ctx, "s"))
	require.NoError(t, a.Delete(ctx, "s"))
	require.NoError(t, turn(ctx, a, "s", 0, "m2", "new"))
	tx, err := b.Begin(ctx, "s")
	require.NoError(t, err)
	defer tx.Close()
	rec, ok, err := tx.Lookup(ctx, "m2")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, uint64(1), rec.Revision, "b's index of the old log is not used for the new one")
	_, ok, err = tx.Lookup(ctx, "m3")
	require.NoError(t, err)
	assert.False(t, ok)
}

// TestFileStoreLookupReadsOnlyWhatIsNew: a message id is looked up in the
// index, which this process's commits keep current: a lookup on a long
// session reads no line of its log, and after another process appended a
// turn, only that line (issue 20, defect 6: every lookup read and decoded
// the whole log, 43 ms a turn at 3,000 turns).
func TestFileStoreLookupReadsOnlyWhatIsNew(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "cp")
	s, err := NewFileStore(dir, WithoutSync())
	require.NoError(t, err)
	other, err := NewFileStore(dir, WithoutSync())
	require.NoError(t, err)
	const turns = 500
	for rev := range uint64(turns) {
		require.NoError(t, turn(ctx, s, "long", rev, fmt.Sprint("m", rev+1), ""))
	}
	var lines atomic.Int64
	old := onIndexLine
	onIndexLine = func() { lines.Add(1) }
	t.Cleanup(func() { onIndexLine = old })
	lookup := func(key string) bool {
		t.Helper()
		tx, err := s.Begin(ctx, "long")
		require.NoError(t, err)
		defer tx.Close()
		_, ok, err := tx.Lookup(ctx, key)
		require.NoError(t, err)
		return ok
	}
	assert.True(t, lookup("m1"))
	assert.False(t, lookup("new"))
	assert.Zero(t, lines.Load(), "the index was current: no line read")
	require.NoError(t, turn(ctx, other, "long", turns, "from-other", ""))
	assert.True(t, lookup("from-other"))
	assert.Equal(t, int64(1), lines.Load(), "only the other process's line")
}

// TestFileStorePing: a directory that does not exist yet answers (the
// first transaction creates it); one that cannot be read does not, and
// the message names the directory's problem.
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
	_, listErr := s.List(ctx, "", 0)
	assert.Error(t, listErr, "List agrees")
}
