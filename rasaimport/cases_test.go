package rasaimport

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// casesDir holds small Rasa projects, one per construct of a real project
// that the main fixture does not show (symbolic links, a model group, ...):
// each case's in/ is the Rasa project and golden/ its import, file by file,
// with report.json (SONI_UPDATE=1 rewrites them).
const casesDir = "../testdata/rasa/cases"

// TestImportCases pins the import of every case and checks that the soni
// project it writes compiles with no error.
func TestImportCases(t *testing.T) {
	entries, err := os.ReadDir(casesDir)
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			in := filepath.Join(casesDir, e.Name(), "in")
			golden := filepath.Join(casesDir, e.Name(), "golden")
			files, rep, err := Translate(in)
			require.NoError(t, err)
			files["report.json"] = rep.JSON()
			if os.Getenv("SONI_UPDATE") != "" {
				require.NoError(t, os.RemoveAll(golden))
				for p, b := range files {
					full := filepath.Join(golden, filepath.FromSlash(p))
					require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
					require.NoError(t, os.WriteFile(full, b, 0o644))
				}
			}
			var want []string
			require.NoError(t, filepath.WalkDir(golden, func(path string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					rel, _ := filepath.Rel(golden, path)
					want = append(want, filepath.ToSlash(rel))
				}
				return err
			}), "missing golden files: run SONI_UPDATE=1 go test ./rasaimport")
			var got []string
			for p := range files {
				got = append(got, p)
			}
			slices.Sort(got)
			slices.Sort(want)
			require.Equal(t, want, got, "the import writes other files than the golden ones: run SONI_UPDATE=1 go test ./rasaimport")
			for _, p := range got {
				b, err := os.ReadFile(filepath.Join(golden, filepath.FromSlash(p)))
				require.NoError(t, err)
				assert.Equal(t, string(b), string(files[p]), "%s is out of date: run SONI_UPDATE=1 go test ./rasaimport", p)
			}
			delete(files, "report.json")
			dir := writeProject(t, files)
			r := compiler.Compile(dir, compiler.Options{})
			for _, d := range r.Diags {
				assert.NotEqual(t, diag.Error, d.Severity, "%s", d)
			}
		})
	}
}
