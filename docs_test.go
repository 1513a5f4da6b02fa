package soni_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmbeddingDocProgram compiles and runs the complete program of
// docs/embedding.md, fed the input its console example shows, and
// compares the output with the example. It keeps the document true.
func TestEmbeddingDocProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with go run")
	}
	doc, err := os.ReadFile("docs/embedding.md")
	require.NoError(t, err)
	prog := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindSubmatch(doc)
	require.NotNil(t, prog, "docs/embedding.md has no complete program")
	console := regexp.MustCompile("(?s)```console\n\\$ printf '([^']*)' \\| go run \\./yourprogram\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, console, "docs/embedding.md has no console example")

	// A directory starting with "." is inside the module but outside ./...
	dir, err := os.MkdirTemp(".", ".docprog-")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	// Keep the program's checkpoints out of the working tree.
	src := strings.Replace(string(prog[1]), `".soni/checkpoints"`, strconv.Quote(t.TempDir()), 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))

	input := strings.ReplaceAll(string(console[1]), `\n`, "\n")
	cmd := exec.Command("go", "run", "./"+filepath.Base(dir))
	cmd.Stdin = strings.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), errOut.String())
	assert.Equal(t, string(console[2]), out.String())
}
