package soni_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleBackendsAvoidRasaPorts: the example projects' local backends
// listen on ports of their own, not on Rasa's server (5005) or action
// server (5055) ports, so that a team moving from Rasa can run both on
// one machine.
func TestExampleBackendsAvoidRasaPorts(t *testing.T) {
	rasaPort := regexp.MustCompile(`(127\.0\.0\.1|localhost):50[05]5\b`)
	var checked int
	for _, root := range []string{"flows", "internal"} {
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if !strings.HasSuffix(path, ".yaml") && !strings.HasSuffix(path, ".go") {
				return nil
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			checked++
			assert.Empty(t, rasaPort.FindAllString(string(b), -1), "%s uses a port of Rasa's", path)
			return nil
		}))
	}
	assert.Greater(t, checked, 10)
}
