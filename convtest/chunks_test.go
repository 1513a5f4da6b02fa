package convtest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// moreCases are plain cases after a layout under test, so that the file
// has enough cases to be split.
const moreCases = `  - test_case: b
    steps:
      - user: hi
  - test_case: c
    steps:
      - user: x
  - test_case: d
    steps:
      - user: y
`

// chunkCases are layouts the piecewise parse must either read exactly as
// one parse does or refuse.
var chunkCases = map[string]string{
	"plain": `flows: x
test_cases:
  - test_case: a
    steps:
      - user: hi
      - bot: "Hello!"
  - test_case: b
    steps:
      - user: bye
  - test_case: c
    steps:
      - user: "again"
  - test_case: d
    steps:
      - user: last
`,
	"keys after the list and comments": `test_cases:
  # first
  - test_case: a
    steps:
      - user: hi

  # second
  - test_case: b
    steps: [{user: bye}]
  - test_case: c
    steps:
      - user: |
          - not an entry
          two lines
  - test_case: d
    steps:
      - user: x
stub_custom_actions:
  get_price: {outputs: {price: 1}}
fixtures:
  - f: [{tier: basic}]
`,
	"entries at column 0": `test_cases:
- test_case: a
  steps:
  - user: hi
- test_case: b
  steps:
  - user: bye
- test_case: c
  steps:
  - user: x
- test_case: d
  steps:
  - user: y
`,
	"a quoted string over an entry-like line": `test_cases:
  - test_case: a
    steps:
      - user: "hello
  - there"
` + moreCases,
	"a flow list over an entry-like line": `test_cases:
  - test_case: a
    steps: [{user: hi},
  - {bot: x}]
` + moreCases,
	"anchors across pieces": `test_cases:
  - test_case: a
    steps: &s
      - user: hi
  - test_case: b
    steps: *s
  - test_case: c
    steps: *s
  - test_case: d
    steps: *s
`,
	"problems in every piece": `test_cases:
  - just text
  - test_case: a
    steps:
      - usr: hi
  - test_case: a
    steps:
      - user: hi
  - test_case: b
  - test_case: c
    stepz: []
`,
	"two documents": `test_cases:
  - test_case: a
    steps:
      - user: hi
  - test_case: b
    steps:
      - user: hi
---
test_cases:
  - test_case: c
    steps:
      - user: hi
  - test_case: d
    steps:
      - user: hi
`,
}

// TestChunkedParseMatchesWhole: whenever the piecewise parse of a test
// file succeeds, the file it decodes to, with its problems, is the one a
// single parse gives; for every test file of the repository and the
// layouts above, in 2, 3 and 5 pieces and in one piece a case.
func TestChunkedParseMatchesWhole(t *testing.T) {
	sources := testSources(t)
	require.Greater(t, len(sources), 20)
	chunked := 0
	for name, src := range sources {
		for _, n := range []int{0, 2, 3, 5} { // 0: a piece for every case
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				if sameAsWhole(t, name, src, n) {
					chunked++
				}
			})
		}
	}
	assert.Greater(t, chunked, 20, "the piecewise parse should apply to most test files")
	for _, refused := range []string{"a quoted string over an entry-like line", "a flow list over an entry-like line", "anchors across pieces", "two documents"} {
		_, ok := parseAtEveryEntry([]byte(chunkCases[refused]))
		assert.False(t, ok, "%s: must be parsed whole", refused)
	}
}

// parseAtEveryEntry parses text with a piece for every case, when its
// layout allows pieces at all.
func parseAtEveryEntry(text []byte) (*ast.File, bool) {
	lines := lineStarts(text)
	key, ok := casesKeyLine(text, lines)
	if !ok {
		return nil, false
	}
	entries := caseEntries(text, lines, key)
	if len(entries) < 2 {
		return nil, false
	}
	return parsePieces(text, lines, entries)
}

// sameAsWhole parses src in n pieces and, when that succeeds, requires
// that it decodes as the whole file does. It reports whether it did.
func sameAsWhole(t testing.TB, name string, src []byte, n int) bool {
	text := bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return false // parseYAML refuses it before any parse
	}
	text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	pieced, ok := parseChunked(text, n)
	if n == 0 {
		pieced, ok = parseAtEveryEntry(text)
	}
	if !ok {
		return false
	}
	_, err := parser.ParseBytes(text, 0)
	require.NoError(t, err, "%s: the pieces parse but the whole file does not", name)
	wantFile, wantDiags, _ := decodeDoc(name, src, yamlDoc{}, true)
	gotFile, gotDiags := decodeFile(name, src, yamlDoc{file: pieced, pieced: true})
	assert.Equal(t, wantDiags, gotDiags, name)
	assert.Equal(t, wantFile, gotFile, name)
	return true
}

// FuzzChunkedParse: a file the piecewise parse reads decodes as the whole
// file does.
func FuzzChunkedParse(f *testing.F) {
	for _, src := range chunkCases {
		f.Add(src, 2)
	}
	f.Fuzz(func(t *testing.T, src string, n int) {
		if n < 0 || n == 1 || n > 6 {
			return
		}
		sameAsWhole(t, "fuzz.yaml", []byte(src), n)
	})
}

// testSources returns the layouts of chunkCases and every test file of
// the repository, by name (a file's path from the repository's root).
func testSources(t *testing.T) map[string][]byte {
	t.Helper()
	sources := map[string][]byte{}
	for name, src := range chunkCases {
		sources[name] = []byte(src)
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return fs.SkipDir
		}
		if d.IsDir() || !isYAMLName(d.Name()) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err == nil && IsTestFile(src) {
			rel, _ := filepath.Rel(root, p)
			sources[filepath.ToSlash(rel)] = src
		}
		return nil
	}))
	return sources
}
