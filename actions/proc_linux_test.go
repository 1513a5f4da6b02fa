//go:build linux

package actions

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/vm"
)

const deathParentEnv = "SONI_TEST_DEATH_PARENT_DIR"

// TestActionDiesWithSoni kills, with SIGKILL, a process that is running a
// hanging exec action, as when soni itself is killed mid-turn. The action
// must not keep running: the kernel's parent-death signal kills it.
func TestActionDiesWithSoni(t *testing.T) {
	if dir := os.Getenv(deathParentEnv); dir != "" {
		// The parent: run an action that hangs, until killed.
		r := New(nil, dir, Options{Timeout: time.Hour})
		_, _ = r.RunAction(context.Background(), vm.ActionRequest{Action: "hang", Decl: execDecl("hang", []string{"./hang.sh"})})
		return
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pid.fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	// exec: the hanging sleep is the action's own process, the direct child.
	script(t, dir, "hang.sh", `echo $$ > pid.fifo; exec sleep 3600`)
	exe, err := os.Executable()
	require.NoError(t, err)
	parent := exec.Command(exe, "-test.run=^TestActionDiesWithSoni$")
	parent.Env = append(os.Environ(), deathParentEnv+"="+dir)
	require.NoError(t, parent.Start())
	b, err := os.ReadFile(fifo) // blocks until the action runs
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	require.False(t, processGone(pid), "the action is not running")

	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	_ = parent.Wait()
	assert.Eventually(t, func() bool { return processGone(pid) }, 10*time.Second, 10*time.Millisecond,
		"action %d outlived the process that ran it", pid)
	if !processGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
