//go:build unix

package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Backoff bounds while waiting for a lock held by someone else.
const (
	lockWaitMin = 50 * time.Microsecond
	lockWaitMax = 5 * time.Millisecond
)

// lockFile takes an exclusive flock(2) on path, creating the file if needed,
// and returns the function that releases it. flock locks belong to an open
// file description, so they exclude other processes and other goroutines of
// this one alike, and the kernel drops them when a process dies. lockFile
// waits until the lock is free or ctx is done.
//
// The guarantee: holders exclude each other as long as a holder removes the
// lock file only as the very last thing it does before unlocking, as Delete
// does. Others may wait on the file meanwhile, so after locking, lockFile
// checks that the locked file is still the one at path, and starts again if
// it is not; otherwise two holders could lock two different files of the
// same name. A symbolic link at path is refused, never followed.
func lockFile(ctx context.Context, path string) (func(), error) {
	wait := lockWaitMin
	for {
		f, err := openNoFollow(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		fd := int(f.Fd())
		for {
			err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil || !(errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR)) {
				break
			}
			if werr := sleep(ctx, wait); werr != nil {
				_ = f.Close()
				return nil, werr
			}
			wait = min(2*wait, lockWaitMax)
		}
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("flock %q: %w", path, err)
		}
		same, err := samePath(f, path)
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		if same {
			return func() {
				_ = syscall.Flock(fd, syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		_ = f.Close() // it was removed or replaced; lock the new one
	}
}

// openNoFollow opens path like os.OpenFile but refuses a symbolic link in
// its last element, so a link planted in the checkpoint directory can never
// make the store read or create a file elsewhere.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%q is a symbolic link; the checkpoint directory holds only regular files: remove the link", filepath.Base(path))
	}
	return f, err
}

// samePath reports whether the open file f is the file now at path.
func samePath(f *os.File, path string) (bool, error) {
	held, err := f.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(held, now), nil
}

// sleep waits for d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
