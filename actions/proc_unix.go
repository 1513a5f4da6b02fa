//go:build unix

package actions

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup makes the command the leader of a new process group, so that
// killGroup reaches every process it starts, and, where the system has one,
// asks for a signal to the command when soni itself dies (see
// setParentDeathSignal).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// killGroup kills the process group led by p with SIGKILL. A group that no
// longer exists is not an error.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
