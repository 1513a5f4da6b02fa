package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pizzaFlow has a flow slot, a conversation slot, characters that JSON
// could escape and a loop that never waits (a warning).
const pizzaFlow = `version: "1.0"
settings:
  max_steps_per_turn: 20
slots:
  customer: {type: text}
flows:
  order:
    trigger:
      intents: ["order pizza"]
    slots:
      - {name: size, type: categorical, values: [small, large]}
    steps:
      - {step: ask_name, type: collect, slot: customer, message: "Your name?"}
      - {step: ask_size, type: collect, slot: size, message: "What size, {customer}?"}
      - {step: done, type: say, message: "One {size} pizza for {customer} & friends <3"}
  spin:
    trigger:
      intents: ["spin"]
    steps:
      - {step: a, type: say, message: "tick", jump_to: b}
      - {step: b, type: say, message: "tock", jump_to: a}
`

// chatRun runs soni chat on a project with the given input lines and
// flags, in a fresh checkpoint directory unless cps is given.
func chatRun(t *testing.T, project, cps, input string, flags ...string) (stdout, stderr string, code int) {
	t.Helper()
	args := append([]string{"soni", "chat", "--checkpoints", cps}, flags...)
	var out, errOut bytes.Buffer
	code = run(context.Background(), append(args, project), strings.NewReader(input), &out, &errOut)
	return out.String(), errOut.String(), code
}

// chatProcess is chatRun in a process of its own: the test binary, which
// runs soni when it is called by that name (testscript.Main in TestMain).
func chatProcess(t *testing.T, project, cps, input string, flags ...string) (stdout, stderr string, code int) {
	exe, err := os.Executable()
	if err != nil {
		t.Errorf("test binary: %v", err)
		return "", "", -1
	}
	cmd := exec.Command(exe)
	cmd.Args = append(append([]string{"soni", "chat", "--checkpoints", cps}, flags...), project)
	cmd.Stdin = strings.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Errorf("run soni: %v", err)
		code = -1
	}
	return out.String(), errOut.String(), code
}

func writeProject(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(src), 0o644))
	return dir
}

// TestChatCommands pins what each turn prints, piped, for the / commands
// and their bad usage: a mistake is a note on stderr and the chat goes on.
func TestChatCommands(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	tests := []struct {
		name       string
		input      string
		flags      []string
		wantOut    string
		wantErr    []string
		notWantErr []string
	}{
		{
			name:    "unknown slot in /set with no flow",
			input:   "/set nope=1\n/set custmer=Ana\n/state\n",
			wantOut: "session default, revision 0\nno active flow\nslots:\n",
			wantErr: []string{
				`/set: unknown slot "nope": no flow is active; the conversation slots are customer`,
				`/set: unknown slot "custmer" (did you mean "customer"?)`,
			},
		},
		{
			name:    "unknown slot in /set with a flow on top",
			input:   "order pizza\n/set sise=large\nAna\n",
			wantOut: "Your name?\nWhat size, Ana?\n",
			wantErr: []string{`/set: unknown slot "sise" (did you mean "size"?): the slots of flow "order" and of the conversation are customer, size`},
		},
		{
			name:    "/set of a flow slot and a conversation slot",
			input:   "order pizza\n/set customer = Ana\n/set size=large\n",
			wantOut: "Your name?\nWhat size, Ana?\nOne large pizza for Ana & friends <3\n",
		},
		{
			name:    "bad usage of /start and /set",
			input:   "/start\n/start nope\n/set\n/set =1\n/bogus\n/start order\n",
			wantOut: "Your name?\n",
			wantErr: []string{"usage: /start FLOW", `unknown flow "nope"`, "usage: /set SLOT=VALUE", `unknown command "/bogus"`},
		},
		{
			name:       "trace names each command once",
			input:      "order pizza\nAna\n",
			flags:      []string{"--trace"},
			wantOut:    "Your name?\nWhat size, Ana?\n",
			wantErr:    []string{"trace: command start_flow order\n", "trace: command set_slot customer=\"Ana\"\n"},
			notWantErr: []string{"start_flow(order)", "set_slot(customer=Ana)"},
		},
		{
			name:    "invalid UTF-8 becomes U+FFFD",
			input:   "order pizza\nAn\xffa\n",
			wantOut: "Your name?\nWhat size, An\uFFFDa?\n",
		},
		{
			name:    "a runtime error keeps the chat going",
			input:   "spin\norder pizza\n",
			wantOut: "Your name?\n",
			wantErr: []string{"soni: runtime error: ", "max_steps_per_turn (20)"},
		},
		{
			name:    "/quit leaves",
			input:   "order pizza\n/quit\nAna\n",
			wantOut: "Your name?\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := chatRun(t, dir, filepath.Join(t.TempDir(), "cps"), tt.input, tt.flags...)
			assert.Equal(t, exitOK, code, errOut)
			assert.Equal(t, tt.wantOut, out)
			for _, w := range tt.wantErr {
				assert.Contains(t, errOut, w)
			}
			for _, w := range tt.notWantErr {
				assert.NotContains(t, errOut, w)
			}
		})
	}
}

// TestChatJSONLines: with --json every stdout line is one JSON object,
// /state included, and replies keep &, < and > as they are.
func TestChatJSONLines(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	out, errOut, code := chatRun(t, dir, filepath.Join(t.TempDir(), "cps"), "order pizza\nAna\n/state\nlarge\n/state\n", "--json")
	require.Equal(t, exitOK, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 5, out)
	for _, l := range lines {
		var obj map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &obj), "not one JSON object: %s", l)
		for _, k := range []string{"session", "revision", "replies", "pending", "slots", "events", "stack"} {
			assert.Contains(t, obj, k, l)
		}
	}
	assert.Equal(t, `{"session":"default","revision":2,"replies":[],"pending":{"kind":"collect","flow":"order","step":"ask_size","slot":"size","prompt":"What size, Ana?"},"slots":{"customer":"Ana"},"events":[],"stack":["order"]}`, lines[2])
	assert.Contains(t, lines[3], `"replies":["One large pizza for Ana & friends <3"]`)
	assert.Equal(t, `{"session":"default","revision":3,"replies":[],"pending":null,"slots":{"customer":"Ana"},"events":[],"stack":[]}`, lines[4])
}

