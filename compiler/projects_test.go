package compiler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSplitProjects: a directory of projects splits into its projects, the
// nearest directories that hold flow files; any other directory or file
// is one project.
func TestSplitProjects(t *testing.T) {
	t.Parallel()
	const flow = "flows:\n  f:\n    steps:\n      - {step: a, type: say, message: hi}\n"
	const domain = "slots:\n  x: {type: text}\n"
	const tests = "test_cases: []\n"
	const evals = "flows: ../banking\neval_cases: []\n"
	layouts := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"projects side by side", map[string]string{
			"banking/domain.yaml": domain, "banking/flows.yaml": flow, "banking/tests/t.yaml": tests,
			"travel/flows.yaml": flow, "more/deep/support/flows.yaml": flow,
		}, []string{"banking", "more/deep/support", "travel"}},
		{"one project in domain/ and flows/", map[string]string{
			"domain/slots.yaml": domain, "flows/a.yaml": flow,
		}, []string{"."}},
		{"flow files at the top", map[string]string{
			"main.yaml": flow, "banking/flows.yaml": flow, "travel/flows.yaml": flow,
		}, []string{"."}},
		{"one subdirectory", map[string]string{"banking/flows.yaml": flow, "banking/tests/t.yaml": tests}, []string{"."}},
		{"tests only beside a project", map[string]string{"tests/t.yaml": tests, "app/flows.yaml": flow}, []string{"."}},
		{"eval files beside projects", map[string]string{
			"banking/flows.yaml": flow, "travel/flows.yaml": flow, "evals/banking.eval.yaml": evals,
		}, []string{"banking", "travel"}},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			root := t.TempDir()
			for name, src := range l.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
			}
			var got []string
			for _, p := range SplitProjects(root, Options{}) {
				rel, err := filepath.Rel(root, p)
				require.NoError(t, err)
				got = append(got, filepath.ToSlash(rel))
			}
			assert.Equal(t, l.want, got)
		})
	}
	t.Run("a file or a missing path is itself", func(t *testing.T) {
		assert.Equal(t, []string{"nope/x.yaml"}, SplitProjects("nope/x.yaml", Options{}))
	})
}
