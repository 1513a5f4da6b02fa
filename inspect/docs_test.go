package inspect

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocCountsThePagesFiles keeps docs/inspect.md true about the files
// the page is made of: their number and their names.
func TestDocCountsThePagesFiles(t *testing.T) {
	doc, err := os.ReadFile("../docs/inspect.md")
	require.NoError(t, err)
	m := regexp.MustCompile("The page is (\\w+) files embedded in the binary \\(package\\s+`inspect`: ([^)]*)\\)").FindSubmatch(doc)
	require.NotNil(t, m, "docs/inspect.md no longer says what the page is made of")
	var names []string
	for _, n := range regexp.MustCompile("`([^`]+)`").FindAllSubmatch(m[2], -1) {
		names = append(names, string(n[1]))
	}
	var files []string
	require.NoError(t, fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, strings.TrimPrefix(p, "assets/"))
		}
		return err
	}))
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	require.Less(t, len(files), len(words))
	assert.Equal(t, words[len(files)], string(m[1]), "the number of files")
	assert.ElementsMatch(t, files, names, "the files named")
}
