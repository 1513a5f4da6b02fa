//go:build unix

package actions

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/internal/supervise"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script writes an executable sh script into dir.
func script(t *testing.T, dir, name, body string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
}

// runnerMode is a way a runner can run commands.
type runnerMode struct {
	name       string
	supervised bool
}

// modes are the ways runners run commands here: under a supervisor, where
// this system has them, and in a process group.
func modes() []runnerMode {
	m := []runnerMode{{name: "process group"}}
	if supervise.Enabled() {
		m = append([]runnerMode{{name: "supervised", supervised: true}}, m...)
	}
	return m
}

// eachMode runs f once for each of modes.
func eachMode(t *testing.T, f func(t *testing.T, supervised bool)) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) { f(t, m.supervised) })
	}
}

// execDecl declares an exec action.
func execDecl(name string, argv []string, outputs ...string) *ir.Action {
	return &ir.Action{Name: name, Inputs: []string{"account_type"}, Outputs: outputs, Run: &ir.Run{Exec: argv}}
}

// processGone reports whether pid no longer runs. A killed process whose
// parent is gone may stay a zombie until init reaps it; it runs no more,
// so it counts as gone.
func processGone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func TestExec(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "balance.sh", `cat >/dev/null; echo '{"balance": 1520.5, "currency": "EUR", "count": 3}'`)
	script(t, dir, "echo.sh", `cat`)
	script(t, dir, "args.sh", `cat >/dev/null; printf '{"first": "%s", "n": %d}' "$1" "$#"`)
	script(t, dir, "cwd.sh", `cat >/dev/null; printf '{"cwd": "%s"}' "$(pwd)"`)
	script(t, dir, "env.sh", `cat >/dev/null; printf '{"listed": "%s", "secret": "%s", "home": "%s"}' "$LISTED" "$SECRET" "$HOME"`)
	script(t, dir, "garbage.sh", `cat >/dev/null; echo 'balance: 12'`)
	script(t, dir, "nothing.sh", `cat >/dev/null`)
	script(t, dir, "array.sh", `cat >/dev/null; echo '[1, 2]'`)
	script(t, dir, "two.sh", `cat >/dev/null; echo '{"a": 1} {"b": 2}'`)
	script(t, dir, "huge.sh", `cat >/dev/null; head -c 10485760 /dev/zero`)
	script(t, dir, "exit3.sh", `cat >/dev/null; echo '{"balance": 1}'; echo 'account service unreachable' >&2; exit 3`)
	script(t, dir, "noisy.sh", `cat >/dev/null; i=0; while [ $i -lt 300 ]; do echo "line $i of a long complaint" >&2; i=$((i+1)); done; echo 'the real reason' >&2; exit 1`)
	script(t, dir, "killed.sh", `cat >/dev/null; kill -9 $$`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("not a program"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	script(t, filepath.Join(dir, "sub"), "nested.sh", `cat >/dev/null; echo '{"ok": true}'`)

	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": "/home/test", "LISTED": "yes", "SECRET": "hunter2"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }

	tests := []struct {
		name     string
		argv     []string
		envNames []string
		inputs   map[string]any
		want     map[string]any
		wantErr  string
		// declared are the declared outputs; nil means the keys of want.
		declared []string
		warnings []string
	}{
		{
			name:     "outputs",
			argv:     []string{"./balance.sh"},
			declared: []string{"balance", "currency"},
			want:     map[string]any{"balance": 1520.5, "currency": "EUR", "count": int64(3)},
			warnings: []string{
				`action "act" returned output "count", which its declaration does not list`,
			},
		},
		{
			name:     "request on stdin",
			argv:     []string{"./echo.sh"},
			inputs:   map[string]any{"account_type": "savings", "amount": nil},
			declared: []string{},
			want: map[string]any{
				"action": "act", "session": "s-1",
				"inputs": map[string]any{"account_type": "savings", "amount": nil},
			},
			warnings: []string{
				`action "act" returned output "action", which its declaration does not list`,
				`action "act" returned output "inputs", which its declaration does not list`,
				`action "act" returned output "session", which its declaration does not list`,
			},
		},
		{name: "arguments without a shell", argv: []string{"./args.sh", "a b; rm -rf /", "x"}, want: map[string]any{"first": "a b; rm -rf /", "n": int64(2)}},
		{name: "runs in the project directory", argv: []string{"./cwd.sh"}, want: map[string]any{"cwd": dir}},
		{name: "path in a subdirectory", argv: []string{"sub/nested.sh"}, want: map[string]any{"ok": true}},
		{name: "absolute path", argv: []string{filepath.Join(dir, "balance.sh")}, want: map[string]any{"balance": 1520.5, "currency": "EUR", "count": int64(3)}},
		{name: "minimal environment", argv: []string{"./env.sh"}, envNames: []string{"LISTED"}, want: map[string]any{"listed": "yes", "secret": "", "home": "/home/test"}},
		{name: "command missing", argv: []string{"./missing.sh"}, wantErr: `cannot start command "./missing.sh": no such file or directory`},
		{name: "not executable", argv: []string{"./plain.txt"}, wantErr: `cannot start command "./plain.txt": permission denied`},
		{name: "not in PATH", argv: []string{"soni-no-such-program"}, wantErr: `command "soni-no-such-program" not found in PATH`},
		{name: "garbage", argv: []string{"./garbage.sh"}, wantErr: `command "./garbage.sh" failed: output is not valid JSON: invalid character 'b' looking for beginning of value (output starts "balance: 12")`},
		{name: "nothing", argv: []string{"./nothing.sh"}, wantErr: `command "./nothing.sh" failed: no output: expected one JSON object`},
		{name: "not an object", argv: []string{"./array.sh"}, wantErr: `command "./array.sh" failed: output is a JSON array, not an object (output starts "[1, 2]")`},
		{name: "two objects", argv: []string{"./two.sh"}, wantErr: `command "./two.sh" failed: output has more than one JSON value`},
		{name: "10 MiB", argv: []string{"./huge.sh"}, wantErr: `command "./huge.sh" failed: output larger than 1 MiB`},
		{name: "exit 3 with stderr", argv: []string{"./exit3.sh"}, wantErr: `command "./exit3.sh" failed: exit status 3; stderr: "account service unreachable"`},
		{name: "long stderr keeps its end", argv: []string{"./noisy.sh"}, wantErr: `line 299 of a long complaint\nthe real reason"`},
		{name: "empty command name", argv: []string{""}, wantErr: `run.exec has an empty command name`},
		{name: "killed by a signal", argv: []string{"./killed.sh"}, wantErr: `command "./killed.sh" failed: signal: killed`},
	}
	eachMode(t, func(t *testing.T, supervised bool) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				r := New(nil, dir, Options{LookupEnv: lookup})
				r.supervised = supervised
				declared := tc.declared
				if declared == nil {
					for k := range tc.want {
						declared = append(declared, k)
					}
				}
				decl := execDecl("act", tc.argv, declared...)
				decl.Run.Env = tc.envNames
				inputs := tc.inputs
				if inputs == nil {
					inputs = map[string]any{"account_type": "checking"}
				}
				var warnings []string
				warn := func(w string) { warnings = append(warnings, w) }
				out, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Session: "s-1", Inputs: inputs, Decl: decl, Warn: warn})
				if tc.wantErr != "" {
					require.Error(t, err)
					assert.Contains(t, err.Error(), tc.wantErr)
					assert.Nil(t, out)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tc.want, out)
				assert.Equal(t, tc.warnings, warnings)
			})
		}
	})
}

