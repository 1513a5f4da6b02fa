package convtest

import (
	"os"
	"regexp"
	"strings"
	"testing"

	docs "github.com/soni-dev/soni/syntax"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTestingDocCodes keeps the table of test-file errors in
// docs/testing.md true: a row for every code with its name, and T017's
// row naming exactly the Rasa assertions soni refuses.
func TestTestingDocCodes(t *testing.T) {
	b, err := os.ReadFile("../docs/testing.md")
	require.NoError(t, err)
	rows := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) >= 3 && strings.HasPrefix(line, "| T0") {
			rows[strings.TrimPrefix(cells[0], "| ")] = cells
		}
	}
	for _, r := range Rules {
		cells, ok := rows[r.Code]
		if assert.True(t, ok, "docs/testing.md has no row for %s", r.Code) {
			assert.Equal(t, r.Name, cells[1], "the name of %s", r.Code)
		}
	}
	assert.Len(t, rows, len(Rules), "docs/testing.md lists codes that do not exist")
	var named []string
	for _, m := range regexp.MustCompile("`([a-z_.:]+)`").FindAllStringSubmatch(strings.Join(rows[CodeUnsupported], " | "), -1) {
		named = append(named, m[1])
	}
	assert.Equal(t, docs.RefusedAssertions(), named, "T017's row must name exactly the assertions soni refuses")
}
