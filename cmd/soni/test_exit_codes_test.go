package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTestExitCodes pins the exit status of soni test: 0 all passed, 1 a
// case failed (or coverage is below --coverage-min), 2 bad usage, an
// invalid test file or a project with errors.
func TestTestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	write("proj/flows.yaml", goodFlow)
	pass := write("proj/tests/pass.yaml", "test_cases:\n  - test_case: hi\n    steps:\n      - user: hello\n      - bot: Hello!\n")
	fail := write("proj/tests/fail.yaml", "test_cases:\n  - test_case: hi\n    steps:\n      - user: hello\n      - bot: Bye!\n")
	skip := write("proj/tests/skip.yaml", "test_cases:\n  - test_case: hi\n    skip: later\n    steps:\n      - user: hello\n")
	invalid := write("proj/tests/invalid.yaml", "test_cases:\n  - test_case: hi\n    steps:\n      - usr: hello\n")
	notYAML := write("other/notyaml.yaml", "test_cases: [\n")
	write("broken/flows.yaml", "flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        mesage: hi\n")
	broken := write("broken/tests/t.yaml", "test_cases:\n  - test_case: a\n    steps:\n      - user: hi\n")
	orphan := write("orphan/t.yaml", "flows: ../nowhere\ntest_cases:\n  - test_case: a\n    steps:\n      - user: hi\n")
	update := write("proj/tests/update.yaml", "test_cases:\n  - test_case: hi\n    steps:\n      - user: hello\n      - bot: Bye!\n")
	mixed := write("proj/tests/mixed.yaml", "test_cases:\n  - test_case: flow\n    steps: [{user: hello}, {bot: Bye!}]\n  - test_case: block\n    steps:\n      - user: hello\n      - bot: Bye!\n")
	junit := filepath.Join(dir, "report.xml")

	tests := []struct {
		name string
		args []string
		want int
		out  string
	}{
		{"pass", []string{"test", pass}, exitOK, "1 passed, 0 failed\n"},
		{"fail", []string{"test", fail}, exitFailed, "0 passed, 1 failed\n"},
		{"skipped", []string{"test", skip}, exitOK, "0 passed, 0 failed, 1 skipped\n"},
		{"pass and fail", []string{"test", pass, fail}, exitFailed, "1 passed, 1 failed\n"},
		{"json fail", []string{"test", "--format", "json", fail}, exitFailed, `"status":"failed"`},
		{"junit", []string{"test", "--junit", junit, pass}, exitOK, "1 passed, 0 failed\n"},
		{"junit unwritable", []string{"test", "--junit", filepath.Join(dir, "no", "dir", "r.xml"), pass}, exitUsage, ""},
		{"run filter matches nothing", []string{"test", "--run", "^nope$", fail}, exitOK, "0 passed, 0 failed\n"},
		{"invalid test file", []string{"test", invalid}, exitUsage, ""},
		{"not yaml", []string{"test", notYAML}, exitUsage, ""},
		{"project with errors", []string{"test", broken}, exitUsage, ""},
		{"flows path missing", []string{"test", orphan}, exitUsage, ""},
		{"missing path", []string{"test", filepath.Join(dir, "nope.yaml")}, exitUsage, ""},
		{"no path", []string{"test"}, exitUsage, ""},
		{"bad format", []string{"test", "--format", "xml", pass}, exitUsage, ""},
		{"bad run pattern", []string{"test", "--run", "(", pass}, exitUsage, ""},
		{"bad jobs", []string{"test", "--jobs", "-1", pass}, exitUsage, ""},
		{"flows override", []string{"test", "--flows", filepath.Join(dir, "proj", "flows.yaml"), pass}, exitOK, "1 passed"},
		{"flows override missing", []string{"test", "--flows", filepath.Join(dir, "nope"), pass}, exitUsage, ""},
		{"coverage ok", []string{"test", "--coverage", pass}, exitOK, "1/1 steps (100.0%)"},
		{"coverage below min", []string{"test", "--coverage-min", "100", fail}, exitFailed, ""},
		{"coverage min out of range", []string{"test", "--coverage-min", "101", pass}, exitUsage, ""},
		{"update fixes the file", []string{"test", "--update", update}, exitOK, "1 passed, 0 failed\n"},
		{"update leaves a flow-style case and reports the rest", []string{"test", "--update", mixed}, exitFailed, "1 passed, 1 failed\n"},
		{"help", []string{"test", "--help"}, exitOK, "--update"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"soni"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tt.want, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			if tt.out != "" {
				assert.Contains(t, stdout.String(), tt.out)
			}
			if tt.want == exitUsage {
				assert.NotContains(t, stdout.String(), "passed", "an unusable run never reports a result")
			}
		})
	}
	b, err := os.ReadFile(junit)
	require.NoError(t, err)
	assert.Contains(t, string(b), `<testcase name="hi"`)
	b, err = os.ReadFile(update)
	require.NoError(t, err)
	assert.Contains(t, string(b), "- bot: Hello!\n")
}

// TestTestRunMatchesNothing warns on stderr when --run selects no case, so
// that a typo in the pattern does not pass unnoticed; a pattern that
// selects something prints no warning.
func TestTestRunMatchesNothing(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flows.yaml"), []byte(goodFlow), 0o644))
	pass := filepath.Join(dir, "pass.yaml")
	require.NoError(t, os.WriteFile(pass, []byte("test_cases:\n  - test_case: hi\n    steps:\n      - user: hello\n      - bot: Hello!\n"), 0o644))
	tests := []struct {
		name, pattern, stdout, stderr string
	}{
		{"no match", "^nope$", "0 passed, 0 failed\n", `soni: test: --run "^nope$" matches no test case`},
		{"match", "^hi$", "1 passed, 0 failed\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"soni", "test", "--run", tt.pattern, pass}, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, exitOK, code)
			assert.Equal(t, tt.stdout, stdout.String())
			if tt.stderr == "" {
				assert.Empty(t, stderr.String())
			} else {
				assert.Contains(t, stderr.String(), tt.stderr)
			}
		})
	}
}
