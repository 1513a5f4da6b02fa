package syntax

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
)

// bigTests is a test file of n cases in the layout soni writes, with
// comments, blank lines, a block scalar and flow-style steps between
// them; extra is inserted before case bad, when bad >= 0.
func bigTests(n, bad int, extra string) string {
	var b strings.Builder
	b.WriteString("# cases\nflows: ../flows/banking\n\ntest_cases:\n")
	for i := range n {
		if i == bad {
			b.WriteString(extra)
		}
		fmt.Fprintf(&b, "  - test_case: c%d # case %d\n    steps:\n", i, i)
		switch i % 3 {
		case 0:
			b.WriteString("      - user: send money\n      - bot: |\n          Who should\n          - receive it?\n")
		case 1:
			b.WriteString("\n      # a comment at the case's indentation\n  # and one at the left\n      - {user: \"50\", bot: \"How much?\"}\n")
		default:
			b.WriteString("      - user: 'it''s me'\n      - slot_was_set:\n          - amount: 50\n")
		}
	}
	return b.String()
}

// decodeBoth decodes src parsed whole and parsed in pieces of about size
// bytes; ok is whether the pieces were used.
func decodeBoth(t *testing.T, src string, size int) (whole, pieces *TestFile, ok bool) {
	t.Helper()
	text := []byte(src)
	wf, err := parser.ParseBytes(text, 0)
	require.NoError(t, err)
	wp := &ParsedTests{src: text, text: text, file: wf}
	whole, _ = wp.Decode("t.yaml")
	head, pcs, ok := cutCases(text, size)
	if !ok {
		return whole, nil, false
	}
	hf, err := parser.ParseBytes(head, 0)
	require.NoError(t, err)
	require.True(t, headEndsInCases(hf))
	pp := &ParsedTests{src: text, text: text, file: hf, pieces: pcs}
	pieces, _ = pp.Decode("t.yaml")
	// The trees the decoder reads, unexported positions included (a
	// case's dash, which EncodeTests uses to rewrite a case in place).
	var ds diag.List
	require.Equal(t, wp.tree("t.yaml", 1, Problems{Diags: &ds}), pp.tree("t.yaml", 2, Problems{Diags: &ds}))
	require.Empty(t, ds)
	return whole, pieces, true
}

func TestParseInPiecesIsTheWholeParse(t *testing.T) {
	t.Parallel()
	for _, size := range []int{1, 500, 4000, 1 << 20} {
		whole, pieces, ok := decodeBoth(t, bigTests(100, -1, ""), size)
		require.True(t, ok, "size=%d", size)
		require.Len(t, whole.Cases, 100)
		assert.Equal(t, whole, pieces, "size=%d", size)
	}
	// An empty case is a null, as in the whole file.
	whole, pieces, ok := decodeBoth(t, bigTests(20, 12, "  - \n"), 300)
	require.True(t, ok)
	assert.Equal(t, whole, pieces)
	// An alias to an anchor of another piece is still an alias, which
	// the decoder refuses the same way.
	aliased := strings.Replace(bigTests(20, -1, ""), "- test_case: c1 #", "- test_case: &x c1 #", 1) + "  - test_case: *x\n"
	wf, err := parser.ParseBytes([]byte(aliased), 0)
	require.NoError(t, err)
	_, wholeDiags := (&ParsedTests{src: []byte(aliased), file: wf}).Decode("t.yaml")
	head, pcs, ok := cutCases([]byte(aliased), 500)
	require.True(t, ok)
	hf, err := parser.ParseBytes(head, 0)
	require.NoError(t, err)
	_, pieceDiags := (&ParsedTests{src: []byte(aliased), text: []byte(aliased), file: hf, pieces: pcs}).Decode("t.yaml")
	require.NotEmpty(t, wholeDiags)
	assert.Equal(t, wholeDiags, pieceDiags)
	// Every test file of the repository that has the layout.
	files, _ := filepath.Glob("../flows/*/tests/*.yaml")
	more, _ := filepath.Glob("../testdata/*/tests/*.yaml")
	for _, path := range append(files, more...) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		if _, err := parser.ParseBytes(src, 0); err != nil {
			continue
		}
		if whole, pieces, ok := decodeBoth(t, string(src), 200); ok {
			assert.Equal(t, whole, pieces, path)
		}
	}
}

// TestParseInPiecesRefuses: a layout it does not cut, or a piece that
// does not parse, leaves the file to the whole parse, whose error names
// the line in the file.
func TestParseInPiecesRefuses(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{
		"a key after the cases":  bigTests(20, -1, "") + "stub_custom_actions: {}\n",
		"a second document":      bigTests(20, 10, "---\n"),
		"a tab":                  bigTests(20, 10, "\t- test_case: x\n"),
		"a case without a space": bigTests(20, 10, "  -\n    test_case: y\n"),
		"flow-style cases":       "test_cases: [" + strings.Repeat("{test_case: a},", 20) + "]\n",
	} {
		_, _, ok := cutCases([]byte(src), 500)
		assert.False(t, ok, name)
	}
	// A large file with a broken case: the whole file's error, at its
	// line in the file.
	pad := strings.Repeat("# padding\n", chunkMin/10)
	for _, at := range []int{0, 150, 299} {
		src := pad + bigTests(300, at, "  - test_case: [unclosed\n")
		_, wholeErr := parser.ParseBytes([]byte(src), 0)
		require.Error(t, wholeErr)
		p := ParseTests([]byte(src))
		require.NotNil(t, p.pieces, "the head parses")
		_, ds := p.Decode("t.yaml")
		require.Len(t, ds, 1)
		var yerr interface{ GetMessage() string }
		require.ErrorAs(t, wholeErr, &yerr)
		assert.Contains(t, ds[0].Message, strings.SplitN(yerr.GetMessage(), "\n", 2)[0])
		_, want := (&ParsedTests{src: []byte(src), text: []byte(src), err: wholeErr}).Decode("t.yaml")
		assert.Equal(t, want, ds, "case %d", at)
	}
}

// TestLargeFileParsesInPieces: ParseTests leaves a large test file's
// cases to Decode, which gives what the whole file's parse gives.
func TestLargeFileParsesInPieces(t *testing.T) {
	t.Parallel()
	src := []byte(bigTests(3000, -1, ""))
	require.GreaterOrEqual(t, len(src), chunkMin)
	p := ParseTests(src)
	require.NotNil(t, p.pieces)
	assert.True(t, p.IsTests())
	f, ds := p.Decode("t.yaml")
	wf, err := parser.ParseBytes(src, 0)
	require.NoError(t, err)
	want, wantDiags := (&ParsedTests{src: src, text: src, file: wf}).Decode("t.yaml")
	require.Len(t, f.Cases, 3000)
	assert.True(t, assert.ObjectsAreEqual(want, f), "the pieces' file differs from the whole's")
	assert.True(t, assert.ObjectsAreEqual(wantDiags, ds), "the pieces' problems differ from the whole's")
}
