//go:build !unix

package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// errLockUnsupported is returned where flock(2) does not exist: without a
// lock the compare-and-swap could not be honoured across processes, and a
// FileStore refuses to save rather than risk losing a turn.
var errLockUnsupported = errors.New("checkpoint file locking is not supported on " + runtime.GOOS + "; use a unix system")

// lockFile fails: see errLockUnsupported.
func lockFile(context.Context, string) (func(), error) {
	return nil, errLockUnsupported
}

// openNoFollow opens path like os.OpenFile. Without O_NOFOLLOW it checks
// for a symbolic link first; the file store cannot save here anyway.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%q is a symbolic link; the checkpoint directory holds only regular files: remove the link", filepath.Base(path))
	}
	return os.OpenFile(path, flag, perm)
}
