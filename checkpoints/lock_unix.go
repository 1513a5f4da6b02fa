//go:build unix

package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// lockSupported reports whether FileStore can lock sessions here.
const lockSupported = true

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
// The lock file may be removed by Delete while others wait on it. After
// locking, lockFile therefore checks that the locked file is still the one
// at path, and starts again if it is not; otherwise two holders could lock
// two different files of the same name.
func lockFile(ctx context.Context, path string) (func(), error) {
	wait := lockWaitMin
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
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

// samePath reports whether the open file f is the file now at path.
func samePath(f *os.File, path string) (bool, error) {
	held, err := f.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Stat(path)
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
