//go:build linux

package actions

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/soni-dev/soni/internal/supervise"
)

// start starts a command: under a supervisor when the runner has them,
// else in a process group of its own.
func (r *Runner) start(s startSpec) (process, error) {
	if !r.supervised {
		return startGroup(s)
	}
	p, err := supervise.Start(supervise.Cmd{
		Path: s.path, Args: s.args, Dir: s.dir, Env: s.env,
		Stdin: s.stdin, Stdout: s.stdout, Stderr: s.stderr,
	})
	if err != nil {
		return nil, err
	}
	return supervisedProcess{p}, nil
}

// supervisedProcess is a command run under a supervisor, which kills
// everything the command started when it ends or is stopped, and when
// soni dies.
type supervisedProcess struct{ p *supervise.Process }

func (s supervisedProcess) wait() error {
	ws, err := s.p.Wait()
	var se *supervise.StartError
	if errors.As(err, &se) {
		return &startError{text: se.Err}
	}
	if err != nil {
		return err
	}
	if ws.Exited() && ws.ExitStatus() == 0 {
		return nil
	}
	return &exitError{text: waitText(ws)}
}

func (s supervisedProcess) kill() { s.p.Stop() }

// waitText describes a wait status the way os.ProcessState does.
func waitText(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return fmt.Sprintf("exit status %d", ws.ExitStatus())
	case ws.Signaled() && ws.CoreDump():
		return "signal: " + ws.Signal().String() + " (core dumped)"
	case ws.Signaled():
		return "signal: " + ws.Signal().String()
	}
	return fmt.Sprintf("wait status %d", int(ws))
}

// requestFile returns a file that holds the request, read from its start:
// a memory file, or a temporary file where the kernel has none.
func requestFile(body []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("soni-request", unix.MFD_CLOEXEC)
	if err != nil {
		return tempRequestFile(body)
	}
	return fillRequestFile(os.NewFile(uintptr(fd), "request"), body)
}
