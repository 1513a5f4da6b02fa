package rasaimport_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/syntax/syntaxtest"
)

// TestImportedProjectsRoundTrip: every project the importer wrote (the
// goldens of testdata/rasa) is held by the syntax package's model
// without loss: its files decode, and encoding them again keeps every
// comment the importer wrote (what needs a person, what Rasa had) and
// compiles to the same program. The flow files and domain.yaml are
// written with syntax.Encode, so encoding them again gives their bytes.
func TestImportedProjectsRoundTrip(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/rasa/cases/*/golden")
	require.NoError(t, err)
	dirs = append(dirs, "../testdata/rasa/golden")
	require.Greater(t, len(dirs), 5)
	for _, dir := range dirs {
		t.Run(strings.TrimPrefix(dir, "../testdata/rasa/"), func(t *testing.T) {
			encoded := syntaxtest.RoundTrip(t, dir)
			n := 0
			for p, out := range encoded {
				rel, err := filepath.Rel(dir, p)
				require.NoError(t, err)
				if !strings.HasPrefix(rel, "flows"+string(filepath.Separator)) && rel != "domain.yaml" {
					continue
				}
				src, err := os.ReadFile(p)
				require.NoError(t, err)
				assert.Equal(t, string(src), string(out), "%s: the importer writes what syntax.Encode writes", rel)
				n++
			}
			assert.Positive(t, n, "no flow file or domain.yaml in %s", dir)
		})
	}
}
