package rasaimport_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/syntax/syntaxtest"
)

// TestImportedProjectsRoundTrip: every project the importer wrote (the
// goldens of testdata/rasa) is held by the syntax package's model
// without loss: its files decode, and encoding them again keeps every
// comment the importer wrote (what needs a person, what Rasa had) and
// compiles to the same program.
func TestImportedProjectsRoundTrip(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/rasa/cases/*/golden")
	require.NoError(t, err)
	dirs = append(dirs, "../testdata/rasa/golden")
	require.Greater(t, len(dirs), 5)
	for _, dir := range dirs {
		t.Run(strings.TrimPrefix(dir, "../testdata/rasa/"), func(t *testing.T) {
			syntaxtest.RoundTrip(t, dir)
		})
	}
}
