// Package syntaxtest checks that the syntax package's model holds a
// project without loss: RoundTrip decodes every project file of a
// project, encodes it again, and compares what the compiler makes of both.
package syntaxtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// RoundTrip decodes and encodes every project file of the project at
// path (a directory or one file) and checks that the encoding keeps every
// comment, is stable (encoding its decoding gives the same bytes), and
// compiles to the same program and diagnostics, positions aside. W013
// (the Python framework's __end_flow__) is left out of the comparison:
// Encode writes __end__. It returns the encoded files by path.
func RoundTrip(t *testing.T, path string) map[string][]byte {
	t.Helper()
	paths, ds := compiler.ProjectFiles(path)
	require.Empty(t, ds)
	encoded := map[string][]byte{}
	var before, after []compiler.Source
	for _, p := range paths {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		before = append(before, compiler.Source{Name: p, Src: src})
		if !IsProjectFile(p, src) {
			after = append(after, compiler.Source{Name: p, Src: src})
			continue
		}
		f, err := syntax.DecodeFlows(p, src)
		if f == nil {
			require.NoError(t, err)
		}
		out, err := syntax.Encode(f)
		require.NoError(t, err)
		assert.Equal(t, Comments(src), Comments(out), "%s: the comments", p)
		assert.Empty(t, lostKeys(t, src, out), "%s: keys the encoding lost", p)
		again, err := syntax.DecodeFlows(p, out)
		require.NotNil(t, again, "%s: %v", p, err)
		out2, err := syntax.Encode(again)
		require.NoError(t, err)
		assert.Equal(t, string(out), string(out2), "%s: encoding is stable", p)
		encoded[p] = out
		after = append(after, compiler.Source{Name: p, Src: out})
	}
	want := compiler.CompileSources(before, compiler.Options{})
	got := compiler.CompileSources(after, compiler.Options{})
	require.Equal(t, want.Diags.HasErrors(), got.Diags.HasErrors(), "%v", got.Diags)
	assert.Equal(t, diagnostics(want), diagnostics(got), "the same diagnostics")
	if want.Program != nil {
		assert.Equal(t, withoutPositions(t, want.Program), withoutPositions(t, got.Program), "the same program")
	}
	return encoded
}

// lostKeys returns the mapping keys of src (as paths, list items by
// index) that out does not have.
func lostKeys(t *testing.T, src, out []byte) []string {
	t.Helper()
	var a, b any
	require.NoError(t, yaml.Unmarshal(src, &a))
	require.NoError(t, yaml.Unmarshal(out, &b))
	have := map[string]bool{}
	keyPaths(b, "", have)
	want := map[string]bool{}
	keyPaths(a, "", want)
	var lost []string
	for k := range want {
		if !have[k] {
			lost = append(lost, k)
		}
	}
	sort.Strings(lost)
	return lost
}

func keyPaths(v any, path string, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			p := path + "." + k
			into[p] = true
			keyPaths(c, p, into)
		}
	case []any:
		for i, c := range x {
			keyPaths(c, fmt.Sprintf("%s[%d]", path, i), into)
		}
	}
}

// IsProjectFile reports whether a file defines flows, slots, actions,
// validators or responses at its top level, and is not a conversation
// test.
func IsProjectFile(name string, src []byte) bool {
	if strings.Contains(filepath.ToSlash(name), "/tests/") {
		return false
	}
	for _, l := range strings.Split(string(src), "\n") {
		for _, k := range []string{"flows:", "slots:", "actions:", "responses:", "validators:"} {
			if strings.HasPrefix(l, k) {
				return true
			}
		}
	}
	return false
}

// Comments returns the text of every comment of a YAML source, sorted.
func Comments(src []byte) []string {
	var out []string
	for _, tk := range lexer.Tokenize(string(src)) {
		if tk.Type == token.CommentType {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(tk.Value, "#")))
		}
	}
	sort.Strings(out)
	return out
}

var positionRE = regexp.MustCompile(`\S+:\d+:\d+`)

// diagnostics lists a result's diagnostics without positions.
func diagnostics(r *compiler.Result) []string {
	var out []string
	for _, d := range r.Diags {
		if d.Code == "W013" {
			continue
		}
		out = append(out, d.Code+" "+positionRE.ReplaceAllString(d.Message, "FILE"))
	}
	sort.Strings(out)
	return out
}

// withoutPositions returns a program as generic JSON data without its
// positions.
func withoutPositions(t *testing.T, p *ir.Program) any {
	t.Helper()
	b, err := json.Marshal(p)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	var strip func(v any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "pos")
			for _, c := range x {
				strip(c)
			}
		case []any:
			for _, c := range x {
				strip(c)
			}
		}
	}
	strip(v)
	return v
}
