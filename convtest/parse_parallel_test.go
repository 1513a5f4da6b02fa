package convtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
	docs "github.com/soni-dev/soni/syntax"
)

// TestBuildInParallelIsOneLoop: the cases of a file long enough to be
// built on several goroutines are the same, with the same problems in
// the same order, as built on one.
func TestBuildInParallelIsOneLoop(t *testing.T) {
	t.Parallel()
	n := 3*parallelCases + 5
	var b strings.Builder
	b.WriteString("flows: ../flows/banking\ntest_cases:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - test_case: c%d\n    steps:\n", i)
		switch i {
		case 3, parallelCases + 2:
			b.WriteString("      - bot: Hello\n") // a check before the first user step
		case 90, n - 1:
			b.WriteString("      - user: hi\n      - bot_matches: \"(unclosed\"\n") // not a regular expression
		case 2 * parallelCases:
			b.WriteString("      - user: hi\n        commands: [{chitchat: dance}]\n") // no kind of small talk
		}
		b.WriteString("      - user: send money\n      - bot: Who?\n")
	}
	src := []byte(b.String())
	build := func(workers int) (*File, diag.List) {
		doc, ds := docs.DecodeTests("t.yaml", src)
		require.NotNil(t, doc)
		bd := &builder{p: docs.Problems{Diags: &ds}, workers: workers}
		f := bd.file(doc, src)
		ds.Sort()
		return f, ds
	}
	one, oneDiags := build(1)
	require.Len(t, one.Cases, n)
	require.Len(t, oneDiags, 5, "%v", oneDiags)
	for _, workers := range []int{2, 3} {
		f, ds := build(workers)
		assert.Equal(t, oneDiags, ds, "workers=%d", workers)
		assert.Equal(t, one, f, "workers=%d", workers)
	}
}
