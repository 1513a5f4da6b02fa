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
	"time"
)

// DefaultMaxSize is the largest checkpoint a [FileStore] loads or saves
// unless [WithMaxSize] says otherwise: 64 MiB.
const DefaultMaxSize int64 = 64 << 20

// File name parts. A session's checkpoint is ID.json, its log ID.log, its
// lock ID.lock and its temporary file .ID.json.tmp. No name of one kind can
// be a name of another kind, for any two valid ids. Only the holder of the
// session's lock writes its temporary file, so one fixed name is enough: a
// file left by a save killed midway is replaced by the next save, and never
// piles up. Versions before 2026-11 named temporary files
// .ID.json.tmp-<16 hex digits>, and versions before issue 20 took a second
// lock on ID.turn; Prune removes both kinds of leftover.
const (
	fileExt      = ".json"
	logExt       = ".log"
	tempSuffix   = ".json.tmp"
	legacyTurn   = ".turn"
	legacyInfix  = ".json.tmp-"
	legacyRandSz = 8 // random bytes, written as 16 hex digits
)

// FileStore is a [Store] that keeps each session in files of one directory:
// its checkpoint DIR/ID.json, its log DIR/ID.log (one JSON line per turn)
// and its lock DIR/ID.lock. The checkpoint's file is a header line with
// its revision, "soni-file-store/v1 revision N", then the checkpoint's
// bytes as the engine gave them, which the store never looks inside. A
// file written before the header (the bare checkpoint) is read with the
// revision of its JSON's top-level "revision" field, and gets the header
// at its next commit.
//
// A transaction holds the session's place in this process's queue and an
// exclusive flock(2) on ID.lock, which the kernel releases when a process
// dies, so processes and goroutines sharing the directory exclude each
// other. Begin reads ID.json once. Commit appends the record to ID.log
// (fsynced) and then replaces ID.json atomically and durably: it writes a
// temporary file in the same directory, fsyncs it, renames it over ID.json
// and fsyncs the directory, so a crash or kill at any moment leaves the
// old or the new checkpoint, never a torn one. A crash between the two
// leaves a log line for a revision the checkpoint never reached; readers
// keep, per revision, the last line, and only revisions the checkpoint has
// reached. Load takes no lock: it sees the file before or after a rename,
// both complete.
//
// Message ids are looked up in an index of the log kept in memory, which a
// commit extends and a lookup brings up to date by reading only what other
// processes appended since; Log reads only the lines it returns.
//
// A file that cannot be parsed is reported as a [*CorruptError] naming it,
// and a commit never overwrites it. FileStore is safe for concurrent use.
type FileStore struct {
	dir     string
	sync    bool
	maxSize int64
	queue   *Queue
	locks   *LockDir
	index   indexCache
}

var _ Store = (*FileStore)(nil)

// Option configures a store of this package. Each names the stores it
// applies to; the others ignore it.
type Option func(*config)

type config struct {
	noSync       bool
	maxSize      int64
	maxWaiting   int
	maxSessions  int
	recordValues bool
}

