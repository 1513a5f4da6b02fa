package syntax_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/syntax"
)

// roundTripProjects are the example projects and the test data projects
// whose project files are decoded and encoded again.
var roundTripProjects = []string{
	"../flows/banking", "../flows/compat", "../flows/support", "../flows/travel",
	"../testdata/book_flight", "../testdata/calls", "../testdata/citydesk", "../testdata/clarifications",
	"../testdata/decisions", "../testdata/lists", "../testdata/modelhealth", "../testdata/patterns/defaults",
	"../testdata/patterns/overrides", "../testdata/plainwords", "../testdata/python_compat", "../testdata/responses",
	"../testdata/ten_mistakes.yaml",
}

// TestRoundTrip: decoding a project file and encoding it again keeps
// every comment, writes the golden bytes (syntax/testdata/roundtrip,
// refreshed with SONI_UPDATE=1), is stable (encoding the result again
// gives the same bytes), and compiles to the same program, positions
// aside.
func TestRoundTrip(t *testing.T) {
	for _, dir := range roundTripProjects {
		t.Run(strings.TrimPrefix(dir, "../"), func(t *testing.T) {
			paths, ds := compiler.ProjectFiles(dir)
			require.Empty(t, ds)
			var before, after []compiler.Source
			for _, p := range paths {
				src, err := os.ReadFile(p)
				require.NoError(t, err)
				before = append(before, compiler.Source{Name: p, Src: src})
				if !isProjectFile(p, src) {
					after = append(after, compiler.Source{Name: p, Src: src})
					continue
				}
				f, err := syntax.DecodeFlows(p, src)
				if f == nil {
					require.NoError(t, err)
				}
				out, err := syntax.Encode(f)
				require.NoError(t, err)
				assert.Equal(t, comments(src), comments(out), "%s: the comments", p)
				again, err := syntax.DecodeFlows(p, out)
				require.NotNil(t, again, "%s: %v", p, err)
				out2, err := syntax.Encode(again)
				require.NoError(t, err)
				assert.Equal(t, string(out), string(out2), "%s: encoding is stable", p)
				golden(t, filepath.Join("testdata", "roundtrip", strings.ReplaceAll(strings.TrimPrefix(p, "../"), "/", "__")), out)
				after = append(after, compiler.Source{Name: p, Src: out})
			}
			want := compiler.CompileSources(before, compiler.Options{})
			got := compiler.CompileSources(after, compiler.Options{})
			require.Equal(t, want.Diags.HasErrors(), got.Diags.HasErrors(), "%v", got.Diags)
			assert.Equal(t, codes(want), codes(got), "the same diagnostics")
			if want.Program == nil {
				return
			}
			assert.Equal(t, withoutPositions(t, want.Program), withoutPositions(t, got.Program))
		})
	}
}

// isProjectFile reports whether a file defines flows, slots, actions,
// validators or responses at its top level.
func isProjectFile(name string, src []byte) bool {
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

// comments returns the text of every comment of a YAML source, sorted.
func comments(src []byte) []string {
	var out []string
	for _, tk := range lexer.Tokenize(string(src)) {
		if tk.Type == token.CommentType {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(tk.Value, "#")))
		}
	}
	sort.Strings(out)
	return out
}

// codes lists a result's diagnostics without positions. W013 (the
// Python framework's __end_flow__) is left out: Encode writes __end__.
func codes(r *compiler.Result) []string {
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

var positionRE = regexp.MustCompile(`\S+:\d+:\d+`)

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

// golden compares got with the golden file, or writes it with SONI_UPDATE=1.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run SONI_UPDATE=1 go test ./syntax to write it")
	assert.Equal(t, string(want), string(got), "%s", path)
}
