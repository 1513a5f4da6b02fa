//go:build unix

package actions

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Holder watches the processes an action's script starts, through a
// named pipe they hold open for writing. The script opens it, starts them
// (they inherit it, so no start can race the watch), writes a line, and
// closes its own copy:
//
//	exec 3>hold.fifo; sleep 60 & echo started >&3; exec 3>&-
//
// Started is closed once the line arrives, Ended once every process
// holding the pipe has ended, when its read end reads EOF. The test waits
// on them, never on a clock: a process that runs on keeps the pipe open.
type Holder struct {
	Started, Ended chan struct{}
}

// Hold makes the named pipe name in dir and watches it. It is exported
// for the package's external tests too.
func Hold(t *testing.T, dir, name string) *Holder {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	h := &Holder{Started: make(chan struct{}), Ended: make(chan struct{})}
	go func() {
		defer close(h.Ended)
		var once sync.Once
		start := func() { once.Do(func() { close(h.Started) }) }
		defer start()
		f, err := os.Open(path) // returns once the script opens it
		if err != nil {
			return
		}
		defer f.Close()
		r := bufio.NewReader(f)
		if _, err := r.ReadString('\n'); err != nil {
			return
		}
		start()
		_, _ = io.Copy(io.Discard, r)
	}()
	return h
}

// holdBound only keeps a process that outlives its action from hanging
// the test: the wait ends as soon as the process does.
const holdBound = 30 * time.Second

// WaitEnded fails the test if the processes holding the pipe still run
// after holdBound.
func (h *Holder) WaitEnded(t *testing.T, what string) {
	t.Helper()
	select {
	case <-h.Ended:
	case <-time.After(holdBound):
		t.Errorf("%s still runs after the action ended", what)
	}
}
