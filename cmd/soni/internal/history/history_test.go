package history

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHistory: entries are kept in order, blank lines and repeats are
// not, line breaks become spaces, and the file carries them to the next
// run, trimmed to the limit.
func TestHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history")
	h, err := Load(path, 3)
	require.NoError(t, err)
	for _, l := range []string{"one", "  ", "two", "two", "three\nlines", "four"} {
		h.Add(l)
	}
	require.NoError(t, h.Err())
	assert.Equal(t, 3, h.Len())
	assert.Equal(t, "four", h.At(0))
	assert.Equal(t, "three lines", h.At(1))
	assert.Equal(t, "two", h.At(2))

	again, err := Load(path, 3)
	require.NoError(t, err)
	assert.Equal(t, []string{"two", "three lines", "four"}, again.lines)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(b), "\n"), 4, "the file is trimmed when it grows past the limit")

	mem, err := Load("", 0)
	require.NoError(t, err)
	mem.Add("x")
	assert.Equal(t, 1, mem.Len())
}

// TestHistoryRefusesAFIFO: a FIFO at the history path is an error at
// once, never a wait for a writer.
func TestHistoryRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	_, err := Load(path, 0)
	assert.Error(t, err)
}
