//go:build linux

package services

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sh(script string) Spec { return Spec{Env: "API_URL", Command: []string{"sh", "-c", script}} }

// TestStartAndStop: the URL is taken from the first line that has one,
// the service runs in its directory, and Stop kills what it started too.
func TestStartAndStop(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(context.Background(), dir, sh(`sleep 600 & echo $! > child.pid; echo starting; echo "fake API on http://127.0.0.1:40123/v1 (Ctrl-C stops it)"; wait`), 0)
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:40123/v1", s.URL)
	b, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	require.NoError(t, err, "the command runs in dir")
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(pid, 0), "the child runs")
	s.Stop()
	assert.True(t, exits(t, pid), "the child was killed with the service")
}

// exits reports whether the process exits within a generous bound: it
// waits on a pidfd (Linux 5.3+), which becomes readable when the process
// has exited, so the answer does not depend on timing.
func exits(t *testing.T, pid int) bool {
	fd, _, errno := syscall.Syscall(434 /* pidfd_open */, uintptr(pid), 0, 0)
	switch errno {
	case 0:
	case syscall.ESRCH:
		return true // already reaped
	default:
		t.Skipf("pidfd_open: %v", errno)
	}
	defer syscall.Close(int(fd))
	var set syscall.FdSet
	set.Bits[int(fd)/64] |= 1 << (uint(fd) % 64)
	tv := syscall.Timeval{Sec: 30}
	n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
	require.NoError(t, err)
	return n == 1
}

func TestStartFailures(t *testing.T) {
	defer func(g time.Duration) { exitGrace = g }(exitGrace)
	long := exitGrace
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		spec Spec
		wait time.Duration
		want string
	}{
		{"exits", context.Background(), sh(`echo the port is taken >&2; exit 4`), 0,
			`service API_URL (sh -c echo the port is taken >&2; exit 4) exited before printing its URL: exit status 4; stderr: "the port is taken"`},
		{"no url, stdout closed", context.Background(), sh(`echo ready; exec 1>&-; sleep 600`), 0,
			`closed its standard output without printing its URL`},
		{"no url in time", context.Background(), sh(`sleep 600`), time.Millisecond, `printed no URL within 1ms`},
		{"cancelled", cancelled, sh(`sleep 600`), 0, `stopped before it printed its URL: context canceled`},
		{"no such program", context.Background(), Spec{Env: "API_URL", Command: []string{"no-such-program-soni"}}, 0,
			`service API_URL (no-such-program-soni) cannot start: executable file not found in $PATH`},
		{"no command", context.Background(), Spec{Env: "API_URL"}, 0, `service API_URL has no command`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A service that closes stdout and keeps running gets
			// exitGrace to exit first: a short one for that case, the
			// long one for the service that does exit.
			exitGrace = long
			if strings.Contains(tc.name, "stdout closed") {
				exitGrace = time.Millisecond
			}
			s, err := Start(tc.ctx, t.TempDir(), tc.spec, tc.wait)
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
