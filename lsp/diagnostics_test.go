package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/soni-dev/soni/compiler"
)

// summary renders diagnostics as "line:col-line:col code message".
func summary(ds []wireDiag) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Range.End.Line+1, d.Range.End.Character+1, d.Code, d.Message))
	}
	return out
}

func TestDiagnosticsAsYouType(t *testing.T) {
	dir := copyProject(t, "trip")
	c := startServer(t, dir)
	trip := filepath.Join(dir, "trip.yaml")
	domain := filepath.Join(dir, "domain.yaml")
	src, err := os.ReadFile(trip)
	require.NoError(t, err)

	// Opening a file publishes the diagnostics of soni validate for it...
	uri := c.open(trip)
	got := c.waitDiags(uri)
	want := compiler.Compile(dir, compiler.Options{}).Diags
	require.Len(t, got, len(want))
	for i, d := range want {
		assert.Equal(t, d.Code, got[i].Code)
		assert.Equal(t, protocol.UInteger(d.Pos.Line-1), got[i].Range.Start.Line)
		assert.Equal(t, protocol.UInteger(d.Pos.Col-1), got[i].Range.Start.Character)
		assert.Equal(t, "soni", got[i].Source)
		assert.Equal(t, int(protocol.DiagnosticSeverityWarning), got[i].Severity)
	}
	assert.Equal(t, "18:15-18:19 W017", strings.Join(strings.Fields(summary(got)[0])[:2], " "))

	// ...and a change, unsaved, gets its own at once, with the suggestion.
	typo := strings.Replace(string(src), "How many nights in {city}?", "How many nights in {cty}?", 1)
	c.change(uri, 2, typo)
	got = c.waitDiags(uri)
	assert.Contains(t, summary(got), `23:39-23:42 E032 unknown slot "cty" in template: declare it in the top-level slots or the flow's slots, or fix its name (did you mean "city"?)`)

	// A YAML error in another file is reported there, and does not hide
	// this file's diagnostics.
	duri := c.open(domain, "slots:\n  city: [unclosed\n")
	dd := c.waitDiags(duri)
	require.NotEmpty(t, dd)
	assert.Equal(t, int(protocol.DiagnosticSeverityError), dd[0].Severity)
	got = c.latestDiags(uri)
	assert.NotEmpty(t, got, "trip.yaml's diagnostics must stay while domain.yaml is broken")
	for _, d := range got {
		assert.NotEqual(t, "", d.Code)
	}

	// Fixing both clears them, file by file.
	c.change(duri, 2, mustRead(t, domain))
	assert.Empty(t, c.waitDiags(duri))
	c.change(uri, 3, strings.Replace(string(src), "        slot: city\n", "        slot: city  # soni:ignore W017\n", 1))
	got = c.latestDiags(uri)
	assert.Len(t, got, 1, "one W017 is silenced by the comment")
}

func mustRead(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// Every file of the project gets its diagnostics, not only the open one.
func TestDiagnosticsForEveryFile(t *testing.T) {
	dir := copyProject(t, "trip")
	c := startServer(t, dir)
	domain := filepath.Join(dir, "domain.yaml")
	duri := c.open(domain)
	assert.Empty(t, c.waitDiags(duri))
	// The warnings are in trip.yaml, which is not open.
	got := c.waitDiags(pathToURI(filepath.Join(dir, "trip.yaml")))
	assert.Len(t, got, 2)
	// Renaming the slot in domain.yaml changes trip.yaml's, unopened:
	// nights becomes a slot of the flow, which W017 does not concern.
	c.change(duri, 2, strings.Replace(mustRead(t, domain), "  nights:\n", "  nightz:\n", 1))
	got = c.latestDiags(pathToURI(filepath.Join(dir, "trip.yaml")))
	require.Len(t, got, 1)
	assert.Contains(t, got[0].Message, `"city"`)
	assert.Contains(t, summary(c.latestDiags(duri))[0], `W004 slot "nightz" is declared but never used`)
}

// A flow file in the home directory, with no workspace folder, is a
// project of its own: the server does not compile every YAML file below
// the home directory.
func TestFileInHomeIsItsOwnProject(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	require.NoError(t, os.MkdirAll(filepath.Join(home, "other"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, "other", "broken.yaml"), []byte("flows: [unclosed\n"), 0o644))
	flow := filepath.Join(home, "hello.yaml")
	require.NoError(t, os.WriteFile(flow, []byte("version: \"1.0\"\nflows:\n  hello:\n    trigger:\n      intents: [hello]\n    steps:\n      - step: hi\n        type: say\n        message: Hi\n"), 0o644))
	c := startServer(t, filepath.Join(home, "elsewhere"))
	uri := c.open(flow)
	assert.Empty(t, c.latestDiags(uri))
	c.sync()
	select {
	case ds := <-c.diagChan(pathToURI(filepath.Join(home, "other", "broken.yaml"))):
		t.Fatalf("a file outside the project got diagnostics: %v", summary(ds))
	default:
	}
}
