package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProgramDoesNotDependOnThePath: however the project's path is typed,
// the compiled program is the same bytes, and its positions are relative
// to the project directory; diagnostics still name files as typed.
func TestProgramDoesNotDependOnThePath(t *testing.T) {
	t.Parallel()
	banking := filepath.Join("..", "flows", "banking")
	abs, err := filepath.Abs(banking)
	require.NoError(t, err)
	encode := func(path string) string {
		r := Compile(path, Options{})
		require.NotNil(t, r.Program, "%s: %v", path, r.Diags)
		b, err := ir.Encode(r.Program)
		require.NoError(t, err)
		return string(b)
	}
	want := encode(banking)
	for _, path := range []string{banking + string(filepath.Separator), "./" + filepath.ToSlash(banking), abs, filepath.Join(banking, "..", "banking")} {
		assert.Equal(t, want, encode(path), path)
	}
	assert.Contains(t, want, `"pos": "transfer.yaml:`)
	assert.NotContains(t, want, "flows/banking")
	assert.NotContains(t, want, abs)

	// A one-file project: positions name the file alone.
	one := filepath.Join("..", "flows", "compat", "python_style.yaml")
	r := Compile(one, Options{})
	require.NotNil(t, r.Program)
	b, err := ir.Encode(r.Program)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"pos": "python_style.yaml:`)
	assert.NotContains(t, string(b), "compat/")

	// Diagnostics keep the path as typed, to be clicked.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("flows: [\n"), 0o644))
	r = Compile(dir, Options{})
	require.NotEmpty(t, r.Diags)
	assert.True(t, strings.HasPrefix(r.Diags[0].Pos.File, filepath.ToSlash(dir)), r.Diags[0].Pos.File)
}
