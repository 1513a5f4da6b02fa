package scaffold

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModulePath(t *testing.T) {
	for name, want := range map[string]string{
		"coffee":        "coffee",
		"My Coffee Bot": "my-coffee-bot",
		"café.2":        "caf-.2",
		"..":            "bot",
		"":              "bot",
	} {
		assert.Equal(t, want, modulePath(name), name)
	}
}

// TestCreate writes every template file under its real name, and never
// into a directory that has something in it.
func TestCreate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bot")
	files, err := Create(dir, "bot")
	require.NoError(t, err)
	assert.Equal(t, []string{
		".github/workflows/soni.yml", ".gitignore", "README.md", "evals/order.eval.yaml",
		"flows/actions/cafe/main.go", "flows/domain.yaml", "flows/order.yaml", "flows/tests/order.yaml", "go.mod",
	}, files)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "__NAME__", f)
		assert.NotContains(t, string(b), "__MODULE__", f)
	}
	before, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	_, err = Create(dir, "other")
	require.ErrorContains(t, err, "is not empty")
	after, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	assert.Equal(t, before, after, "nothing is overwritten")
}

// TestTemplatesAreCanonical: every template project file decodes with the
// syntax package, and is in the form Encode writes, so that soni init
// writes the templates as they read.
func TestTemplatesAreCanonical(t *testing.T) {
	n := 0
	err := fs.WalkDir(template, "template", func(p string, d fs.DirEntry, err error) error {
		name := strings.TrimPrefix(p, "template/")
		if err != nil || d.IsDir() || !isProjectFile(name) {
			return err
		}
		n++
		src, err := template.ReadFile(p)
		require.NoError(t, err)
		out, err := canonical(name, src)
		require.NoError(t, err)
		if os.Getenv("SONI_UPDATE") != "" {
			return os.WriteFile(p, out, 0o644)
		}
		assert.Equal(t, string(src), string(out), "%s is not in canonical form: run SONI_UPDATE=1 go test ./cmd/soni/internal/scaffold", name)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the project files: flows/domain.yaml and flows/order.yaml")
}
