package actions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/soni-dev/soni/internal/procgroup"
	"github.com/soni-dev/soni/ir"
)

// baseEnv are the variables every command gets, when they are set.
var baseEnv = []string{"PATH", "HOME", "TMPDIR", "LANG"}

// goEnv are the extra variables a command gets when it is the go tool, so
// that `go run` finds its caches and settings.
var goEnv = []string{"GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN", "GOROOT"}

// pipeGrace is how long the runner waits for a command's output pipes to
// close after the command and what it started were killed; a process that
// escaped the kill and still holds them is not waited for.
const pipeGrace = 2 * time.Second

var errTimeout = errors.New("action timeout")

// runExec runs a declared command: the request JSON body on stdin, the
// outputs as one JSON object on stdout.
func (r *Runner) runExec(ctx context.Context, body []byte, decl *ir.Action, timeout time.Duration) (map[string]any, error) {
	run := decl.Run
	name := run.Exec[0]
	dir := r.execDir(decl)
	path, err := resolveCommand(dir, name)
	if err != nil {
		return nil, err
	}

	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()

	// The whole request is in stdin before the command starts: whatever
	// happens to soni afterwards, the command never reads a cut request.
	stdin, err := requestFile(body)
	if err != nil {
		return nil, fmt.Errorf("command %q: cannot pass it the request: %v", name, err)
	}
	defer stdin.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("command %q: %v", name, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("command %q: %v", name, err)
	}
	proc, err := r.start(startSpec{
		path: path, args: append([]string{name}, run.Exec[1:]...), dir: dir,
		env: r.commandEnv(run, name), stdin: stdin, stdout: outW, stderr: errW,
	})
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("cannot start command %q: %v", name, unwrapPathError(err))
	}

	var (
		stdout    = &capWriter{max: r.opts.MaxOutput}
		stderr    = &tailWriter{max: stderrTail}
		overflow  = make(chan struct{})
		overOnce  sync.Once
		readers   sync.WaitGroup
		readersOK = make(chan struct{})
	)
	stdout.onOverflow = func() { overOnce.Do(func() { close(overflow) }) }
	readers.Add(2)
	go func() { defer readers.Done(); _, _ = io.Copy(stdout, outR) }()
	go func() { defer readers.Done(); _, _ = io.Copy(stderr, errR) }()
	go func() { readers.Wait(); close(readersOK) }()

	waited := make(chan error, 1)
	go func() { waited <- proc.wait() }()

	var waitErr error
	select {
	case waitErr = <-waited:
	case <-ctx.Done():
		proc.kill()
		waitErr = <-waited
	case <-overflow:
		proc.kill()
		waitErr = <-waited
	}
	// The command has exited: whatever it left running goes with it,
	// which also closes the pipes those processes held.
	proc.kill()
	select {
	case <-readersOK:
	case <-time.After(pipeGrace):
	}
	outR.Close()
	errR.Close()
	<-readersOK

	var startErr *startError
	switch {
	case stdout.overflowed():
		return nil, fmt.Errorf("command %q failed: output larger than %s%s", name, sizeText(r.opts.MaxOutput), stderr.suffix())
	case errors.As(waitErr, &startErr):
		return nil, fmt.Errorf("cannot start command %q: %v", name, startErr)
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), errTimeout):
		return nil, fmt.Errorf("command %q timed out after %s and was killed%s", name, timeout, stderr.suffix())
	case ctx.Err() != nil:
		return nil, fmt.Errorf("command %q was stopped: %w%s", name, ctx.Err(), stderr.suffix())
	}
	var exitErr *exitError
	if errors.As(waitErr, &exitErr) {
		return nil, fmt.Errorf("command %q failed: %v%s", name, exitErr, stderr.suffix())
	}
	if waitErr != nil {
		return nil, fmt.Errorf("command %q failed: %v%s", name, waitErr, stderr.suffix())
	}
	out, err := decodeOutputs(stdout.buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("command %q failed: %v%s", name, err, stderr.suffix())
	}
	return out, nil
}

// startSpec is a command to start: args[0] is the name it runs under.
type startSpec struct {
	path, dir             string
	args, env             []string
	stdin, stdout, stderr *os.File
}

// process is a started command.
type process interface {
	// wait waits for the command to end. It returns nil when it exited
	// with status 0, an *exitError when it ended otherwise, and a
	// *startError when it could not be started after all.
	wait() error
	// kill kills the command and what it started, as far as it can reach;
	// it may be called while wait runs, and after.
	kill()
}

// exitError is how a command that did not succeed ended: "exit status 3",
// "signal: killed".
type exitError struct{ text string }

func (e *exitError) Error() string { return e.text }