func configure(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithoutSync turns off the file store's fsyncs of files and of the
// directory. Commits stay atomic against a crash of the process but not
// against a crash of the machine. Meant for benchmarks and throwaway
// directories.
func WithoutSync() Option {
	return func(c *config) { c.noSync = true }
}

// WithMaxSize sets the largest checkpoint, in bytes, that the file store
// loads or saves. A value of 0 or less keeps [DefaultMaxSize].
func WithMaxSize(n int64) Option {
	return func(c *config) { c.maxSize = n }
}

// WithMaxWaiting sets how many turns of one session may wait for its lock
// in this process besides the holder before Begin answers [ErrBusy]; the
// default is [DefaultMaxWaiting]. Every store of this package takes it.
func WithMaxWaiting(n int) Option {
	return func(c *config) { c.maxWaiting = n }
}

// WithMaxSessions bounds a memory store to n sessions (n > 0): committing a
// new session beyond them evicts the session saved least recently that no
// transaction holds, with its log.
func WithMaxSessions(n int) Option {
	return func(c *config) { c.maxSessions = n }
}

// WithRecordValues makes a memory store keep the records given as a
// [Record.Value] as Go values, encoded only when they are read, instead of
// encoding them at commit: for a store whose logs are seldom read and
// whose sessions are deleted soon, as the conversation tests' store. The
// values must not change after Commit. Other stores ignore it.
func WithRecordValues() Option {
	return func(c *config) { c.recordValues = true }
}

// NewFileStore returns a store that keeps its sessions in dir. The
// directory is created (mode 0o755) by the first transaction; until then
// Load finds nothing and List is empty. An existing dir that is not a
// directory is an error.
func NewFileStore(dir string, opts ...Option) (*FileStore, error) {
	if dir == "" {
		return nil, errors.New("checkpoint directory is empty")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("checkpoint directory %q is not a directory", dir)
	}
	c := configure(opts)
	s := &FileStore{dir: filepath.Clean(dir), sync: !c.noSync, maxSize: DefaultMaxSize, queue: NewQueue(c.maxWaiting)}
	if c.maxSize > 0 {
		s.maxSize = c.maxSize
	}
	s.locks = &LockDir{dir: s.dir, sync: s.sync}
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
func (s *FileStore) logPath(id string) string  { return filepath.Join(s.dir, id+logExt) }
func (s *FileStore) tempPath(id string) string { return filepath.Join(s.dir, "."+id+tempSuffix) }

// fileTx is a transaction of a FileStore.
type fileTx struct {
	TxBase
	s    *FileStore
	lock *FileLock
	file os.FileInfo // the checkpoint file Begin read; nil: none
}

// Begin takes the session's place in the queue and its flock, and reads
// ID.json once; see [Store].
func (s *FileStore) Begin(ctx context.Context, id string) (Tx, error) {
	if err := Check(ctx, id); err != nil {
		return nil, err
	}
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := s.locks.Lock(ctx, id)
	if err != nil {
		t.Release()
		return nil, err
	}
	data, rev, fi, err := s.read(s.path(id))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		l.Unlock()
		t.Release()
		return nil, err
	}
	return &fileTx{TxBase: NewTxBase(id, t, data, rev), s: s, lock: l, file: fi}, nil
}

func (tx *fileTx) Lookup(ctx context.Context, key string) (Record, bool, error) {
	if err := tx.CanLookup(ctx); err != nil {
		return Record{}, false, err
	}
	if key == "" || tx.Rev == 0 {
		return Record{}, false, nil
	}
	return tx.s.lookup(tx.ID, key, tx.Rev)
}

func (tx *fileTx) Commit(ctx context.Context, rec Record, data []byte) error {
	if err := tx.CanCommit(ctx, rec); err != nil {
		return err
	}
	s, id := tx.s, tx.ID
	if int64(len(data)) > s.maxSize {
		return s.tooLarge(fmt.Sprintf("the checkpoint of session %q", id), int64(len(data)))
	}
	js, err := RecordJSON(id, rec)
	if err != nil {
		return err
	}
	line := appendLogLine(make([]byte, 0, len(js)+len(rec.Key)+48), rec.Revision, rec.Key, js)
	if int64(len(line)) > s.maxSize {
		return s.tooLarge(fmt.Sprintf("the record of revision %d of session %q", rec.Revision, id), int64(len(line)))
	}
	if err := s.unchanged(id, tx.file, tx.Rev); err != nil {
		return err
	}
	if err := s.appendLog(id, rec, line); err != nil {
		return err
	}
	if err := s.writeAtomic(id, s.path(id), rec.Revision, data); err != nil {
		return err
	}
	tx.Committed()
	return nil
}

// unchanged checks, under the session's lock, that the checkpoint file is
// still the one the transaction read (no file: still none), without
// reading it. Every writer of this store holds the lock, so only a writer
// that bypassed it fails the check.
func (s *FileStore) unchanged(id string, read os.FileInfo, rev uint64) error {
	now, err := os.Lstat(s.path(id))
	switch {
	case errors.Is(err, fs.ErrNotExist) && read == nil:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("check checkpoint: %w", err)
	case err == nil && read != nil && os.SameFile(read, now) && read.Size() == now.Size() && read.ModTime().Equal(now.ModTime()):
		return nil
	}
	var actual uint64
	if _, r, _, rerr := s.read(s.path(id)); rerr == nil {
		actual = r
	}
	return &ConflictError{Session: id, Expected: rev, Actual: actual}
}

func (tx *fileTx) Close() { tx.End(tx.lock.Unlock) }

// Load reads DIR/ID.json. A missing file matches [ErrNotFound]; an empty,
// truncated or otherwise unparseable one is a [*CorruptError] naming it; one
// over the size limit matches [ErrTooLarge].
func (s *FileStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if err := Check(ctx, id); err != nil {
		return nil, 0, err
	}
	data, rev, _, err := s.read(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	return data, rev, nil
}

// read reads a checkpoint file: the checkpoint, and the revision its
// header gives (see fileHeader; a file written before the header is read
// as it was, and gets the header at its next commit). A missing file is an
// error matching fs.ErrNotExist.
func (s *FileStore) read(path string) (data []byte, rev uint64, fi os.FileInfo, err error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, nil, err
		}
		return nil, 0, nil, fmt.Errorf("open checkpoint: %w", err)
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, 0, nil, fmt.Errorf("read checkpoint: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, nil, fmt.Errorf("checkpoint %q is not a regular file", path)
	}
	if fi.Size() > s.maxSize+int64(maxHeader) {
		return nil, 0, nil, s.tooLarge(fmt.Sprintf("checkpoint %q", path), fi.Size())
	}
	buf := make([]byte, fi.Size())
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, 0, nil, fmt.Errorf("read checkpoint: %w", err)
	}
	buf = buf[:n] // the file cannot change under the lock, but Load holds none
	data, rev, _, err = splitFile(buf)
	if err != nil {
		return nil, 0, nil, &CorruptError{Path: path, Err: err}
	}
	if int64(len(data)) > s.maxSize {
		return nil, 0, nil, s.tooLarge(fmt.Sprintf("checkpoint %q", path), int64(len(data)))
	}
	return data, rev, fi, nil
}

