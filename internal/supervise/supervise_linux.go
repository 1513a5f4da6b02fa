//go:build linux

package supervise

// This package imports as little as it can (no os/exec, os/signal or fmt):
// soni's command calls Supervise while its packages are initialized
// (cmd/soni/internal/supervisor), as soon as these few packages are, so
// that a supervisor does not pay for initializing the rest of the program.
// This package has no init of its own: a program that embeds soni and
// never calls Init or Supervise is never exited by it.

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const (
	// argv0 is the name a supervisor is started under; with envKey set
	// to envValue in its environment, it is what init recognises.
	argv0    = "soni-action-supervisor"
	envKey   = "SONI_ACTION_SUPERVISOR"
	envValue = "1"
	// statusFD is the supervisor's end of the pipe on which it reports
	// the command's end: "status N" (a wait status) or "error TEXT" (the
	// command could not be started).
	statusFD = 3
	// controlFD is the supervisor's end of a pipe whose other end only
	// the parent holds and never writes to: it reads end of file when the
	// parent closes it (Stop), or dies, however it dies.
	controlFD = 4
	// stopGrace is how long Stop lets a supervisor kill what the command
	// started before it kills the supervisor itself.
	stopGrace = 5 * time.Second
	// envPrefix prefixes, with the variable's index, each variable of the
	// command's environment in the supervisor's: the supervisor's own
	// environment is not the command's (variables such as GODEBUG or
	// GOMAXPROCS meant for an action written in Go must not change the
	// supervisor), and, unlike arguments, it is not readable by other
	// users.
	envPrefix = "SONI_ACTION_ENV_"
	// raceOptions keep a supervisor built with the race detector from
	// sleeping a second before it exits, as the race runtime does by
	// default; other builds ignore them.
	raceOptions = "GORACE=atexit_sleep_ms=0"
)

// exe is the program started as a supervisor: "" until Init enables it.
var exe string

// Supervise runs the supervisor and exits when this process is a copy of
// the program that Start started as one (its argv[0] and environment say
// so); otherwise it returns at once. Init calls it; a program may call it
// earlier, from an init of its own main package's imports, so that a
// supervisor starts faster.
func Supervise() {
	if len(os.Args) >= 3 && os.Args[0] == argv0 && os.Getenv(envKey) == envValue {
		os.Exit(supervisor(os.Args[1], commandEnv(os.Environ()), os.Args[2:]))
	}
}

// Init must be called first thing in main by a program that wants its
// commands supervised. In a copy of the program started as a supervisor
// it supervises and exits (Supervise); otherwise it enables Start where
// the system allows it.
func Init() {
	Supervise()
	// A supervisor finds the processes to kill in /proc, waits on pidfds
	// (Linux 5.3), and is started through /proc/self/exe, which stays
	// valid when the program's file is replaced or removed while it runs.
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return
	}
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return
	}
	_ = syscall.Close(fd)
	exe = "/proc/self/exe"
}

// Enabled reports whether Init has enabled supervisors in this program.
func Enabled() bool { return exe != "" }

// Cmd is a command to run under a supervisor.
type Cmd struct {
	// Path is the program to start, Args its argv (Args[0] its name).
	Path string
	Args []string
	// Dir is its working directory, Env its whole environment.
	Dir string
	Env []string
	// Stdin, Stdout and Stderr are passed to it as they are.
	Stdin, Stdout, Stderr *os.File
}

// Process is a command running under a supervisor.
type Process struct {
	proc    *os.Process
	status  *os.File // read end of the status pipe
	control *os.File // write end of the control pipe: closed to stop
	mu      sync.Mutex
	stopped bool
	waited  bool
	timer   *time.Timer
}

// StartError is a command the supervisor could not start.
type StartError struct{ Err string }

func (e *StartError) Error() string { return e.Err }

