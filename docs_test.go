package soni_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
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

// TestLanguageFirstProject runs docs/language.md's first project as
// printed: it writes the YAML of section 1 to a directory, checks that
// soni validates it with no problem (no warning either: every action it
// calls can run), and runs the conversation printed under it, message by
// message, comparing the bot's replies.
func TestLanguageFirstProject(t *testing.T) {
	doc, err := os.ReadFile("docs/language.md")
	require.NoError(t, err)
	section := regexp.MustCompile("(?s)## 1\\. A first project\n(.*?)\n## 2\\.").FindSubmatch(doc)
	require.NotNil(t, section, "docs/language.md has no section 1")
	project := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindSubmatch(section[1])
	require.NotNil(t, project, "section 1 has no YAML project")
	conv := regexp.MustCompile("(?s)A conversation with this project:\n\n```\n(.*?)```").FindSubmatch(section[1])
	require.NotNil(t, conv, "section 1 has no conversation")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), project[1], 0o644))
	r := compiler.Compile(dir, compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	assert.Empty(t, r.Diags, "soni validate finds no problems in the first project")

	eng, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	var replies []string
	step := func(user string) {
		if user == "" {
			return
		}
		rep, err := eng.Handle(context.Background(), "first", vm.Input{Text: user})
		require.NoError(t, err, "message %q", user)
		got := strings.Join(rep.Replies, "\n")
		assert.Equal(t, strings.Join(replies, "\n"), got, "the replies to %q", user)
	}
	user := ""
	for _, line := range strings.Split(strings.TrimSpace(string(conv[1])), "\n") {
		switch {
		case strings.HasPrefix(line, "user: "):
			step(user)
			user, replies = strings.TrimPrefix(line, "user: "), nil
		case strings.HasPrefix(line, "bot:"):
			replies = append(replies, strings.TrimSpace(strings.TrimPrefix(line, "bot:")))
		}
	}
	step(user)
}
