package checkpoints

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultMaxSize is the largest checkpoint a [FileStore] loads or saves
// unless [WithMaxSize] says otherwise: 64 MiB.
const DefaultMaxSize int64 = 64 << 20

// File name parts. A session's checkpoint is ID.json, its lock ID.lock and
// its temporary file .ID.json.tmp. No name of one kind can be a name of
// another kind, for any two valid ids. Only the holder of the session's lock
// writes its temporary file, so one fixed name is enough: a file left by a
// save killed midway is replaced by the next save, and never piles up.
// Versions before 2026-11 named temporary files .ID.json.tmp-<16 hex
// digits>; Delete still removes those.
const (
	fileExt      = ".json"
	lockExt      = ".lock"
	tempSuffix   = ".json.tmp"
	legacyInfix  = ".json.tmp-"
	legacyRandSz = 8 // random bytes, written as 16 hex digits
)

// FileStore is a [Store] that keeps one JSON file per session, DIR/ID.json.
//
// Save is atomic and durable: it writes a temporary file in the same
// directory, fsyncs it, renames it over ID.json and fsyncs the directory, so
// a crash or kill at any moment leaves the old or the new checkpoint, never a
// torn one. The compare-and-swap runs under an exclusive flock(2) on
// DIR/ID.lock, which the kernel releases when a process dies, so processes
// and goroutines sharing the directory exclude each other. Load takes no
// lock: it sees the file before or after a rename, both complete.
//
// A file that cannot be parsed is reported as a [*CorruptError] naming it,
// and Save never overwrites it. FileStore is safe for concurrent use.
type FileStore struct {
	dir     string
	sync    bool
	maxSize int64
}

var _ Store = (*FileStore)(nil)

// Option configures a [FileStore].
type Option func(*FileStore)

// WithoutSync turns off the fsync of files and of the directory. Saves stay
// atomic against a crash of the process but not against a crash of the
// machine. Meant for benchmarks and throwaway directories.
func WithoutSync() Option {
	return func(s *FileStore) { s.sync = false }
}

// WithMaxSize sets the largest checkpoint, in bytes, that the store loads or
// saves. A value of 0 or less keeps [DefaultMaxSize].
func WithMaxSize(n int64) Option {
	return func(s *FileStore) {
		if n > 0 {
			s.maxSize = n
		}
	}
}

// NewFileStore returns a store that keeps its checkpoints in dir. The
// directory is created (mode 0o755) by the first Save; until then Load finds
// nothing and List is empty. An existing dir that is not a directory is an
// error.
func NewFileStore(dir string, opts ...Option) (*FileStore, error) {
	if dir == "" {
		return nil, errors.New("checkpoint directory is empty")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("checkpoint directory %q is not a directory", dir)
	}
	s := &FileStore{dir: filepath.Clean(dir), sync: true, maxSize: DefaultMaxSize}
	for _, opt := range opts {
		opt(s)
	}
	return s, nil
}

// Dir returns the directory of the store.
func (s *FileStore) Dir() string { return s.dir }

// Path returns the file that holds the session's checkpoint, DIR/ID.json.
func (s *FileStore) Path(id string) (string, error) {
	if err := ValidateID(id); err != nil {
		return "", err
	}
	return s.path(id), nil
}

func (s *FileStore) path(id string) string     { return filepath.Join(s.dir, id+fileExt) }
func (s *FileStore) lockPath(id string) string { return filepath.Join(s.dir, id+lockExt) }
func (s *FileStore) tempPath(id string) string { return filepath.Join(s.dir, "."+id+tempSuffix) }

