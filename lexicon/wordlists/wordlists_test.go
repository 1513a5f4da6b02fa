package wordlists

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `package x

import "strings"

const and = "and"

var cancel = []string{"cancel", "stop", "never mind"}
var set = map[string]bool{"yes": true, "yeah": true, "yep": true}
var nums = map[string]int{"one": 1, "two": 2, "three": 3}
var phrases = [][]string{{"i", "want", "to"}}

func f(w string, a, b any, m map[string]bool) map[string]any {
	switch w {
	case "hi", "hello", "hey":
	case "Hi", "$x", "a_b":
	}
	_ = []string{"ok", "x"}
	_ = []string{"A", "B", "C"}
	_ = wordSet("too", "also", "aswell")
	_ = w == "x" || (w == "cancel" || w == "cancelar") || w == "cancela"
	_ = []string{"kind", "flow", "slot"}
	_ = w != "the" && m["night"]
	_ = w == and || strings.HasPrefix(w, "day") || strings.HasSuffix(w, ">=")
	_ = lookup("yes")
	_ = [][]string{{"as"}, {"for"}}
	_ = []struct{ a, b string }{{"one two", "three"}, {"four", "five"}}
	_ = map[string]any{"type": "string"}
	return map[string]any{"slot": a, "flow": b, "value": w}
}
`

// TestFind checks the scan on the kinds of list and comparison it must
// find and the kinds it must leave.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "y.go"), []byte("package x\n\nconst or = \"or\"\n\ntype kind string\n\nconst affirm kind = \"affirm\"\n\nfunc g(w string, k kind) bool { return w == or || k == affirm }\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package x\n\nvar _ = []string{\"a\", \"b\", \"c\"}\nvar _ = \"a\" == \"b\"\n"), 0o644))
	got, err := Find(dir, map[string][]string{"x.go": {"kind, flow, slot"}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"x.go:10: i, want, to",
		"x.go:14: hi, hello, hey",
		"x.go:17: ok, x",
		"x.go:19: too, also, aswell",
		"x.go:20: cancel",
		"x.go:20: cancela",
		"x.go:20: cancelar",
		"x.go:20: x",
		"x.go:20: x, cancel, cancelar, cancela",
		"x.go:22: night",
		"x.go:22: the",
		"x.go:23: and",
		"x.go:23: day",
		"x.go:25: as, for",
		"x.go:27: type, string",
		"x.go:7: cancel, stop, never mind",
		"x.go:8: yes, yeah, yep",
		"x.go:9: one, two, three",
		"y.go:9: or",
	}, got)

	_, err = Find(t.TempDir(), nil)
	assert.ErrorContains(t, err, "no Go files")
}

// recorder is a testing.TB that keeps its errors.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
}

// TestCheck: Check passes a package whose every compared word is one of
// its protocol names, and fails on any other word and on a name the
// package no longer compares.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(s string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte("package p\n\n"+s), 0o644))
	}
	Protocol["test/p"] = []Names{{Of: "a test protocol", In: []string{"p.go"}, Words: []string{"start flow", "skip"}}}
	defer delete(Protocol, "test/p")

	write("func f(w string) bool { return w == \"start flow\" || w == \"skip\" }\n")
	r := &recorder{TB: t}
	Check(r, "test/p")
	assert.Empty(t, r.errs)

	write("func f(w string) bool { return w == \"start flow\" || w == \"skip\" || w == \"or\" }\n")
	r = &recorder{TB: t}
	Check(r, "test/p")
	assert.Len(t, r.errs, 1, "a word of a language")

	write("func f(w string) bool { return w == \"start flow\" }\n")
	r = &recorder{TB: t}
	Check(r, "test/p")
	assert.Len(t, r.errs, 1, "a stale name")
}
