package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var wantComment = regexp.MustCompile(`(?m)[ \t]*# want: [EW]\d{3} \d+:\d+`)

// TestDiagnosticsDoc keeps docs/diagnostics.md true: for every code of the
// catalogue it shows the code's case file from compiler/testdata/codes and
// the exact output soni validate prints for it. SONI_UPDATE=1 rewrites the
// file.
func TestDiagnosticsDoc(t *testing.T) {
	got := diagnosticsDoc(t)
	path := filepath.Join("..", "..", "docs", "diagnostics.md")
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "docs/diagnostics.md is out of date: run SONI_UPDATE=1 go test ./cmd/soni")
	assert.NotContains(t, string(want), "# want:", "an output shows the case file's test comments, which its example leaves out")
}

func diagnosticsDoc(t *testing.T) []byte {
	var b bytes.Buffer
	b.WriteString(`# Diagnostics

Every problem ` + "`soni validate`" + ` reports has a stable code: errors start with
E and stop the project from running; warnings start with W and fail only
under ` + "`--strict`" + `. Each entry below shows a small file that triggers the code and
the exact output of ` + "`soni validate example.yaml`" + ` for it.

A warning that is intended can be acknowledged on its own line with a comment
naming its code, ` + "`# soni:ignore W010`" + ` (several codes may follow, separated by
spaces or commas). Only warnings can be silenced this way; errors cannot.

This file is generated from ` + "`compiler/testdata/codes`" + ` and checked by a test
(` + "`TestDiagnosticsDoc`" + `); refresh it with ` + "`SONI_UPDATE=1 go test ./cmd/soni`" + `.

| code | name | severity | summary |
| --- | --- | --- | --- |
`)
	for _, r := range diag.Rules {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", r.Code, strings.ToLower(r.Code+"-"+r.Name), r.Name, r.Severity, r.Summary)
	}
	for _, r := range diag.Rules {
		fmt.Fprintf(&b, "\n## %s %s\n\n%s %s\n\n", r.Code, r.Name, r.Summary, r.Help)
		if ex, ok := fileExamples[r.Code]; ok {
			fmt.Fprintf(&b, "%s\n\n```console\n$ %s\n%s```\n", ex.intro, ex.command, ensureNL(ex.output(t)))
			continue
		}
		files, err := filepath.Glob(filepath.Join("..", "..", "compiler", "testdata", "codes", r.Code+"_*.yaml"))
		require.NoError(t, err)
		if !assert.NotEmpty(t, files, "no compiler/testdata/codes case for %s", r.Code) {
			continue
		}
		src, err := os.ReadFile(files[0])
		require.NoError(t, err)
		// The output is soni's for the file shown, without the test's
		// "# want:" comments (they sit at the ends of lines, so no
		// position moves).
		shown := wantComment.ReplaceAll(src, nil)
		res := compiler.CompileSource("example.yaml", shown, compiler.Options{})
		var out bytes.Buffer
		require.NoError(t, diag.WriteText(&out, res.Diags, diag.SourceMap{"example.yaml": shown}, diag.TextOptions{}))
		if bytes.ContainsRune(shown, 0xFFFD) || !isText(shown) {
			fmt.Fprintf(&b, "`example.yaml` (%d bytes, not shown: it is not valid UTF-8 text)\n\n", len(src))
		} else {
			fmt.Fprintf(&b, "`example.yaml`:\n\n```yaml\n%s```\n\n", ensureNL(string(shown)))
		}
		fmt.Fprintf(&b, "Output:\n\n```text\n%s```\n", ensureNL(out.String()))
	}
	return b.Bytes()
}

func isText(b []byte) bool {
	for _, r := range string(b) {
		if r == 0xFFFD || r == 0 {
			return false
		}
	}
	return true
}

func ensureNL(s string) string {
	if !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// fileExample documents a code that comes from the file system rather than
// from a file's content, by running the command it shows.
type fileExample struct {
	intro, command string
	output         func(t *testing.T) string
}

var fileExamples = map[string]fileExample{
	diag.CodeFileRead: {
		intro:   "A path that does not exist (or a dangling symlink, or a symlink loop inside a project directory):",
		command: "soni validate missing.yaml",
		output: func(t *testing.T) string {
			return validateOutput(t, t.TempDir(), "missing.yaml")
		},
	},
	diag.CodeFileLimit: {
		intro:   "A file over the size limit (10 MiB by default; here the limit is lowered to 16 bytes):",
		command: "soni validate --max-file-size 16 big.yaml",
		output: func(t *testing.T) string {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "big.yaml"), []byte("version: \"1.0\"\nflows: {}\n"), 0o644))
			return validateOutput(t, dir, "--max-file-size", "16", "big.yaml")
		},
	},
	diag.CodeDuplicateSetting: {
		intro:   "Settings may be split across files, but one setting may be given only once (here in a.yaml and b.yaml of one project):",
		command: "soni validate project",
		output: func(t *testing.T) string {
			dir := t.TempDir()
			p := filepath.Join(dir, "project")
			require.NoError(t, os.MkdirAll(p, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(p, "a.yaml"), []byte("version: \"1.0\"\nsettings:\n  idle_message: \"Hi!\"\nflows:\n  greet:\n    trigger: {intents: [hello]}\n    steps:\n      - {step: hi, type: say, message: Hello}\n"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(p, "b.yaml"), []byte("version: \"1.0\"\nsettings:\n  idle_message: \"What now?\"\n"), 0o644))
			return validateOutput(t, dir, "project")
		},
	},
}

// validateOutput runs soni validate in dir and returns its stdout.
func validateOutput(t *testing.T, dir string, args ...string) string {
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer func() { require.NoError(t, os.Chdir(wd)) }()
	var out, errOut bytes.Buffer
	run(context.Background(), append([]string{"soni", "validate"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String()
}
