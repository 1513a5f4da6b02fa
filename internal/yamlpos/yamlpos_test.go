package yamlpos

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/schema"
)

// parse returns the body of the single document in src.
func parse(t *testing.T, src string) ast.Node {
	t.Helper()
	f, err := parser.ParseBytes([]byte(src), parser.ParseComments)
	require.NoError(t, err)
	require.Len(t, f.Docs, 1)
	return f.Docs[0].Body
}

// at is a line:col pair, for readable assertions.
func at(line, col int) string { return fmt.Sprintf("%d:%d", line, col) }

const sample = `version: "1.0"
base: &base
  step: from_anchor
  type: say
flows:
  book:
    trigger:
      intents: [hello, 'book a flight']
    steps:
      - step: greet
        type: say
        message: "Hi there"
      - step: ask
        type: collect
        slot: origin
      - <<: *base
        message: merged
      - {step: inline, type: link, target: other}
      - step: loop
        type: while
        do:
          - greet
          - step: nested
            type: say
            message: |
              literal
`

func TestLookup(t *testing.T) {
	root := parse(t, sample)
	for _, tc := range []struct {
		name     string
		tokens   []string
		pos      string
		key      string // position of Where.Key, "" when nil
		depth    int
		complete bool
	}{
		{"root", nil, at(1, 1), "", 0, true},
		{"top-level value", []string{"version"}, at(1, 10), at(1, 1), 1, true},
		{"mapping value is placed at its first key", []string{"flows", "book"}, at(7, 5), at(6, 3), 2, true},
		{"block list starts at its first dash", []string{"flows", "book", "steps"}, at(10, 7), at(9, 5), 3, true},
		{"list item key is its dash", []string{"flows", "book", "steps", "1"}, at(13, 9), at(13, 7), 4, true},
		{"quoted scalar points at the quote", []string{"flows", "book", "steps", "0", "message"}, at(12, 18), at(12, 9), 5, true},
		{"single-quoted flow item", []string{"flows", "book", "trigger", "intents", "1"}, at(8, 24), "", 5, true},
		{"flow mapping item keeps its dash", []string{"flows", "book", "steps", "3"}, at(18, 10), at(18, 7), 4, true},
		{"flow mapping value", []string{"flows", "book", "steps", "3", "target"}, at(18, 44), at(18, 36), 5, true},
		{"merged key stops at the alias", []string{"flows", "book", "steps", "2", "step"}, at(16, 13), at(16, 7), 4, false},
		{"own key next to a merge", []string{"flows", "book", "steps", "2", "message"}, at(17, 18), at(17, 9), 5, true},
		{"anchored mapping is looked through", []string{"base", "type"}, at(4, 9), at(4, 3), 2, true},
		{"nested inline step", []string{"flows", "book", "steps", "4", "do", "1", "step"}, at(23, 19), at(23, 13), 7, true},
		{"block scalar starts at its indicator", []string{"flows", "book", "steps", "4", "do", "1", "message"}, at(25, 22), at(25, 13), 7, true},
		{"missing key stops at the deepest node", []string{"flows", "book", "nope", "x"}, at(7, 5), at(6, 3), 2, false},
		{"index out of range", []string{"flows", "book", "steps", "9"}, at(10, 7), at(9, 5), 3, false},
		{"index that is not a number", []string{"flows", "book", "steps", "x"}, at(10, 7), at(9, 5), 3, false},
		{"token below a scalar", []string{"version", "x"}, at(1, 10), at(1, 1), 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, w := Lookup(root, tc.tokens)
			assert.Equal(t, tc.pos, at(Pos(n)))
			if tc.key == "" {
				assert.Nil(t, w.Key)
			} else {
				require.NotNil(t, w.Key)
				assert.Equal(t, tc.key, at(Pos(w.Key)))
			}
			assert.Equal(t, tc.depth, w.Depth)
			assert.Equal(t, tc.complete, w.Complete)
		})
	}
}

func TestLookupFromDocumentNode(t *testing.T) {
	f, err := parser.ParseBytes([]byte(sample), 0)
	require.NoError(t, err)
	n, w := Lookup(f.Docs[0], []string{"flows", "book", "steps", "0", "type"})
	require.True(t, w.Complete)
	assert.Equal(t, at(11, 15), at(Pos(n)))
	assert.Equal(t, at(1, 1), at(Pos(f.Docs[0])))
}

func TestKeyNode(t *testing.T) {
	root := parse(t, "a: 1\nb:\n  c: 2\n  c2: 3\n1: num\nnull: x\n\"q k\": y\n")
	for _, tc := range []struct {
		name   string
		tokens []string
		key    string
		pos    string
	}{
		{"top level", nil, "b", at(2, 1)},
		{"nested", []string{"b"}, "c2", at(4, 3)},
		{"integer key", nil, "1", at(5, 1)},
		{"null key", nil, "null", at(6, 1)},
		{"quoted key", nil, "q k", at(7, 1)},
		{"absent", nil, "zz", ""},
		{"not a mapping", []string{"a"}, "x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := Lookup(root, tc.tokens)
			k := KeyNode(m, tc.key)
			if tc.pos == "" {
				assert.Nil(t, k)
				return
			}
			require.NotNil(t, k)
			assert.Equal(t, tc.pos, at(Pos(k)))
		})
	}
}

func TestPosOfNothing(t *testing.T) {
	var m *ast.MappingNode
	assert.Equal(t, at(0, 0), at(Pos(nil)))
	assert.Equal(t, at(0, 0), at(Pos(m)))
	n, w := Lookup(nil, []string{"a"})
	assert.Nil(t, n)
	assert.False(t, w.Complete)
	assert.Nil(t, KeyNode(nil, "a"))
}

