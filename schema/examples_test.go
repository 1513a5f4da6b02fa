package schema

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleFlowsValidate checks every flow file under the repository's
// flows/ directory against the schema. Conversation-test files (top-level
// test_cases) are not flow files and are skipped.
func TestExampleFlowsValidate(t *testing.T) {
	root := filepath.Join("..", "flows")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no example flows: %v", err)
	}
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, _ := decode(t, string(src)).(map[string]any)
		if _, isTest := doc["test_cases"]; isTest {
			return nil
		}
		n++
		t.Run(path, func(t *testing.T) {
			assert.Empty(t, summarize(Validate(doc)))
		})
		return nil
	})
	require.NoError(t, err)
	require.NotZero(t, n, "no flow files found under %s", root)
}