// TestChatJSONRuntimeError: with --json a turn that fails at run time
// still prints its one object, with the last good state and "error", so a
// harness that reads one line per message stays in step.
func TestChatJSONRuntimeError(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	out, errOut, code := chatRun(t, dir, filepath.Join(t.TempDir(), "cps"), "order pizza\nspin\nAna\n", "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "soni: runtime error: ")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 3, out)
	var obj map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &obj), lines[1])
	assert.Contains(t, obj["error"], "max_steps_per_turn (20)")
	assert.Equal(t, 1.0, obj["revision"], "the failed turn saved nothing")
	assert.Equal(t, []any{}, obj["replies"])
	assert.Equal(t, []any{"order"}, obj["stack"])
	assert.Equal(t, "Your name?", obj["pending"].(map[string]any)["prompt"])
	assert.NotContains(t, lines[0], `"error"`)
	assert.Contains(t, lines[2], `"revision":2`)
}

// TestChatTurnsOfOneSessionAcrossProcesses: two chats resume the same
// session at once. The store's turn lock makes the second wait for the
// first's whole turn, its action included, so neither turn is lost and no
// action runs for a turn that is then thrown away (before the lock, the
// second turn won and the first one's action had run for nothing).
func TestChatTurnsOfOneSessionAcrossProcesses(t *testing.T) {
	// The first call blocks until the test releases it; later ones return
	// at once.
	src := `version: "1.0"
actions:
  work:
    outputs: [done]
    run:
      exec: ["sh", "-c", "if [ -e started ]; then echo '{\"done\": \"fast\"}'; exit; fi; touch started; while [ ! -e release ]; do sleep 0.02; done; echo '{\"done\": \"slow\"}'"]
flows:
  job:
    trigger: {intents: ["start"]}
    slots:
      - {name: name, type: text}
    steps:
      - {step: ask, type: collect, slot: name, message: "Name?"}
      - {step: run, type: action, call: work, map_outputs: {done: done}}
      - {step: bye, type: say, message: "Bye {name} ({done})"}
`
	dir := writeProject(t, src)
	cps := filepath.Join(dir, "cps")
	out, errOut, code := chatRun(t, dir, cps, "start\n")
	require.Equal(t, exitOK, code, errOut)
	require.Equal(t, "Name?\n", out)

	type result struct {
		out, err string
		code     int
	}
	// Both chats are real processes (the test binary run as soni, see
	// TestMain), as two users' chats would be.
	first := make(chan result, 1)
	go func() {
		o, e, c := chatProcess(t, dir, cps, "Ana\n")
		first <- result{o, e, c}
	}()
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	}, 30*time.Second, 10*time.Millisecond, "the first chat's action never started")
	// The first chat holds the session's turn lock while its action runs:
	// the second one waits for it, whenever it gets there.
	second := make(chan result, 1)
	go func() {
		o, e, c := chatProcess(t, dir, cps, "Bob\n")
		second <- result{o, e, c}
	}()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "release"), nil, 0o644))
	r1, r2 := <-first, <-second // a chat that never finished fails by the test run's timeout
	assert.Equal(t, exitOK, r1.code, r1.err)
	assert.Equal(t, "Bye Ana (slow)\n", r1.out)
	assert.Equal(t, exitOK, r2.code, r2.err)
	assert.Equal(t, "How can I help?\n", r2.out, "the second turn ran on the first one's state")

	b, err := os.ReadFile(filepath.Join(cps, "default.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"revision": 3`)
	assert.Contains(t, string(b), `"text": "Bye Ana (slow)"`)
}

// TestChatSignalWhileWaiting: Ctrl-C or SIGTERM (the context is cancelled)
// while chat waits for a line on an input that stays open leaves at once,
// with the turns so far saved.
func TestChatSignalWhileWaiting(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	cps := filepath.Join(t.TempDir(), "cps")
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"soni", "chat", "--checkpoints", cps, dir}, pr, &out, &errOut)
	}()
	_, err := pw.Write([]byte("order pizza\n"))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(cps, "default.json"))
		return err == nil
	}, 30*time.Second, 10*time.Millisecond, "the first turn was never saved")
	cancel() // the input is still open
	// A chat that did not leave on the signal would hang here, and the
	// test run's own timeout would fail it.
	code := <-done
	assert.Equal(t, exitOK, code, errOut.String())
	assert.Equal(t, "Your name?\n", out.String())
}

// TestChatSIGTERMProcess sends SIGTERM to a real soni chat process that
// waits for input on a pipe that stays open: it leaves with exit 0 and the
// turn so far saved.
func TestChatSIGTERMProcess(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	dir := writeProject(t, pizzaFlow)
	cps := filepath.Join(t.TempDir(), "cps")
	cmd := exec.Command(exe)
	cmd.Args = []string{"soni", "chat", "--checkpoints", cps, dir}
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	require.NoError(t, cmd.Start())
	_, err = io.WriteString(stdin, "order pizza\n")
	require.NoError(t, err)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "Your name?\n", line) // the turn ran and was saved; chat waits again
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err = cmd.Wait()
	require.NoError(t, err, "stderr: %s", errOut.String())
	_, err = os.Stat(filepath.Join(cps, "default.json"))
	assert.NoError(t, err)
}
