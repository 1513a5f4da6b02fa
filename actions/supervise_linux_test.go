//go:build linux

package actions

import (
	"context"
	"encoding/json"
	"errors"
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
	"golang.org/x/sys/unix"

	"github.com/soni-dev/soni/vm"
)

// The tests below start, as "soni", a copy of the test binary that runs
// one action and is then killed with SIGKILL. These variables tell the
// copy what to run.
const (
	parentDirEnv   = "SONI_TEST_PARENT_DIR"
	parentInputEnv = "SONI_TEST_PARENT_INPUT_BYTES"
	parentGroupEnv = "SONI_TEST_PARENT_GROUP_ONLY"
)

// fifos makes named pipes in dir, one per name: a process of an action
// writes its pid into one, and the test reads it, waiting for nothing else.
func fifos(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, n), 0o600))
	}
}

// pidFrom reads the pid written into the fifo name. The read blocks until a
// process writes it; failed, when the action ends first, stops the wait.
func pidFrom(t *testing.T, dir, name string, failed <-chan error) int {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		got <- strings.TrimSpace(string(b))
	}()
	select {
	case s := <-got:
		pid, err := strconv.Atoi(s)
		require.NoError(t, err, "fifo %s", name)
		return pid
	case err := <-failed:
		// Open the fifo for writing so that the reader returns.
		if f, ferr := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY, 0); ferr == nil {
			f.Close()
		}
		t.Fatalf("the action ended before writing %s: %v", name, err)
		return 0
	}
}

// waitGone waits, on a pidfd, for process pid to end, and fails the test
// if it still runs after bound (a bound, not a measure: the wait ends as
// soon as the process does).
func waitGone(t *testing.T, pid int, bound time.Duration, what string) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return
	}
	require.NoError(t, err)
	defer unix.Close(fd)
	n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(bound.Milliseconds()))
	require.NoError(t, err)
	if n == 0 {
		_ = unix.PidfdSendSignal(fd, syscall.SIGKILL, nil, 0)
		t.Errorf("%s (pid %d) outlived the action", what, pid)
	}
}

// escapeScript starts, besides the action's own shell: a child that
// stays in the action's process group and is waited for (as `go run` waits
// for the program it built), a child that leaves the group with setsid,
// and a grandchild orphaned by a double fork. Each writes its pid to a
// fifo; the action writes its own and its parent's.
const escapeScript = `
sh -c 'echo $$ > child.fifo; exec sleep 3600' &
setsid sh -c 'echo $$ > setsid.fifo; exec sleep 3600' &
(sh -c 'echo $$ > orphan.fifo; exec sleep 3600' &)
echo $$ > action.fifo
echo $PPID > parent.fifo
wait`

var escapeFifos = []string{"child.fifo", "setsid.fifo", "orphan.fifo", "action.fifo", "parent.fifo"}

