package syntax_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/syntax"
	"github.com/soni-dev/soni/syntax/syntaxtest"
)

// roundTripProjects are the example projects and the test data projects
// whose project files are decoded and encoded again.
var roundTripProjects = []string{
	"../flows/banking", "../flows/compat", "../flows/support", "../flows/travel",
	"../testdata/book_flight", "../testdata/calls", "../testdata/citydesk", "../testdata/clarifications",
	"../testdata/decisions", "../testdata/lists", "../testdata/modelhealth", "../testdata/patterns/defaults",
	"../testdata/patterns/overrides", "../testdata/plainwords", "../testdata/python_compat", "../testdata/responses",
	"../testdata/ten_mistakes.yaml",
}

// TestRoundTrip: decoding a project file and encoding it again keeps
// every comment and every key, is stable and compiles to the same
// program (see syntaxtest.RoundTrip), for every example project and test
// data project. It checks properties, not bytes, so that a change to an
// example needs no refresh here; TestEncodeGolden pins the bytes.
func TestRoundTrip(t *testing.T) {
	for _, dir := range roundTripProjects {
		t.Run(strings.TrimPrefix(dir, "../"), func(t *testing.T) {
			syntaxtest.RoundTrip(t, dir)
		})
	}
}

// TestEncodeGolden: the encoding of the files in testdata/encode (copies
// of example files, kept here so that they change only with the
// encoder) is the golden bytes in the same directory (NAME.golden,
// refreshed with SONI_UPDATE=1).
func TestEncodeGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/encode/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		encoded := syntaxtest.RoundTrip(t, p)
		require.Contains(t, encoded, p)
		golden(t, strings.TrimSuffix(p, ".yaml")+".golden", encoded[p])
	}
}

// golden compares got with the golden file, or writes it with SONI_UPDATE=1.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run SONI_UPDATE=1 go test ./syntax to write it")
	assert.Equal(t, string(want), string(got), "%s", path)
}

// TestRoundTripDiagnosticExamples: the compiler's example of each
// diagnostic code (compiler/testdata/codes) that the model can hold gives
// the same diagnostics, positions aside, after a decode and an encode:
// the model keeps what each mistake is made of (an unknown key, a bad
// reference, a wrong kind of step). Left out: files DecodeFlows refuses
// or reports on (not YAML, duplicate keys, another version), and wrong
// types (E012), whose values the model reads as absent.
func TestRoundTripDiagnosticExamples(t *testing.T) {
	paths, err := filepath.Glob("../compiler/testdata/codes/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	tried := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		if f, err := syntax.DecodeFlows(p, src); f == nil || err != nil || !syntaxtest.IsProjectFile(p, src) || strings.HasPrefix(filepath.Base(p), "E012") {
			continue
		}
		tried++
		t.Run(filepath.Base(p), func(t *testing.T) { syntaxtest.RoundTrip(t, p) })
	}
	assert.Greater(t, tried, 30)
}
