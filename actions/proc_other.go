//go:build !unix

package actions

import (
	"os"
	"os/exec"
)

// setGroup does nothing where process groups are not available.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills the process itself where process groups are not
// available; processes it started may survive it.
func killGroup(p *os.Process) {
	_ = p.Kill()
}