// TestExecStopKillsEveryDescendant cancels an action whose processes left
// its process group: when RunAction returns, none of them is left, not
// even one that called setsid (a process-group kill misses that one).
func TestExecStopKillsEveryDescendant(t *testing.T) {
	dir := t.TempDir()
	fifos(t, dir, escapeFifos...)
	script(t, dir, "escape.sh", "cat >/dev/null"+escapeScript)
	r := New(nil, dir, Options{})
	require.True(t, r.supervised, "the test binary enables supervisors in TestMain")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := r.RunAction(ctx, vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./escape.sh"})})
		done <- err
	}()
	pids := map[string]int{}
	for _, f := range escapeFifos[:4] {
		pids[f] = pidFrom(t, dir, f, done)
	}
	pidFrom(t, dir, "parent.fifo", done)
	cancel()
	err := <-done
	require.Error(t, err)
	assert.Contains(t, err.Error(), `command "./escape.sh" was stopped: context canceled`)
	// Nothing is polled: RunAction returns only once they are all gone.
	assert.Empty(t, processesIn(t, dir), "processes still run in the action's directory")
	for f, pid := range pids {
		assert.True(t, processGone(pid), "%s: pid %d still runs after RunAction returned", f, pid)
		if !processGone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestExecStopKillsAForkingTree stops an action that keeps starting
// processes that leave its group: the supervisor freezes the tree before
// it kills it, so none is started behind its back, and when RunAction
// returns no process runs in the action's directory.
func TestExecStopKillsAForkingTree(t *testing.T) {
	dir := t.TempDir()
	fifos(t, dir, "action.fifo")
	script(t, dir, "forks.sh", `cat >/dev/null; echo $$ > action.fifo; while :; do setsid sleep 3600 & done`)
	r := New(nil, dir, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := r.RunAction(ctx, vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./forks.sh"})})
		done <- err
	}()
	pidFrom(t, dir, "action.fifo", done)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	left := processesIn(t, dir)
	assert.Empty(t, left, "processes still run in the action's directory")
	for _, pid := range left {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// processesIn returns the running processes whose working directory is
// dir.
func processesIn(t *testing.T, dir string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir && !processGone(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestExecLeftoversThatLeftTheGroupDoNotOutliveTheAction: an action that
// succeeds but leaves a setsid process running is not over until that
// process is killed.
func TestExecLeftoversThatLeftTheGroupDoNotOutliveTheAction(t *testing.T) {
	dir := t.TempDir()
	fifos(t, dir, "g.fifo")
	script(t, dir, "daemon.sh", `cat >/dev/null
setsid sh -c 'echo $$ > g.fifo; exec sleep 3600' >/dev/null 2>&1 &
read pid < g.fifo
echo "$pid" > daemon.pid
echo '{"ok": true}'`)
	r := New(nil, dir, Options{})
	out, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./daemon.sh"}, "ok")})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"ok": true}, out)
	b, err := os.ReadFile(filepath.Join(dir, "daemon.pid"))
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	assert.True(t, processGone(pid), "the setsid process %d still runs after RunAction returned", pid)
	if !processGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// startParent starts a copy of the test binary that runs one action in
// dir, until killed.
func startParent(t *testing.T, test, dir string, env ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	parent := exec.Command(exe, "-test.run=^"+test+"$")
	parent.Env = append(append(os.Environ(), parentDirEnv+"="+dir), env...)
	parent.Stderr = os.Stderr
	require.NoError(t, parent.Start())
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })
	return parent
}

// runAsParent runs the action ./action.sh in dir until the test kills this
// process, when the test binary is a parent started by startParent.
func runAsParent() bool {
	dir := os.Getenv(parentDirEnv)
	if dir == "" {
		return false
	}
	r := New(nil, dir, Options{Timeout: time.Hour})
	if os.Getenv(parentGroupEnv) != "" {
		r.supervised = false
	}
	inputs := map[string]any{"account_type": "checking"}
	if n, _ := strconv.Atoi(os.Getenv(parentInputEnv)); n > 0 {
		inputs["note"] = strings.Repeat("x", n)
	}
	_, _ = r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Inputs: inputs, Decl: execDecl("act", []string{"./action.sh"})})
	return true
}

// TestActionTreeDiesWithSoni kills, with SIGKILL, a soni that is running
// an action, and checks that every process of the action dies: the
// action's own, the program a `go run`-like wrapper waits for, one that
// left the group with setsid, an orphan, and the supervisor. (A
// parent-death signal on soni's direct child kills only the first.)
func TestActionTreeDiesWithSoni(t *testing.T) {
	if runAsParent() {
		return
	}
	dir := t.TempDir()
	fifos(t, dir, escapeFifos...)
	script(t, dir, "action.sh", "cat >/dev/null"+escapeScript)
	parent := startParent(t, "TestActionTreeDiesWithSoni", dir)
	failed := make(chan error, 1)
	go func() { failed <- parent.Wait() }()
	pids := map[string]int{}
	for _, f := range escapeFifos {
		pids[f] = pidFrom(t, dir, f, failed)
	}
	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	<-failed
	for _, f := range escapeFifos {
		if pids[f] != parent.Process.Pid {
			waitGone(t, pids[f], 10*time.Second, strings.TrimSuffix(f, ".fifo"))
		}
	}
}

// TestActionNeverReadsAPartialRequest kills, with SIGKILL, a soni that
// runs an action with a large request, before the action reads its stdin.
// Soni runs it here without a supervisor, so that a child of the action
// survives (as on systems without one) and reads its stdin afterwards: it
// must read the whole request, never a cut or empty one.
func TestActionNeverReadsAPartialRequest(t *testing.T) {
	if runAsParent() {
		return
	}
	dir := t.TempDir()
	fifos(t, dir, "child.fifo", "gate.fifo", "done.fifo")
	// The child reads stdin only after the test opens the gate. (sh gives
	// a background command /dev/null for stdin unless told otherwise.)
	script(t, dir, "action.sh", `exec 3<&0
sh -c 'echo $$ > child.fifo; read go < gate.fifo; cat > request.json; echo $$ > done.fifo' <&3 3<&- &
wait`)
	const size = 1 << 20 // far more than a pipe holds
	parent := startParent(t, "TestActionNeverReadsAPartialRequest", dir,
		parentInputEnv+"="+strconv.Itoa(size), parentGroupEnv+"=1")
	failed := make(chan error, 1)
	go func() { failed <- parent.Wait() }()
	child := pidFrom(t, dir, "child.fifo", failed)
	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	<-failed
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gate.fifo"), []byte("go\n"), 0o600))
	pidFrom(t, dir, "done.fifo", nil)
	waitGone(t, child, 10*time.Second, "the child")
	b, err := os.ReadFile(filepath.Join(dir, "request.json"))
	require.NoError(t, err)
	var req struct {
		Inputs map[string]any `json:"inputs"`
	}
	require.NoError(t, json.Unmarshal(b, &req), "the action read %d bytes of its request", len(b))
	assert.Len(t, req.Inputs["note"], size)
}

// TestActionDiesWithSoniInAProcessGroup: without a supervisor, a killed
// soni still takes the command's own process with it, by the parent-death
// signal the command is started with (what it started may survive: see
// docs/actions.md).
func TestActionDiesWithSoniInAProcessGroup(t *testing.T) {
	if runAsParent() {
		return
	}
	dir := t.TempDir()
	fifos(t, dir, "action.fifo")
	// exec: the hanging sleep is the action's own process, soni's child.
	script(t, dir, "action.sh", `echo $$ > action.fifo; exec sleep 3600`)
	parent := startParent(t, "TestActionDiesWithSoniInAProcessGroup", dir, parentGroupEnv+"=1")
	failed := make(chan error, 1)
	go func() { failed <- parent.Wait() }()
	pid := pidFrom(t, dir, "action.fifo", failed)
	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	<-failed
	waitGone(t, pid, 10*time.Second, "the action")
}
