package wordlists

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFind checks the scan on the kinds of list it must find and the
// kinds it must leave.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	src := `package x

var cancel = []string{"cancel", "stop", "never mind"}
var set = map[string]bool{"yes": true, "yeah": true, "yep": true}
var nums = map[string]int{"one": 1, "two": 2, "three": 3}
var phrases = [][]string{{"i", "want", "to"}}

func f(w string, a, b any) map[string]any {
	switch w {
	case "hi", "hello", "hey":
	}
	_ = []string{"ok", "x"}
	_ = []string{"A", "B", "C"}
	_ = wordSet("too", "also", "aswell")
	_ = w == "x" || (w == "cancel" || w == "cancelar") || w == "cancela"
	_ = []string{"kind", "flow", "slot"}
	return map[string]any{"slot": a, "flow": b, "value": w}
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package x\n\nvar _ = []string{\"a\", \"b\", \"c\"}\n"), 0o644))
	got, err := Find(dir, map[string][]string{"x.go": {"kind, flow, slot"}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"x.go:10: hi, hello, hey",
		"x.go:14: too, also, aswell",
		"x.go:15: x, cancel, cancelar, cancela",
		"x.go:3: cancel, stop, never mind",
		"x.go:4: yes, yeah, yep",
		"x.go:5: one, two, three",
		"x.go:6: i, want, to",
	}, got)

	_, err = Find(t.TempDir(), nil)
	assert.ErrorContains(t, err, "no Go files")
}
