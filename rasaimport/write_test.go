package rasaimport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFilesSafety(t *testing.T) {
	files := map[string][]byte{"domain.yaml": []byte("a: 1\n"), "flows/x.yaml": []byte("b: 2\n")}

	t.Run("a corrupt manifest stops the import", func(t *testing.T) {
		dst := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dst, ManifestFile), []byte("{not json"), 0o644))
		_, err := writeFiles(dst, "src", files, Options{}, nil, nil)
		require.ErrorContains(t, err, "is not the importer's manifest")
		_, err = os.Stat(filepath.Join(dst, "domain.yaml"))
		assert.ErrorIs(t, err, os.ErrNotExist, "nothing is written")
	})

	t.Run("a symbolic link is never written through", func(t *testing.T) {
		dst, outside := t.TempDir(), t.TempDir()
		target := filepath.Join(outside, "secret.yaml")
		require.NoError(t, os.WriteFile(target, []byte("keep\n"), 0o644))
		require.NoError(t, os.Symlink(target, filepath.Join(dst, "domain.yaml")))
		changes, err := writeFiles(dst, "src", files, Options{Force: true}, nil, nil)
		require.NoError(t, err)
		assert.Contains(t, changes, FileChange{Path: "domain.yaml", Action: "skipped"})
		assert.Contains(t, changes, FileChange{Path: "flows/x.yaml", Action: "written"})
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		assert.Equal(t, "keep\n", string(b))
	})

	t.Run("the output directory cannot be a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		require.NoError(t, os.WriteFile(f, nil, 0o644))
		_, err := writeFiles(f, "src", files, Options{}, nil, nil)
		var rerr *ReadError
		require.ErrorAs(t, err, &rerr)
		assert.Contains(t, err.Error(), "cannot create the output directory")
	})

	t.Run("a file the manifest lists but a person deleted is written again", func(t *testing.T) {
		dst := t.TempDir()
		_, err := writeFiles(dst, "src", files, Options{}, nil, nil)
		require.NoError(t, err)
		require.NoError(t, os.Remove(filepath.Join(dst, "domain.yaml")))
		changes, err := writeFiles(dst, "src", files, Options{}, nil, nil)
		require.NoError(t, err)
		assert.Contains(t, changes, FileChange{Path: "domain.yaml", Action: "written"})
		assert.Contains(t, changes, FileChange{Path: "flows/x.yaml", Action: "unchanged"})
	})
}
