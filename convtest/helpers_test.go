package convtest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixedNow is the clock of every test: durations are zero, so reports are
// the same bytes on every run.
func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// golden compares got with the golden file, or rewrites the file when
// SONI_UPDATE is set.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file: run SONI_UPDATE=1 go test ./convtest")
	assert.Equal(t, string(want), string(got), "golden file %s is out of date: run SONI_UPDATE=1 go test ./convtest", path)
}

// run loads and runs test files and requires that they load cleanly.
func run(t testing.TB, paths []string, opts Options) (*Suite, *Report) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	s := Load(paths, opts)
	require.False(t, s.Diags.HasErrors(), "unexpected diagnostics: %v", s.Diags)
	return s, s.Run(context.Background())
}

// textOf renders a report as text.
func textOf(t testing.TB, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, r, TextOptions{}))
	return b.String()
}

// projectDir is the absolute path of the test project.
func projectDir(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "project"))
	require.NoError(t, err)
	return p
}

// writeFile writes a file below dir and returns its path.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}