// startError is a command that could not be started.
type startError struct{ text string }

func (e *startError) Error() string { return e.text }

// groupProcess is a command run in a process group of its own, which
// kill kills as a whole: processes that leave the group escape it.
type groupProcess struct{ cmd *exec.Cmd }

func startGroup(s startSpec) (process, error) {
	cmd := &exec.Cmd{Path: s.path, Args: s.args, Dir: s.dir, Env: s.env, Stdin: s.stdin, Stdout: s.stdout, Stderr: s.stderr}
	procgroup.Set(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &groupProcess{cmd: cmd}, nil
}

func (g *groupProcess) wait() error {
	err := g.cmd.Wait()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return &exitError{text: exitText(exitErr)}
	}
	return err
}

func (g *groupProcess) kill() { procgroup.Kill(g.cmd.Process) }

// tempRequestFile returns an unnamed temporary file that holds body, read
// from its start.
func tempRequestFile(body []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "soni-request-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return fillRequestFile(f, body)
}

// fillRequestFile writes body into f and rewinds it.
func fillRequestFile(f *os.File, body []byte) (*os.File, error) {
	if _, err := f.Write(body); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// execDir is where a declared command runs: the directory of the file
// that declares it, which its position names relative to the project
// directory. So `exec: ["go", "run", "./actions/cafe"]` in flows/domain.yaml
// runs in flows/ whether soni was given the project's root or flows/
// itself. A declaration with no file (a program built in Go) runs in the
// project directory.
func (r *Runner) execDir(decl *ir.Action) string {
	dir := r.dir
	if dir == "" {
		dir = "."
	}
	if f := decl.Pos.File; f != "" && !filepath.IsAbs(f) {
		dir = filepath.Join(dir, filepath.Dir(filepath.FromSlash(f)))
	}
	return dir
}

// resolveCommand returns the path of the command to start: a relative
// path with a directory part is taken from dir, where the command runs; a
// bare name is looked up in PATH.
func resolveCommand(dir, name string) (string, error) {
	if name == "" {
		return "", errors.New("run.exec has an empty command name")
	}
	if filepath.IsAbs(name) {
		return name, nil
	}
	if strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) {
		// Absolute, because os/exec resolves a relative command path
		// against the command's working directory, which is dir too.
		p, err := filepath.Abs(filepath.Join(dir, name))
		if err != nil {
			return "", fmt.Errorf("command %q: %v", name, err)
		}
		return p, nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("command %q not found in PATH", name)
	}
	return p, nil
}

// commandEnv returns the minimal environment of a command: the base
// variables, the go tool's variables for go, and those run.env lists, each
// only when it is set.
func (r *Runner) commandEnv(run *ir.Run, name string) []string {
	keys := append([]string(nil), baseEnv...)
	if base := filepath.Base(name); base == "go" || base == "go.exe" {
		keys = append(keys, goEnv...)
	}
	keys = append(keys, run.Env...)
	seen := map[string]bool{}
	env := []string{}
	for _, k := range keys {
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		if v, ok := r.opts.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// unwrapPathError drops the "fork/exec PATH:" prefix of a start error,
// keeping its cause.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exitText describes how a command ended: its exit status or signal.
func exitText(e *exec.ExitError) string {
	if code := e.ExitCode(); code >= 0 {
		return fmt.Sprintf("exit status %d", code)
	}
	return e.ProcessState.String()
}

// sizeText writes a byte count for messages: "1 MiB", "4 KiB" or "100 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// capWriter keeps up to max bytes; a write beyond that marks it overflowed
// and fails, which ends the copy from the command's stdout.
type capWriter struct {
	mu         sync.Mutex
	buf        bytes.Buffer
	max        int64
	over       bool
	onOverflow func()
}

var errOverflow = errors.New("output limit exceeded")

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return 0, errOverflow
	}
	if int64(w.buf.Len())+int64(len(p)) > w.max {
		w.over = true
		if w.onOverflow != nil {
			w.onOverflow()
		}
		return 0, errOverflow
	}
	return w.buf.Write(p)
}

func (w *capWriter) overflowed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.over
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu   sync.Mutex
	buf  []byte
	max  int
	drop bool
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.max:]...)
		w.drop = true
	}
	return len(p), nil
}

// suffix returns the stderr tail for an error message, or "" when the
// command wrote nothing to stderr.
func (w *tailWriter) suffix() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := strings.TrimSpace(string(w.buf))
	if s == "" {
		return ""
	}
	if w.drop {
		return fmt.Sprintf("; stderr (last %s): %q", sizeText(int64(w.max)), s)
	}
	return fmt.Sprintf("; stderr: %q", s)
}
