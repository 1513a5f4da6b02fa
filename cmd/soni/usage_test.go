package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/internal/suggest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsageErrors: a bad flag exits 2 with one line on stderr that names
// the flag as the help writes it, and prints nothing on stdout, where a
// script expects results (urfave/cli's default prints the whole help
// there).
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	good := filepath.Join(dir, "good.yaml")
	require.NoError(t, os.WriteFile(good, []byte(goodFlow), 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"chat", "--bogus", good}, `soni: chat: unknown flag "--bogus"; run 'soni chat -h' for usage`},
		{"unknown flag after the path", []string{"compile", good, "--bogus"}, `soni: compile: unknown flag "--bogus"`},
		{"unknown short flag", []string{"compile", "-x", good}, `unknown flag "-x"`},
		{"typo of a flag", []string{"chat", good, "--sesion", "a"}, `unknown flag "--sesion" (did you mean "--session"?)`},
		{"bad flag value", []string{"validate", "--max-file-size", "abc", good}, `validate: invalid value "abc" for flag --max-file-size`},
		{"bad boolean", []string{"chat", "--json=maybe", good}, `for --json`},
		{"missing value at the end", []string{"compile", good, "-o"}, `soni: compile: flag "-o" needs a value`},
		{"missing flow name at the end", []string{"graph", good, "--flow"}, `soni: graph: flag "--flow" needs a value`},
		{"missing session at the end", []string{"chat", good, "--session"}, `soni: chat: flag "--session" needs a value`},
		{"unknown global flag", []string{"--bogus"}, `soni: unknown flag "--bogus"`},
		{"unknown command", []string{"frobnicate"}, `soni: unknown command "frobnicate"; run 'soni help' for the list`},
		{"typo of a command", []string{"chta"}, `soni: unknown command "chta" (did you mean "chat"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"soni"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout.String(), "usage errors go to stderr only")
			assert.Contains(t, stderr.String(), tt.want)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %s", stderr.String())
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.Equal(t, "good.yaml", e.Name(), "a flag without its value must not write a file (\"--\")")
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"session", "checkpoints", "json", "trace", "reset"}
	tests := []struct{ in, want string }{
		{"sesion", "session"},
		{"sessoin", "session"},
		{"jsno", "json"},
		{"checkpoint", "checkpoints"},
		{"bogus", ""},
		{"x", ""},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, suggest.Closest(tt.in, names), tt.in)
	}
}

// TestNotATerminal: /dev/null is a character device but not a terminal;
// output sent there must not count as a terminal (colour, line editor).
func TestNotATerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	for _, w := range []any{null, f, &bytes.Buffer{}} {
		assert.False(t, isTerminal(w), "%T", w)
	}
	t.Setenv("NO_COLOR", "")
	os.Unsetenv("NO_COLOR")
	assert.False(t, (&env{stdout: null}).color())
}
