package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowProject writes a one-flow project whose action blocks, so a test can
// act while a turn is running. The action writes to the fifo "started" when
// it runs and then waits for a line on the fifo "release": started blocks
// until the action runs, release lets it finish. No test sleeps.
func slowProject(t *testing.T) (dir string, started, release func()) {
	dir = writeProject(t, slowFlow)
	for _, name := range []string{"started", "release"} {
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, name), 0o600))
	}
	started = func() {
		_, err := os.ReadFile(filepath.Join(dir, "started"))
		require.NoError(t, err)
	}
	release = func() {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "release"), []byte("go\n"), 0o600))
	}
	return dir, started, release
}

const slowFlow = `version: "1.0"
actions:
  slow:
    outputs: [done]
    run:
      exec: ["sh", "-c", "echo running > started; read x < release; echo '{\"done\": \"yes\"}'"]
flows:
  wait:
    trigger: {intents: ["start"]}
    slots:
      - {name: name, type: text}
    steps:
      - {step: ask, type: collect, slot: name, message: "Name?"}
      - {step: work, type: action, call: slow, map_outputs: {done: done}}
      - {step: bye, type: say, message: "Bye {name}, done: {done}"}
`

// TestChatStdinClosedMidTurn: the input ends while a turn is still
// running; the turn finishes, is saved, and chat leaves cleanly.
func TestChatStdinClosedMidTurn(t *testing.T) {
	dir, started, release := slowProject(t)
	cps := filepath.Join(dir, "cps")
	pr, pw := io.Pipe()
	go func() {
		_, _ = pw.Write([]byte("start\nAna\n"))
		started() // the action of the second turn is running
		_ = pw.Close()
		release()
	}()
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "chat", "--checkpoints", cps, dir}, pr, &out, &errOut)
	assert.Equal(t, exitOK, code, errOut.String())
	assert.Equal(t, "Name?\nBye Ana, done: yes\n", out.String())
	b, err := os.ReadFile(filepath.Join(cps, "default.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"revision": 2`, "the turn that was running when stdin closed is saved")
}

// TestChatInterruptedKeepsLastTurn: Ctrl-C (the context is cancelled)
// during a turn leaves cleanly; the checkpoint keeps the last completed
// turn, never a half-done one.
func TestChatInterruptedKeepsLastTurn(t *testing.T) {
	dir, started, _ := slowProject(t)
	cps := filepath.Join(dir, "cps")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	go func() {
		_, _ = pw.Write([]byte("start\nAna\n"))
		started()
		cancel() // Ctrl-C while the action runs; it is killed, never released
		_ = pw.Close()
	}()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"soni", "chat", "--checkpoints", cps, dir}, pr, &out, &errOut)
	assert.Equal(t, exitOK, code, errOut.String())
	assert.Equal(t, "Name?\n", out.String())
	b, err := os.ReadFile(filepath.Join(cps, "default.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"revision": 1`, "the interrupted turn is not saved")
	assert.Contains(t, errOut.String(), "\ninterrupted: the turn for \"Ana\" was not saved")
	assert.Contains(t, string(b), `"step": "ask"`)
}

// TestChatHugeMessage: a 1 MiB line is cut and answered.
func TestChatHugeMessage(t *testing.T) {
	dir, _, _ := slowProject(t)
	huge := strings.Repeat("x", 1<<20)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "chat", "--checkpoints", filepath.Join(dir, "cps"), dir}, strings.NewReader(huge+"\n"), &out, &errOut)
	require.Equal(t, exitOK, code, errOut.String())
	assert.Contains(t, errOut.String(), "message cut to 64 KiB")
	assert.Equal(t, "How can I help?\n", out.String(), "nothing understood, nothing pending: the idle message")
}

// TestChatCorruptCheckpoint: a corrupt checkpoint is reported by name and
// left as it is.
func TestChatCorruptCheckpoint(t *testing.T) {
	dir, _, _ := slowProject(t)
	cps := filepath.Join(dir, "cps")
	require.NoError(t, os.MkdirAll(cps, 0o755))
	path := filepath.Join(cps, "default.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"format": "soni.checkpoint/v1", "revis`), 0o644))
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "chat", "--checkpoints", cps, dir}, strings.NewReader("start\n"), &out, &errOut)
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, errOut.String(), path)
	assert.Contains(t, errOut.String(), "--reset")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, `{"format": "soni.checkpoint/v1", "revis`, string(b), "never overwritten")
}

func TestHistoryFile(t *testing.T) {
	assert.Equal(t, filepath.Join(".soni", "history"), historyFile(".soni/checkpoints/banking", false))
	assert.Equal(t, filepath.Join(".soni", "checkpoints", ".history"), historyFile("./.soni/checkpoints/", true))
	assert.Equal(t, filepath.Join("/tmp", "cps", ".history"), historyFile("/tmp/cps", true), "never outside the directory given")
}

// TestProjectKey: each project gets its own default checkpoint
// directory, named after it, whatever its path looks like.
func TestProjectKey(t *testing.T) {
	dir := t.TempDir()
	banking := filepath.Join(dir, "banking")
	require.NoError(t, os.Mkdir(banking, 0o755))
	one := filepath.Join(dir, "hello flow.yaml")
	require.NoError(t, os.WriteFile(one, nil, 0o644))
	tests := []struct{ path, want string }{
		{banking, "banking"},
		{banking + "/", "banking"},
		{one, "hello_flow"},
		{filepath.Join(dir, "missing"), "missing"},
		{"/", "project"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, projectKey(tt.path), tt.path)
	}
	assert.Equal(t, filepath.Join(".soni", "checkpoints", "banking"), defaultCheckpoints(banking))
}
