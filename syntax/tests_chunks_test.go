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

// decodeBoth decodes src parsed whole and parsed in n pieces; ok is
// whether the pieces were used.
func decodeBoth(t *testing.T, src string, n int) (whole, pieces *TestFile, ok bool) {
	t.Helper()
	wf, err := parser.ParseBytes([]byte(src), 0)
	require.NoError(t, err)
	whole, _ = (&ParsedTests{src: []byte(src), file: wf}).Decode("t.yaml")
	pf, ok := parseInPieces([]byte(src), n)
	if !ok {
		return whole, nil, false
	}
	pieces, _ = (&ParsedTests{src: []byte(src), file: pf}).Decode("t.yaml")
	// The trees the decoder reads, unexported positions included (a
	// case's dash, which EncodeTests uses to rewrite a case in place).
	require.Equal(t, dataOf("t.yaml", wf.Docs[0].Body), dataOf("t.yaml", pf.Docs[0].Body))
	return whole, pieces, true
}

func TestParseInPiecesIsTheWholeParse(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 3, 7} {
		whole, pieces, ok := decodeBoth(t, bigTests(100, -1, ""), n)
		require.True(t, ok, "n=%d", n)
		require.Len(t, whole.Cases, 100)
		assert.Equal(t, whole, pieces, "n=%d", n)
	}
	// An alias to an anchor of another piece is still an alias, which
	// the decoder refuses the same way.
	aliased := strings.Replace(bigTests(20, -1, ""), "- test_case: c1 #", "- test_case: &x c1 #", 1) + "  - test_case: *x\n"
	wf, err := parser.ParseBytes([]byte(aliased), 0)
	require.NoError(t, err)
	_, wholeDiags := (&ParsedTests{src: []byte(aliased), file: wf}).Decode("t.yaml")
	pf, ok := parseInPieces([]byte(aliased), 2)
	require.True(t, ok)
	_, pieceDiags := (&ParsedTests{src: []byte(aliased), file: pf}).Decode("t.yaml")
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
		if whole, pieces, ok := decodeBoth(t, string(src), 2); ok {
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
		"a key after the cases":    bigTests(20, -1, "") + "stub_custom_actions: {}\n",
		"a second document":        bigTests(20, 10, "---\n"),
		"a tab":                    bigTests(20, 10, "\t- test_case: x\n"),
		"a case without a space":   bigTests(20, 10, "  -\n    test_case: y\n"),
		"flow-style cases":         "test_cases: [" + strings.Repeat("{test_case: a},", 20) + "]\n",
		"too few cases":            bigTests(3, -1, ""),
		"a broken case at the end": bigTests(20, 19, "  - test_case: [unclosed\n"),
	} {
		_, ok := parseInPieces([]byte(src), 2)
		assert.False(t, ok, name)
	}
	src := bigTests(20, 15, "  - test_case: [unclosed\n")
	_, wholeErr := parser.ParseBytes([]byte(src), 0)
	_, err := parseTestsText([]byte(src))
	require.Error(t, err)
	assert.Equal(t, wholeErr.Error(), err.Error())
}
