package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEmbeddedDataIsTheGeneratorsOutput: understand/wordnet_en.txt is
// what this generator writes from Debian's wordnet-base, byte for byte,
// so the embedded data is never edited by hand. CI installs wordnet-base
// (.ci/run); elsewhere the test skips without it.
func TestEmbeddedDataIsTheGeneratorsOutput(t *testing.T) {
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("wordnet-base is not installed (%v): .ci/run installs it", err)
		}
		t.Skip("wordnet-base is not installed: apt-get install wordnet-base")
	}
	out := filepath.Join(t.TempDir(), "wordnet_en.txt")
	require.NoError(t, run(dir, out))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile("../../understand/wordnet_en.txt")
	require.NoError(t, err)
	require.True(t, string(got) == string(want), "understand/wordnet_en.txt is out of date: go generate ./understand")
}

// TestMissingWordNetIsAClearError: without WordNet's files the generator
// names the directory and the package to install.
func TestMissingWordNetIsAClearError(t *testing.T) {
	t.Parallel()
	err := run(t.TempDir(), filepath.Join(t.TempDir(), "out.txt"))
	require.Error(t, err)
	require.Contains(t, err.Error(), "wordnet-base")
}