// Start starts a supervisor that runs c, in a process group of its own.
func Start(c Cmd) (*Process, error) {
	if exe == "" {
		return nil, errors.New("action supervisors are not enabled in this program")
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	controlR, controlW, err := os.Pipe()
	if err != nil {
		statusR.Close()
		statusW.Close()
		return nil, err
	}
	proc, err := os.StartProcess(exe, append([]string{argv0, c.Path}, c.Args...), &os.ProcAttr{
		Dir:   c.Dir,
		Env:   supervisorEnv(c.Env),
		Files: []*os.File{c.Stdin, c.Stdout, c.Stderr, statusW, controlR},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	statusW.Close()
	controlR.Close()
	if err != nil {
		statusR.Close()
		controlW.Close()
		return nil, err
	}
	return &Process{proc: proc, status: statusR, control: controlW}, nil
}

// supervisorEnv returns the environment of a supervisor for a command
// with environment env.
func supervisorEnv(env []string) []string {
	s := make([]string, 0, 2+len(env))
	s = append(s, envKey+"="+envValue, raceOptions)
	for i, kv := range env {
		s = append(s, envPrefix+strconv.Itoa(i)+"="+kv)
	}
	return s
}

// commandEnv is the inverse of supervisorEnv.
func commandEnv(environ []string) []string {
	env := []string{}
	for _, kv := range environ {
		rest, ok := strings.CutPrefix(kv, envPrefix)
		if !ok {
			continue
		}
		i, entry, ok := strings.Cut(rest, "=")
		n, err := strconv.Atoi(i)
		if !ok || err != nil || n < 0 || n >= len(environ) {
			continue
		}
		for len(env) <= n {
			env = append(env, "")
		}
		env[n] = entry
	}
	return env
}

// Stop tells the supervisor to kill the command and everything it
// started; Wait returns once they are all gone. A supervisor that has not
// ended stopGrace later is killed (and the command with it, by its
// parent-death signal). Stop may be called while Wait runs, and after.
func (p *Process) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.waited {
		return
	}
	p.stopped = true
	p.control.Close()
	p.timer = time.AfterFunc(stopGrace, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.waited {
			_ = p.proc.Kill()
		}
	})
}

// Wait waits for the supervisor to end, which it does once the command
// and everything it started are gone, and returns the command's wait
// status; the error is a *StartError when the command could not be
// started.
func (p *Process) Wait() (syscall.WaitStatus, error) {
	state, werr := p.proc.Wait()
	p.mu.Lock()
	p.waited = true
	if p.timer != nil {
		p.timer.Stop()
	}
	if !p.stopped {
		p.control.Close()
	}
	p.mu.Unlock()
	// Only the supervisor held the pipe's write end (the command never
	// inherits it), so the pipe is at its end now.
	var buf [512]byte
	n, _ := p.status.Read(buf[:])
	p.status.Close()
	line := strings.TrimSuffix(string(buf[:n]), "\n")
	if rest, ok := strings.CutPrefix(line, "status "); ok {
		if n, err := strconv.Atoi(rest); err == nil {
			return syscall.WaitStatus(n), nil
		}
	}
	if rest, ok := strings.CutPrefix(line, "error "); ok {
		return 0, &StartError{Err: rest}
	}
	if werr == nil {
		werr = errors.New(state.String() + ", with no report")
	}
	return 0, errors.New("the action supervisor failed: " + werr.Error())
}

// supervisor is the main of a supervisor process: it runs path with env
// and argv and reports its end on statusFD. Its exit status is 0 unless it
// could not report.
func supervisor(path string, env, argv []string) int {
	syscall.CloseOnExec(statusFD)
	syscall.CloseOnExec(controlFD)
	report := func(s string) int {
		if _, err := syscall.Write(statusFD, []byte(s+"\n")); err != nil {
			return 1
		}
		return 0
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return report("error cannot supervise: " + err.Error())
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return report("error " + err.Error())
	}
	pidfd, err := unix.PidfdOpen(pid, 0) // pid is our child, not yet reaped
	if err != nil {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		killTree(os.Getpid())
		reapAll(pid)
		return report("error cannot supervise: " + err.Error())
	}
	return report("status " + strconv.Itoa(int(watch(pid, pidfd))))
}

// watch waits for the command pid to end (its pidfd is readable), or for
// the control pipe to reach its end (the parent stops the command, or
// died), then kills everything left of it, and returns the command's wait
// status once no descendant is left. Only the supervisor reaps, so the pid
// of a process it has not reaped cannot be reused under it.
func watch(pid, pidfd int) syscall.WaitStatus {
	fds := []unix.PollFd{{Fd: controlFD, Events: unix.POLLIN}, {Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, -1)
		if (err == nil && n > 0) || (err != nil && err != syscall.EINTR) {
			break
		}
	}
	_ = syscall.Close(pidfd)
	// The command, dead or alive, is not reaped yet, so its pid still
	// names its process group: kill the group, then, if the command was
	// stopped, every descendant.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	if !exited(pid) {
		killTree(os.Getpid())
	}
	return reapAll(pid)
}

// reapAll reaps the command pid, then every other descendant, killing
// those that are left, and returns the command's wait status once none is.
func reapAll(pid int) syscall.WaitStatus {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	// Reap what has ended; kill what is left, and wait for it to end.
	for {
		var other syscall.WaitStatus
		p, err := syscall.Wait4(-1, &other, syscall.WNOHANG, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil: // ECHILD: no child, so no descendant, is left
			return ws
		case p > 0:
			continue
		}
		killTree(os.Getpid())
		for {
			_, err = syscall.Wait4(-1, &other, 0, nil)
			if err != syscall.EINTR {
				break
			}
		}
		if err != nil {
			return ws
		}
	}
}

// exited reports whether the child pid has ended and waits to be reaped.
func exited(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err == nil && info.Signo != 0
}