func TestExecLongStderrIsCut(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "noisy.sh", `cat >/dev/null; head -c 100000 /dev/zero | tr '\0' 'x' >&2; echo END >&2; exit 1`)
	r := New(nil, dir, Options{})
	_, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./noisy.sh"})})
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, `exit status 1; stderr (last 4 KiB): "xxx`)
	assert.True(t, strings.HasSuffix(msg, `xxxEND"`), msg)
	assert.Less(t, len(msg), 4096+200)
}

func TestExecTimeoutKillsTheProcessGroup(t *testing.T) {
	eachMode(t, func(t *testing.T, supervised bool) {
		dir := t.TempDir()
		// The script starts a grandchild and waits for it: a timeout must kill
		// both, not leave the sleep running as an orphan.
		child := Hold(t, dir, "hold.fifo")
		script(t, dir, "hang.sh", `cat >/dev/null; echo 'about to hang' >&2; exec 3>hold.fifo; sleep 60 & echo started >&3; exec 3>&-; wait`)
		decl := execDecl("act", []string{"./hang.sh"})
		decl.Run.Timeout = "500ms"
		r := New(nil, dir, Options{})
		r.supervised = supervised
		_, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: decl})
		require.Error(t, err)
		assert.Equal(t, `command "./hang.sh" timed out after 500ms and was killed; stderr: "about to hang"`, err.Error())
		child.WaitEnded(t, "the grandchild")
	})
}

