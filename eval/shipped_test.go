package eval

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/understand"
)

// TestShippedEvalFiles: every eval file of the repository whose project is
// in the repository (evals/ and the held-out evals/fresh/; evals/unseen/
// needs imports made outside it) loads, and every case's earlier turns and
// labels are commands of its project. It asserts no accuracy: the figures
// are measured with soni eval and reported in docs/understanding.md.
func TestShippedEvalFiles(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../evals/*.eval.yaml", "../evals/fresh/*.eval.yaml"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		paths = append(paths, m...)
	}
	require.NotEmpty(t, paths)
	for _, path := range paths {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			f, prog, dir, err := Load(path)
			require.NoError(t, err)
			res, err := Run(context.Background(), path, f, prog, dir, understand.New(prog))
			require.NoError(t, err)
			assert.Equal(t, len(f.Cases), res.Total)
		})
	}
}
