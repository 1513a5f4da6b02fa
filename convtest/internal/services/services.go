// Package services starts the local backends that a conversation test
// file declares under services:, so that its cases run their actions
// against real programs with nothing started beforehand (see
// docs/testing.md, "Services").
//
// A service is a command that serves until it is killed and, once it
// listens, prints its base URL (http:// or https://) on a line of its
// standard output; the fake APIs in internal/ print "fake travel API on
// http://127.0.0.1:40123 (Ctrl-C stops it)". Start waits for that line,
// and the test runner hands the URL to the actions in the environment
// variable the file names. Stop kills the command with everything it
// started (a `go run` builds and starts a program).
package services

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/soni-dev/soni/internal/procgroup"
)

// DefaultWait bounds how long a service may take to print its URL: a
// `go run` on a cold build cache compiles first.
const DefaultWait = 3 * time.Minute

// exitGrace is how long a service that closed its stdout is given to exit,
// and how long Stop waits for processes that left the service's group.
var exitGrace = 5 * time.Second

// stderrTail is how much of a service's stderr a failure quotes.
const stderrTail = 2 << 10

// urlRE finds the URL a service prints.
var urlRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>()]+`) })

// Spec is one service of a test file.
type Spec struct {
	// Env is the environment variable that receives the service's URL.
	Env string
	// Command is the program and its arguments.
	Command []string
}

// Service is a started service.
type Service struct {
	Spec
	// URL is the base URL the service printed.
	URL string

	cmd    *exec.Cmd
	exited chan struct{}
	// drained is closed when the service's stdout is closed at every
	// end: the service and all it started have exited.
	drained chan struct{}
	stderr  *tail
}

// Start runs spec.Command in dir, with the process environment, and waits
// until it prints its URL on stdout. It fails, naming the service and
// quoting the end of its stderr, when the command cannot start, exits or
// closes its stdout first, or takes longer than wait (DefaultWait when 0)
// or ctx allows; nothing is left running then.
func Start(ctx context.Context, dir string, spec Spec, wait time.Duration) (*Service, error) {
	if len(spec.Command) == 0 || spec.Command[0] == "" {
		return nil, fmt.Errorf("service %s has no command", spec.Env)
	}
	if wait <= 0 {
		wait = DefaultWait
	}
	s := &Service{Spec: spec, exited: make(chan struct{}), stderr: &tail{max: stderrTail}}
	s.cmd = exec.Command(spec.Command[0], spec.Command[1:]...)
	s.cmd.Dir = dir
	s.cmd.Env = os.Environ()
	s.cmd.Stderr = s.stderr
	// After the command exits, what it started may hold stderr open: Wait
	// gives up on it after this long (they are killed with the group).
	s.cmd.WaitDelay = 2 * time.Second
	// Stdout is a pipe of our own, so that Wait never closes it under the
	// reader.
	stdout, outW, err := os.Pipe()
	if err != nil {
		return nil, s.fail("cannot start: %v", err)
	}
	s.cmd.Stdout = outW
	procgroup.Set(s.cmd)
	err = s.cmd.Start()
	outW.Close()
	if err != nil {
		stdout.Close()
		var pe *os.PathError
		var ee *exec.Error
		switch {
		case errors.As(err, &ee):
			err = ee.Err
		case errors.As(err, &pe):
			err = pe.Err
		}
		return nil, s.fail("cannot start: %v", err)
	}
	found := make(chan string, 1)
	s.drained = make(chan struct{})
	go func() {
		defer close(s.drained)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 4096), 64<<10)
		sent := false
		for sc.Scan() {
			if sent {
				continue // keep the pipe drained
			}
			if u := urlRE().FindString(sc.Text()); u != "" {
				found <- strings.TrimRight(u, ".,;:")
				sent = true
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		stdout.Close()
		if !sent {
			close(found)
		}
	}()
	waitErr := make(chan error, 1)
	go func() {
		err := s.cmd.Wait()
		waitErr <- err
		close(s.exited)
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case u, ok := <-found:
		if ok {
			s.URL = u
			return s, nil
		}
		// Stdout closed: most likely the command is exiting.
		grace := time.NewTimer(exitGrace)
		defer grace.Stop()
		select {
		case err := <-waitErr:
			s.kill()
			return nil, s.fail("exited before printing its URL: %s", exitText(err))
		case <-grace.C:
		}
		s.kill()
		return nil, s.fail("closed its standard output without printing its URL")
	case err := <-waitErr:
		s.kill() // whatever it started
		return nil, s.fail("exited before printing its URL: %s", exitText(err))
	case <-timer.C:
		s.kill()
		return nil, s.fail("printed no URL within %s", wait)
	case <-ctx.Done():
		s.kill()
		return nil, s.fail("stopped before it printed its URL: %v", ctx.Err())
	}
}

// Stop kills the service and everything it started, and waits until
// they are gone: until every process that held its standard output has
// exited (or, for one that escaped its process group, for exitGrace).
func (s *Service) Stop() {
	s.kill()
	t := time.NewTimer(exitGrace)
	defer t.Stop()
	select {
	case <-s.drained:
	case <-t.C:
	}
}

func (s *Service) kill() {
	procgroup.Kill(s.cmd.Process)
	<-s.exited
}

// fail words a failure of the service, with the end of its stderr.
func (s *Service) fail(format string, args ...any) error {
	msg := fmt.Sprintf("service %s (%s) %s", s.Env, strings.Join(s.Command, " "), fmt.Sprintf(format, args...))
	if t := s.stderr.String(); t != "" {
		msg += fmt.Sprintf("; stderr: %q", t)
	}
	return errors.New(msg)
}

// exitText says how a command ended.
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
