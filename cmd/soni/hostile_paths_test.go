package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostilePaths points every command that reads a project, a program or
// a test file at things that are not ordinary files: a FIFO with no writer
// (a plain open blocks forever), /dev/zero behind a link (a plain read
// never ends) and a 300 MiB file. Each command refuses each at once with
// a message naming the path. Before the guarded reader, chat and
// test hung or ran out of memory where validate refused. (A command that
// hung would fail this test by the test run's timeout; no clock is read.)
func TestHostilePaths(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{}
	for _, ext := range []string{".yaml", ".json"} {
		fifo := filepath.Join(dir, "fifo"+ext)
		require.NoError(t, syscall.Mkfifo(fifo, 0o600))
		zero := filepath.Join(dir, "zero"+ext)
		require.NoError(t, os.Symlink("/dev/zero", zero))
		huge := filepath.Join(dir, "huge"+ext)
		f, err := os.Create(huge)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(300<<20))
		require.NoError(t, f.Close())
		paths["fifo"+ext], paths["zero"+ext], paths["huge"+ext] = fifo, zero, huge
	}
	commands := [][]string{
		{"chat", "--checkpoints", filepath.Join(dir, "cps")},
		{"test"},
		{"validate"},
		{"compile"},
	}
	for _, cmd := range commands {
		for _, name := range []string{"fifo.yaml", "fifo.json", "zero.yaml", "zero.json", "huge.yaml", "huge.json"} {
			t.Run(cmd[0]+" "+name, func(t *testing.T) {
				args := append(append([]string{"soni"}, cmd...), paths[name])
				var out, errOut bytes.Buffer
				code := run(context.Background(), args, strings.NewReader("hello\n"), &out, &errOut)
				// A file that cannot be read exits 2; one over the size
				// limit is a diagnostic (E002) of the project, which
				// fails the check with 1, as validate has always done.
				want := exitUsage
				if strings.HasPrefix(name, "huge.") && (cmd[0] == "validate" || cmd[0] == "compile" || cmd[0] == "chat" && strings.HasSuffix(name, ".yaml")) {
					want = exitFailed
				}
				assert.Equal(t, want, code, "stdout: %s\nstderr: %s", out.String(), errOut.String())
				msg := out.String() + errOut.String()
				assert.True(t, strings.Contains(msg, "not a regular file") || strings.Contains(msg, "size limit") || strings.Contains(msg, "larger than"),
					"the message says why: %s", msg)
				assert.Contains(t, msg, name)
			})
		}
	}
}