// Load reads DIR/ID.json. A missing file matches [ErrNotFound]; an empty,
// truncated or otherwise unparseable one is a [*CorruptError] naming it; one
// over the size limit matches [ErrTooLarge].
func (s *FileStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := begin(ctx, id); err != nil {
		return nil, 0, err
	}
	data, rev, err := s.read(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	return data, rev, nil
}

// read reads and parses a checkpoint file. A missing file is an error
// matching fs.ErrNotExist.
func (s *FileStore) read(path string) ([]byte, uint64, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("open checkpoint: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("read checkpoint: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("checkpoint %q is not a regular file", path)
	}
	if fi.Size() > s.maxSize {
		return nil, 0, s.tooLarge(fmt.Sprintf("checkpoint %q", path), fi.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, s.maxSize+1))
	if err != nil {
		return nil, 0, fmt.Errorf("read checkpoint: %w", err)
	}
	if int64(len(data)) > s.maxSize {
		return nil, 0, s.tooLarge(fmt.Sprintf("checkpoint %q", path), int64(len(data)))
	}
	rev, err := Revision(data)
	if err != nil {
		return nil, 0, &CorruptError{Path: path, Err: err}
	}
	return data, rev, nil
}

// tooLarge reports a checkpoint over the size limit; what describes it.
func (s *FileStore) tooLarge(what string, size int64) error {
	return fmt.Errorf("%w: %s is %d bytes, over the limit of %d bytes", ErrTooLarge, what, size, s.maxSize)
}

// Save writes data to DIR/ID.json if the stored revision equals expected;
// see [Store] and [FileStore]. A stored file that cannot be parsed stops the
// save with a [*CorruptError] and is left as it is.
func (s *FileStore) Save(ctx context.Context, id string, expected uint64, data []byte) error {
	return s.save(ctx, id, expected, data, nil)
}

// save is Save, appending line to the session's log first when it is not
// nil (Commit).
func (s *FileStore) save(ctx context.Context, id string, expected uint64, data, line []byte) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	if int64(len(data)) > s.maxSize {
		return s.tooLarge(fmt.Sprintf("the data for session %q", id), int64(len(data)))
	}
	if err := CheckData(id, expected, data); err != nil {
		return err
	}
	if err := s.ensureDir(); err != nil {
		return err
	}
	unlock, err := lockFile(ctx, s.lockPath(id))
	if err != nil {
		return fmt.Errorf("lock session %q: %w", id, err)
	}
	defer unlock()

	var actual uint64
	path := s.path(id)
	if _, rev, err := s.read(path); err == nil {
		actual = rev
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if actual != expected {
		return &ConflictError{Session: id, Expected: expected, Actual: actual}
	}
	if line != nil {
		if err := s.appendLog(id, line); err != nil {
			return err
		}
	}
	return s.writeAtomic(id, path, data)
}

// ensureDir creates the directory if it does not exist yet.
func (s *FileStore) ensureDir() error {
	if _, err := os.Stat(s.dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("create checkpoint directory: %w", err)
	}
	if s.sync {
		// Make the new directory's own entry durable, best effort: the
		// parent may not be ours to open.
		_ = syncDir(filepath.Dir(s.dir))
	}
	return nil
}

// writeAtomic writes data to a temporary file, syncs it and renames it over
// path, then syncs the directory. The caller holds the session lock.
func (s *FileStore) writeAtomic(id, path string, data []byte) (err error) {
	tmp, err := createTemp(s.tempPath(id))
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	if s.sync {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("sync checkpoint: %w", err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace checkpoint: %w", err)
	}
	renamed = true
	if s.sync {
		if err := syncDir(s.dir); err != nil {
			return fmt.Errorf("checkpoint %q was replaced but its directory could not be synced: %w", path, err)
		}
	}
	return nil
}

// createTemp creates the session's temporary file at name, mode 0o600. The
// caller holds the session lock, so a file already there is what a save
// killed midway left behind: it is removed first. A symbolic link planted
// there is removed, never followed.
func createTemp(name string) (*os.File, error) {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("remove stale temporary checkpoint: %w", err)
	}
	f, err := openNoFollow(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create temporary checkpoint: %w", err)
	}
	return f, nil
}

// isTempOf reports whether name is a temporary file of session id: today's
// fixed name, or a randomly named one of an older version.
func isTempOf(name, id string) bool {
	if name == "."+id+tempSuffix {
		return true
	}
	prefix := "." + id + legacyInfix
	if !strings.HasPrefix(name, prefix) || len(name) != len(prefix)+2*legacyRandSz {
		return false
	}
	_, err := hex.DecodeString(name[len(prefix):])
	return err == nil
}

// syncDir fsyncs a directory so that renames and removals in it last.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Delete removes DIR/ID.json, with its lock file and any temporary file a
// crashed save left behind. A missing session is not an error. Delete also
// removes a corrupt checkpoint: that is how a session is reset.
func (s *FileStore) Delete(ctx context.Context, id string) error {
	if err := begin(ctx, id); err != nil {
		return err
	}
	if _, err := os.Stat(s.dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := lockFile(ctx, s.lockPath(id))
	if err != nil {
		return fmt.Errorf("lock session %q: %w", id, err)
	}
	defer unlock()
	if err := os.Remove(s.path(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete checkpoint: %w", err)
	}
	if err := s.deleteLog(id); err != nil {
		return err
	}
	// Under the lock no save of this session is running, so its temporary
	// files are leftovers of a crash.
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("list checkpoint directory: %w", err)
	}
	for _, e := range entries {
		if isTempOf(e.Name(), id) {
			_ = os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
	if s.sync {
		if err := syncDir(s.dir); err != nil {
			return fmt.Errorf("sync checkpoint directory: %w", err)
		}
	}
	// Removing the lock file is the last thing done under the lock: from
	// the moment it is unlinked, a newcomer creates and locks a new file of
	// the same name (and a waiter on the old one notices it is stale, see
	// lockFile), so nothing of this session may be touched after it.
	if err := os.Remove(s.lockPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete checkpoint lock: %w", err)
	}
	return nil
}

// Ping checks that the directory can be read, as List would, without
// listing it: it reads at most one entry. A directory that does not exist
// yet is fine (the first save creates it).
func (s *FileStore) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.Open(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open checkpoint directory: %w", err)
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read checkpoint directory: %w", err)
	}
	return nil
}

// List returns the ids of the checkpoint files in the directory, sorted.
// Lock files, temporary files, directories and other names are ignored. A
// directory that does not exist yet holds no sessions.
func (s *FileStore) List(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list checkpoint directory: %w", err)
	}
	ids := []string{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), fileExt)
		if !ok || !e.Type().IsRegular() || ValidateID(id) != nil {
			continue
		}
		ids = append(ids, id)
	}
	slices.Sort(ids) // ReadDir sorts already; keep the contract explicit.
	return ids, nil
}
