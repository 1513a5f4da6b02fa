package serve

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorTableIsTrue: docs/serve.md's table of errors lists every code
// the server answers with, and no other.
func TestErrorTableIsTrue(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "serve.md"))
	require.NoError(t, err)
	documented := map[string]bool{}
	row := regexp.MustCompile(`(?m)^\| [0-9, ]+ \| (.*?) \|`)
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		for _, code := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(m[1], -1) {
			documented[code[1]] = true
		}
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	used := map[string]bool{}
	call := regexp.MustCompile(`(?:writeError\(w, [^,]+, |httpError\{[^,]+, |rawError\([^,]+, |"code":|return )"([a-z_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
		}
	}
	require.NotEmpty(t, used)
	// The codes of the metrics and logs that are no error of a request.
	for _, code := range []string{"ok", "duplicate"} {
		delete(used, code)
	}
	assert.Equal(t, slices.Sorted(maps.Keys(used)), slices.Sorted(maps.Keys(documented)))
}
