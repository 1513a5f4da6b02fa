package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChatWarnings: a project's warnings go to stderr for every command
// that compiles it, and do not stop it; stdout keeps only the result.
// chat and serve sum them up in one line, by code, with the command that
// lists them (an imported project can have hundreds); compile and graph
// print each.
func TestChatWarnings(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	tests := []struct {
		name    string
		args    []string
		wantOut string
		wantErr []string
	}{
		{"chat", []string{"chat", "--checkpoints", filepath.Join(t.TempDir(), "cps"), dir}, "Your name?\n",
			[]string{"soni: 2 warnings (W002 ×1, W017 ×1): run soni validate " + dir + " to list them\n"}},
		{"compile", []string{"compile", dir}, `"format": "soni.program"`, []string{"warning:", "[W002]"}},
		{"graph", []string{"graph", dir}, "flowchart TD", []string{"warning:", "[W002]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"soni"}, tt.args...), strings.NewReader("order pizza\n"), &out, &errOut)
			require.Equal(t, exitOK, code, errOut.String())
			assert.Contains(t, out.String(), tt.wantOut)
			assert.NotContains(t, out.String(), "W002")
			for _, want := range tt.wantErr {
				assert.Contains(t, errOut.String(), want)
			}
		})
	}
}

// TestChatCompiledProgramAnyName: a program from soni compile -o is
// recognised by its content, whatever its file name.
func TestChatCompiledProgramAnyName(t *testing.T) {
	dir := writeProject(t, pizzaFlow)
	for _, name := range []string{"prog.json", "prog.out", "program"} {
		t.Run(name, func(t *testing.T) {
			prog := filepath.Join(t.TempDir(), name)
			var out, errOut bytes.Buffer
			require.Equal(t, exitOK, run(context.Background(), []string{"soni", "compile", dir, "-o", prog}, strings.NewReader(""), &out, &errOut), errOut.String())
			stdout, stderr, code := chatRun(t, prog, filepath.Join(t.TempDir(), "cps"), "order pizza\nBo\n")
			assert.Equal(t, exitOK, code, stderr)
			assert.Equal(t, "Your name?\nWhat size, Bo?\n", stdout)
			// The banner only: a compiled program has no diagnostics to show.
			assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
			assert.Contains(t, stderr, "soni chat: ")
			out.Reset()
			require.Equal(t, exitOK, run(context.Background(), []string{"soni", "graph", prog, "--flow", "order"}, strings.NewReader(""), &out, &errOut), errOut.String())
			assert.Contains(t, out.String(), "f_order__0")
		})
	}
}
