package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// LockDir keeps the locks of a store's sessions that hold across
// processes: one file per session, DIR/ID.lock, under an exclusive
// flock(2), which the kernel releases when a process dies. The file store
// keeps them beside its checkpoints; the sqlite store in a directory beside
// its database. A session's lock file lives as long as the session: the
// store removes it, under the lock, as the last step of deleting the
// session.
type LockDir struct {
	dir  string
	sync bool // fsync the parent when the directory is created
}

// lockExt is the extension of a session's lock file.
const lockExt = ".lock"

// NewLockDir returns the lock directory dir, which the first lock
// creates.
func NewLockDir(dir string) *LockDir { return &LockDir{dir: filepath.Clean(dir), sync: true} }

// FileLock is a held session lock.
type FileLock struct {
	path   string
	unlock func()
}

// Lock takes the session's lock (id must be valid), creating the directory
// and the file if needed, and waits until it is free or ctx is done.
func (d *LockDir) Lock(ctx context.Context, id string) (*FileLock, error) {
	path := filepath.Join(d.dir, id+lockExt)
	unlock, err := lockFile(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		// The first lock of the directory creates it (a stat on every
		// turn would cost more).
		if err = ensureDir(d.dir, d.sync); err != nil {
			return nil, err
		}
		unlock, err = lockFile(ctx, path)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("lock session %q: %w", id, err)
	}
	return &FileLock{path: path, unlock: unlock}, nil
}

// Unlock releases the lock, keeping its file for the next turn.
func (l *FileLock) Unlock() {
	if l.unlock != nil {
		l.unlock()
		l.unlock = nil
	}
}

// Remove removes the lock file and then releases the lock: for a session
// that was just deleted. From the moment the file is unlinked a newcomer
// creates and locks a new file of the same name (a waiter on the old one
// notices it is stale, see lockFile), so nothing of the session may be
// touched after it.
func (l *FileLock) Remove() error {
	err := os.Remove(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	l.Unlock()
	if err != nil {
		return fmt.Errorf("remove lock file: %w", err)
	}
	return nil
}

// Sweep removes, each under its lock, the lock files in the directory of
// sessions for which gone reports true (they have no data any more: a
// store deleted them but was killed before it removed the lock file, or an
// older soni left it, also as ID.turn). It reads the directory in batches
// and returns how many files it removed.
func (d *LockDir) Sweep(ctx context.Context, gone func(id string) (bool, error)) (int, error) {
	n := 0
	err := readDirBatches(d.dir, func(e fs.DirEntry) error {
		for _, ext := range []string{lockExt, legacyTurn} {
			id, ok := cutExt(e.Name(), ext)
			if !ok {
				continue
			}
			if g, err := gone(id); err != nil || !g {
				return err
			}
			path := filepath.Join(d.dir, e.Name())
			unlock, err := lockFile(ctx, path)
			if err != nil {
				return err
			}
			g, err := gone(id) // a turn may have created it meanwhile
			if err == nil && g {
				err = os.Remove(path)
				if err == nil {
					n++
				} else if errors.Is(err, fs.ErrNotExist) {
					err = nil
				}
			}
			unlock()
			return err
		}
		return nil
	})
	return n, err
}

// cutExt returns the session id of a file name id+ext, if the id is valid.
func cutExt(name, ext string) (string, bool) {
	if len(name) <= len(ext) || name[len(name)-len(ext):] != ext {
		return "", false
	}
	id := name[:len(name)-len(ext)]
	return id, ValidateID(id) == nil
}

// readDirBatches calls f for each entry of dir, reading the directory a
// batch of entries at a time (never the whole listing at once). A missing
// directory has no entries.
func readDirBatches(dir string, f func(fs.DirEntry) error) error {
	onReadDir()
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open directory: %w", err)
	}
	defer d.Close()
	for {
		batch, err := d.ReadDir(pruneBatch)
		for _, e := range batch {
			if ferr := f(e); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read directory: %w", err)
		}
	}
}

// onReadDir is called each time a store starts reading a directory (the
// tests count them).
var onReadDir = func() {}

// pruneBatch is how many directory entries or database rows prune reads
// at a time.
const pruneBatch = 512

// ensureDir creates dir if it does not exist yet; with sync, it makes the
// new directory's entry durable, best effort.
func ensureDir(dir string, sync bool) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	if sync {
		// The parent may not be ours to open.
		_ = syncDir(filepath.Dir(dir))
	}
	return nil
}
