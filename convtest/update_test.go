package convtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpdate rewrites a file with comments and every quoting style and
// compares it with the golden after-file; the updated file then passes,
// and updating it again changes nothing.
func TestUpdate(t *testing.T) {
	before, err := os.ReadFile(filepath.Join("testdata", "update", "before.yaml"))
	require.NoError(t, err)
	for _, nl := range []string{"\n", "\r\n"} {
		name := "lf"
		if nl == "\r\n" {
			name = "crlf"
		}
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "before.yaml", strings.ReplaceAll(string(before), "\n", nl))
			opts := Options{Flows: projectDir(t)}
			_, r := run(t, []string{path}, opts)
			require.Equal(t, 0, r.Passed, "every case of before.yaml fails")
			changed, err := Update(r)
			require.NoError(t, err)
			assert.Equal(t, []string{filepath.ToSlash(path)}, changed)
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			golden(t, filepath.Join("testdata", "update", "after.golden"), []byte(strings.ReplaceAll(string(after), nl, "\n")))

			_, r = run(t, []string{path}, opts)
			assert.Equal(t, "5 passed, 1 failed", r.Summary(), "only the case whose bot_matches fails still fails:\n%s", textOf(t, r))
			assert.Equal(t, "bot_matches_alone", failedNames(r))

			changed, err = Update(r)
			require.NoError(t, err)
			assert.Empty(t, changed, "a second update changes nothing")
			again, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(after), string(again))
		})
	}
}

func failedNames(r *Report) string {
	var names []string
	for _, f := range r.Files {
		for _, c := range f.Cases {
			if c.Status == Failed {
				names = append(names, c.Name)
			}
		}
	}
	return strings.Join(names, ",")
}

// TestUpdateLeavesUnrewritableCases refuses to rewrite a case it cannot
// edit (steps written as [...], a tagged bot value) and leaves that case
// as it is, but still updates the other cases of the file and the other
// files, and says which case was left alone.
func TestUpdateLeavesUnrewritableCases(t *testing.T) {
	good := "  - test_case: good\n    steps:\n      - user: hello\n      - bot: Hi\n"
	fixed := "  - test_case: good\n    steps:\n      - user: hello\n      - bot: Hello!\n      - bot: I can take an order.\n"
	tests := []struct {
		name, bad, want string
	}{
		{"flow-style steps", "  - test_case: bad\n    steps: [{user: hello}, {bot: Hi}]\n", "flow-style list"},
		{"tagged bot value", "  - test_case: bad\n    steps:\n      - user: hello\n      - bot: !!str Hi\n", "not a plain or quoted string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			mixed := writeFile(t, dir, "a.yaml", "test_cases:\n"+tt.bad+good)
			other := writeFile(t, dir, "b.yaml", "test_cases:\n"+good)
			_, r := run(t, []string{mixed, other}, Options{Flows: projectDir(t)})
			require.Equal(t, "0 passed, 3 failed", r.Summary())
			changed, err := Update(r)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), filepath.ToSlash(mixed)+":2: test case \"bad\" was left as it is")
			assert.Equal(t, []string{filepath.ToSlash(mixed), filepath.ToSlash(other)}, changed)
			got, err := os.ReadFile(mixed)
			require.NoError(t, err)
			assert.Equal(t, "test_cases:\n"+tt.bad+fixed, string(got), "the bad case is untouched, the good one updated")
			got, err = os.ReadFile(other)
			require.NoError(t, err)
			assert.Equal(t, "test_cases:\n"+fixed, string(got))
		})
	}
}

// TestUpdateKeepsPassingFiles leaves files without reply mismatches alone.
func TestUpdateKeepsPassingFiles(t *testing.T) {
	_, r := run(t, []string{filepath.Join("testdata", "assert", "slot_was_set.yaml")}, Options{})
	require.Positive(t, r.Failed)
	changed, err := Update(r)
	require.NoError(t, err)
	assert.Empty(t, changed, "slot failures are not bot mismatches")
}
