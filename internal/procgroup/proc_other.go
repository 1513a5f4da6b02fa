//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Set does nothing where process groups are not available.
func Set(cmd *exec.Cmd) {}

// Kill kills the process itself where process groups are not
// available; processes it started may survive it.
func Kill(p *os.Process) {
	_ = p.Kill()
}
