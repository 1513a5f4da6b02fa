//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

// Set makes the command the leader of a new process group, so that
// Kill reaches every process it starts, and, where the system has one,
// asks for a signal to the command when soni itself dies (see
// setParentDeathSignal).
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// Kill kills the process group led by p with SIGKILL. A group that no
// longer exists is not an error.
func Kill(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
