//go:build !unix

package checkpoints

import (
	"context"
	"errors"
	"runtime"
)

// lockSupported reports whether FileStore can lock sessions here.
const lockSupported = false

// errLockUnsupported is returned where flock(2) does not exist: without a
// lock the compare-and-swap could not be honoured across processes, and a
// FileStore refuses to save rather than risk losing a turn.
var errLockUnsupported = errors.New("checkpoint file locking is not supported on " + runtime.GOOS + "; use a unix system")

// lockFile fails: see errLockUnsupported.
func lockFile(context.Context, string) (func(), error) {
	return nil, errLockUnsupported
}
