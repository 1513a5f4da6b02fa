package compiler

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var wantRe = regexp.MustCompile(`#\s*want:\s*([EW]\d{3})\s+(\d+):(\d+)`)

// TestCodeCases compiles every testdata/codes/*.yaml file and compares all
// its diagnostics (code, line and column) with the file's "# want: CODE
// LINE:COL" comments. Every file must produce exactly what it declares.
func TestCodeCases(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/codes/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			var want []string
			for _, m := range wantRe.FindAllStringSubmatch(string(src), -1) {
				want = append(want, fmt.Sprintf("%s %s:%s", m[1], m[2], m[3]))
			}
			require.NotEmpty(t, want, "no # want: comments in %s", name)
			r := CompileSource(filepath.ToSlash(name), src, Options{})
			var got []string
			for _, d := range r.Diags {
				got = append(got, fmt.Sprintf("%s %d:%d", d.Code, d.Pos.Line, d.Pos.Col))
			}
			sort.Strings(want)
			sort.Strings(got)
			var msgs []string
			for _, d := range r.Diags {
				msgs = append(msgs, d.String())
			}
			assert.Equal(t, want, got, "diagnostics:\n%s", strings.Join(msgs, "\n"))
		})
	}
}