func TestExecDefaultTimeout(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "hang.sh", `cat >/dev/null; sleep 60`)
	r := New(nil, dir, Options{Timeout: 200 * time.Millisecond})
	_, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./hang.sh"})})
	require.Error(t, err)
	assert.Equal(t, `command "./hang.sh" timed out after 200ms and was killed`, err.Error())
}

func TestExecCancelKillsTheProcessGroup(t *testing.T) {
	eachMode(t, func(t *testing.T, supervised bool) {
		dir := t.TempDir()
		child := Hold(t, dir, "hold.fifo")
		script(t, dir, "hang.sh", `cat >/dev/null; exec 3>hold.fifo; sleep 60 & echo started >&3; exec 3>&-; wait`)
		r := New(nil, dir, Options{})
		r.supervised = supervised
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := r.RunAction(ctx, vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./hang.sh"})})
			done <- err
		}()
		select {
		case <-child.Started: // the grandchild runs
		case err := <-done:
			t.Fatalf("the action ended before it started its grandchild: %v", err)
		}
		cancel()
		// A RunAction that ignored the cancellation would hang here, and the
		// test run's own timeout would fail it: no clock is read.
		err := <-done
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Contains(t, err.Error(), `command "./hang.sh" was stopped: context canceled`)
		child.WaitEnded(t, "the grandchild")
	})
}

func TestExecBackgroundChildDoesNotOutliveTheAction(t *testing.T) {
	eachMode(t, func(t *testing.T, supervised bool) {
		dir := t.TempDir()
		// The grandchild keeps stdout open after the command exits; the runner
		// must neither wait for it nor leave it running. (A runner that waited
		// would hang for an hour: the test run's own timeout fails it, with no
		// clock read here.)
		child := Hold(t, dir, "hold.fifo")
		script(t, dir, "bg.sh", `cat >/dev/null; exec 3>hold.fifo; sleep 3600 & echo started >&3; exec 3>&-; echo '{"ok": true}'`)
		r := New(nil, dir, Options{})
		r.supervised = supervised
		out, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./bg.sh"}, "ok")})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"ok": true}, out)
		child.WaitEnded(t, "the grandchild")
	})
}