// tooLarge reports a checkpoint over the size limit; what describes it.
func (s *FileStore) tooLarge(what string, size int64) error {
	return fmt.Errorf("%w: %s is %d bytes, over the limit of %d bytes", ErrTooLarge, what, size, s.maxSize)
}

// writeAtomic writes the header of revision rev and data to a temporary
// file, syncs it and renames it over path, then syncs the directory. The
// caller holds the session lock.
func (s *FileStore) writeAtomic(id, path string, rev uint64, data []byte) (err error) {
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
	if _, err := tmp.Write(appendHeader(make([]byte, 0, maxHeader), rev)); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
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

// legacyTempOf returns the session of a temporary file named by a version
// before 2026-11, .ID.json.tmp-<16 hex digits>.
func legacyTempOf(name string) (string, bool) {
	if !strings.HasPrefix(name, ".") || len(name) < 1+len(legacyInfix)+2*legacyRandSz {
		return "", false
	}
	cut := len(name) - 2*legacyRandSz
	if _, err := hex.DecodeString(name[cut:]); err != nil {
		return "", false
	}
	id, ok := strings.CutSuffix(name[1:cut], legacyInfix)
	if !ok || ValidateID(id) != nil {
		return "", false
	}
	return id, true
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

// Delete removes the session's files under its lock, each by its name: its
// checkpoint, log and temporary file, then its lock file last. It never
// lists the directory, so its cost does not grow with the number of
// sessions. A missing session is not an error, and a corrupt checkpoint is
// removed too: that is how a session is reset.
func (s *FileStore) Delete(ctx context.Context, id string) error {
	if err := Check(ctx, id); err != nil {
		return err
	}
	if _, err := os.Stat(s.dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer t.Release()
	l, err := s.locks.Lock(ctx, id)
	if err != nil {
		return err
	}
	if err := s.removeSession(id); err != nil {
		l.Unlock()
		return err
	}
	return l.Remove()
}

// removeSession removes the session's files but its lock file. The
// caller holds the session's lock.
func (s *FileStore) removeSession(id string) error {
	s.index.drop(id)
	for _, p := range []string{s.path(id), s.logPath(id), s.tempPath(id), filepath.Join(s.dir, id+legacyTurn)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete session %q: %w", id, err)
		}
	}
	if s.sync {
		if err := syncDir(s.dir); err != nil {
			return fmt.Errorf("sync checkpoint directory: %w", err)
		}
	}
	return nil
}

// Prune deletes the sessions whose checkpoint file was last written before
// the given time, each under its lock, reading the directory a batch at a
// time: its cost is linear in the number of files. It also removes what
// crashes and older versions left behind that is older than the time: lock
// files of sessions that no longer exist, and temporary files.
func (s *FileStore) Prune(ctx context.Context, before time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := 0
	err := readDirBatches(s.dir, func(e fs.DirEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		if id, ok := cutExt(name, fileExt); ok {
			if !olderThan(e, before) {
				return nil
			}
			deleted, err := s.pruneSession(ctx, id, before)
			if deleted {
				n++
			}
			return err
		}
		if !olderThan(e, before) {
			return nil
		}
		if id, ok := legacyTempOf(name); ok {
			return s.removeUnder(ctx, id, filepath.Join(s.dir, name))
		}
		for _, ext := range []string{lockExt, legacyTurn} {
			if id, ok := cutExt(name, ext); ok && !s.exists(id) {
				return s.removeOrphan(ctx, id, ext)
			}
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("prune %q: %w", s.dir, err)
	}
	return n, nil
}

func olderThan(e fs.DirEntry, before time.Time) bool {
	fi, err := e.Info()
	return err == nil && fi.ModTime().Before(before)
}

// exists reports whether the session has a checkpoint file.
func (s *FileStore) exists(id string) bool {
	_, err := os.Lstat(s.path(id))
	return err == nil
}

// pruneSession deletes the session if, under its lock, its checkpoint is
// still older than before.
func (s *FileStore) pruneSession(ctx context.Context, id string, before time.Time) (bool, error) {
	t, err := s.queue.Acquire(ctx, id)
	if err != nil {
		return false, err
	}
	defer t.Release()
	l, err := s.locks.Lock(ctx, id)
	if err != nil {
		return false, err
	}
	fi, err := os.Lstat(s.path(id))
	if err != nil || !fi.ModTime().Before(before) {
		l.Unlock()
		return false, nil // saved meanwhile, or gone
	}
	if err := s.removeSession(id); err != nil {
		l.Unlock()
		return false, err
	}
	return true, l.Remove()
}

// removeUnder removes a file of the session under the session's lock.
func (s *FileStore) removeUnder(ctx context.Context, id, path string) error {
	l, err := s.locks.Lock(ctx, id)
	if err != nil {
		return err
	}
	defer l.Unlock()
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// removeOrphan removes the lock file (ext: .lock, or an older version's
// .turn) of a session that has no checkpoint, under the lock it is.
func (s *FileStore) removeOrphan(ctx context.Context, id, ext string) error {
	if s.queue.Held(id) {
		return nil // a turn of this process is starting it
	}
	unlock, err := lockFile(ctx, filepath.Join(s.dir, id+ext))
	if err != nil {
		return err
	}
	if s.exists(id) {
		unlock()
		return nil // a turn created it meanwhile
	}
	err = os.Remove(filepath.Join(s.dir, id+ext))
	unlock()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Ping checks that the directory can be read, as List would, without
// listing it: it reads at most one entry. A directory that does not exist
// yet is fine (the first commit creates it).
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

// List returns a page of the sessions that have a checkpoint file, sorted
// by id, with the revision and modification time of the file. A checkpoint
// that cannot be read is listed with revision 0. Log, lock and temporary
// files, directories and other names are ignored. A directory that does
// not exist yet holds no sessions.
func (s *FileStore) List(ctx context.Context, after string, limit int) ([]SessionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ids []string
	err := readDirBatches(s.dir, func(e fs.DirEntry) error {
		if id, ok := cutExt(e.Name(), fileExt); ok && id > after && e.Type().IsRegular() {
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list checkpoint directory: %w", err)
	}
	slices.Sort(ids)
	out := []SessionInfo{}
	for _, id := range ids {
		if limit > 0 && len(out) == limit {
			break
		}
		_, rev, fi, err := s.read(s.path(id))
		switch {
		case err == nil:
			out = append(out, SessionInfo{ID: id, Revision: rev, Updated: fi.ModTime().UTC()})
		case !errors.Is(err, fs.ErrNotExist): // deleted meanwhile: skip
			if lfi, lerr := os.Lstat(s.path(id)); lerr == nil {
				out = append(out, SessionInfo{ID: id, Updated: lfi.ModTime().UTC()})
			}
		}
	}
	return out, nil
}

// Close does nothing: the store holds no file between its calls.
func (s *FileStore) Close() error { return nil }