// violationsAt validates src and returns each violation as "line:col kind key".
func violationsAt(t *testing.T, src string) []string {
	t.Helper()
	root := parse(t, src)
	var doc any
	require.NoError(t, yaml.NodeToValue(root, &doc))
	var out []string
	for _, v := range schema.Validate(doc) {
		out = append(out, fmt.Sprintf("%s %s %s", at(Place(root, v)), v.Kind, v.Key))
	}
	return out
}

func TestPlace(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "unknown key at the key",
			src:  "flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        mesage: hi\n",
			want: []string{"6:9 unknown-key mesage"},
		},
		{
			name: "unknown top-level key",
			src:  "version: \"1.0\"\nflws: {}\n",
			want: []string{"2:1 unknown-key flws"},
		},
		{
			name: "wrong type at the value",
			src:  "flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        message: [x]\n",
			want: []string{"6:18 wrong-type "},
		},
		{
			name: "wrong type of a quoted value at its quote",
			src:  "flows:\n  f:\n    steps:\n      - step: a\n        type: collect\n        slot: s\n        message: m\n        max_attempts: \"3\"\n",
			want: []string{"8:23 wrong-type "},
		},
		{
			name: "missing field in a nested step at its dash",
			src:  "flows:\n  f:\n    steps:\n      - step: w\n        type: while\n        do:\n          - step: c\n            type: collect\n            message: m\n",
			want: []string{"7:11 missing-field slot"},
		},
		{
			name: "missing field of a mapping value at its key",
			src:  "actions:\n  a:\n    run:\n      http:\n        timeout: 5s\n",
			want: []string{"4:7 missing-field url"},
		},
		{
			name: "missing field at the top of a flow-list item",
			src:  "flows:\n  f:\n    steps:\n      - step: w\n        type: while\n        do: [a, {step: b, type: link}]\n",
			want: []string{"6:18 missing-field target"},
		},
		{
			name: "invalid enum value at the value",
			src:  "flows:\n  f:\n    steps:\n      - step: a\n        type: sya\n",
			want: []string{"5:15 invalid-value "},
		},
		{
			name: "wrong type of a list item",
			src:  "flows:\n  f:\n    trigger:\n      intents:\n        - hello\n        - 42\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []string{"6:11 wrong-type "},
		},
		{
			name: "empty value at its key",
			src:  "flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        message:\n",
			want: []string{"6:9 wrong-type "},
		},
		{
			name: "null value at its key",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: say, message: null}\n      - step: b\n        type: say\n        message:\n      - step: c\n        type: say\n        message: hi\n",
			want: []string{"4:30 wrong-type ", "7:9 wrong-type "},
		},
		{
			name: "empty steps list",
			src:  "flows:\n  f:\n    steps: []\n",
			want: []string{"3:12 invalid-value "},
		},
		{
			name: "missing field of a step merged from an anchor",
			src:  "x: &s {step: a, type: collect}\nflows:\n  f:\n    steps:\n      - <<: *s\n        message: m\n",
			want: []string{"5:7 missing-field slot", "1:1 unknown-key x"},
		},
		{
			name: "wrong type inside an alias stops at the alias",
			src:  "x: &s {step: a, type: say, message: 1}\nflows:\n  f:\n    steps:\n      - *s\n",
			want: []string{"5:9 wrong-type ", "1:1 unknown-key x"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, violationsAt(t, tc.src))
		})
	}
}

func TestPlaceRootAndFallbacks(t *testing.T) {
	root := parse(t, "a: 1\n")
	for _, tc := range []struct {
		name string
		v    schema.Violation
		want string
	}{
		{"missing at the root", schema.Violation{Kind: schema.Missing, Key: "flows"}, at(1, 1)},
		{"unknown key without tokens", schema.Violation{Kind: schema.UnknownKey}, at(1, 1)},
		{"unknown key taken from the last token", schema.Violation{Kind: schema.UnknownKey, Tokens: []string{"a"}}, at(1, 1)},
		{"key that is not there", schema.Violation{Kind: schema.UnknownKey, Tokens: []string{"zz"}, Key: "zz"}, at(1, 1)},
		{"value below a scalar", schema.Violation{Kind: schema.WrongType, Tokens: []string{"a", "b"}}, at(1, 4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, at(Place(root, tc.v)))
		})
	}
}

// TestGolden renders every snippet of testdata/broken.txtar as
// "file:line:col: kind: message (suggestion)" and compares the result with
// testdata/broken.golden. SONI_UPDATE=1 rewrites the golden file.
func TestGolden(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "broken.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, ar.Files)
	var sb strings.Builder
	for _, f := range ar.Files {
		root := parse(t, string(f.Data))
		var doc any
		require.NoError(t, yaml.NodeToValue(root, &doc), f.Name)
		vs := schema.Validate(doc)
		assert.NotEmpty(t, vs, "%s has no violations; the file lists broken snippets only", f.Name)
		type placed struct {
			line, col int
			text      string
		}
		var lines []placed
		for _, v := range vs {
			line, col := Place(root, v)
			text := fmt.Sprintf("%s:%d:%d: %s: %s", f.Name, line, col, v.Kind, v.Message)
			if v.Suggestion != "" {
				text += " (" + v.Suggestion + ")"
			}
			lines = append(lines, placed{line, col, text})
		}
		sort.SliceStable(lines, func(i, j int) bool {
			if lines[i].line != lines[j].line {
				return lines[i].line < lines[j].line
			}
			return lines[i].col < lines[j].col
		})
		for _, l := range lines {
			sb.WriteString(l.text + "\n")
		}
	}
	golden := filepath.Join("testdata", "broken.golden")
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.WriteFile(golden, []byte(sb.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), sb.String())
}