func TestExecEnvironmentForGo(t *testing.T) {
	env := map[string]string{"PATH": "/bin", "GOCACHE": "/c", "GOFLAGS": "-mod=mod", "SECRET": "x", "LANG": "C.UTF-8"}
	r := New(nil, "/p", Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	tests := []struct {
		name string
		run  *ir.Run
		want []string
	}{
		{"plain command", &ir.Run{Exec: []string{"./a"}}, []string{"PATH=/bin", "LANG=C.UTF-8"}},
		{"go tool", &ir.Run{Exec: []string{"go", "run", "."}}, []string{"PATH=/bin", "LANG=C.UTF-8", "GOCACHE=/c", "GOFLAGS=-mod=mod"}},
		{"listed variable", &ir.Run{Exec: []string{"./a"}, Env: []string{"SECRET", "UNSET", "PATH"}}, []string{"PATH=/bin", "LANG=C.UTF-8", "SECRET=x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, r.commandEnv(tc.run, tc.run.Exec[0]))
		})
	}
}

func TestExecRelativeProjectDirectory(t *testing.T) {
	parent := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(parent, "proj"), 0o755))
	script(t, filepath.Join(parent, "proj"), "ok.sh", `cat >/dev/null; printf '{"cwd": "%s"}' "$(pwd)"`)
	t.Chdir(parent)
	r := New(nil, "proj", Options{})
	out, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./ok.sh"}, "cwd")})
	require.NoError(t, err)
	want, err := filepath.EvalSymlinks(filepath.Join(parent, "proj"))
	require.NoError(t, err)
	got, err := filepath.EvalSymlinks(out["cwd"].(string))
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestExecRunsWhereItIsDeclared: a command runs in the directory of the
// file that declares it, so that a project's root and its flows/ directory
// given to soni run it alike (soni init's project declares its action in
// flows/domain.yaml with a path from there); before, it ran in the
// directory given, and `soni chat .` at the root could not find it.
func TestExecRunsWhereItIsDeclared(t *testing.T) {
	root := t.TempDir()
	flows := filepath.Join(root, "flows")
	require.NoError(t, os.MkdirAll(filepath.Join(flows, "actions"), 0o755))
	script(t, filepath.Join(flows, "actions"), "ok.sh", `cat >/dev/null; printf '{"cwd": "%s"}' "$(pwd)"`)
	script(t, root, "root.sh", `cat >/dev/null; printf '{"cwd": "%s"}' "$(pwd)"`)
	for _, c := range []struct {
		name, project, file, command, want string
	}{
		{"project root, file in flows/", root, "flows/domain.yaml", "./actions/ok.sh", flows},
		{"flows/ given, file in it", flows, "domain.yaml", "./actions/ok.sh", flows},
		{"file at the root", root, "domain.yaml", "./root.sh", root},
		{"no file (a program built in Go)", root, "", "./root.sh", root},
	} {
		t.Run(c.name, func(t *testing.T) {
			decl := execDecl("act", []string{c.command}, "cwd")
			decl.Pos = diag.Pos{File: c.file, Line: 3, Col: 3}
			out, err := New(nil, c.project, Options{}).RunAction(context.Background(), vm.ActionRequest{Action: "act", Decl: decl})
			require.NoError(t, err)
			want, err := filepath.EvalSymlinks(c.want)
			require.NoError(t, err)
			got, err := filepath.EvalSymlinks(out["cwd"].(string))
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}

func TestExecInputsThatAreNotJSON(t *testing.T) {
	r := New(nil, t.TempDir(), Options{})
	_, err := r.RunAction(context.Background(), vm.ActionRequest{
		Action: "act", Decl: execDecl("act", []string{"./never.sh"}),
		Inputs: map[string]any{"account_type": math.NaN()},
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `action "act": cannot encode its inputs as JSON`)
}

// BenchmarkExec runs a trivial exec action: under a supervisor (the test
// binary re-executed) and in a process group. docs/performance.md has the
// figures.
func BenchmarkExec(b *testing.B) {
	dir := b.TempDir()
	require.NoError(b, os.WriteFile(filepath.Join(dir, "ok.sh"), []byte("#!/bin/sh\necho '{\"ok\": true}'\n"), 0o755))
	for _, m := range modes() {
		b.Run(m.name, func(b *testing.B) {
			r := New(nil, dir, Options{})
			r.supervised = m.supervised
			req := vm.ActionRequest{Action: "act", Decl: execDecl("act", []string{"./ok.sh"}, "ok")}
			for b.Loop() {
				if _, err := r.RunAction(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
