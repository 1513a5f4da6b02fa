package understand

import (
	"go/parser"
	gotoken "go/token"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableRules is the rule table as "name: description" lines, in order.
func tableRules() []string {
	var out []string
	for _, ru := range rules {
		out = append(out, ru.name+": "+ru.doc)
	}
	return out
}

// packageDocRules reads the list under the "# Rules" heading of the
// package documentation: one "name: description" per item, its
// continuation lines joined.
func packageDocRules(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(gotoken.NewFileSet(), "understand.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	require.NotNil(t, f.Doc, "understand.go has the package documentation")
	return docRules(f.Doc.Text())
}

// docRules reads the rules listed in a package documentation's text.
func docRules(doc string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "# "):
			in = line == "# Rules"
		case !in:
		case strings.HasPrefix(strings.TrimLeft(line, " \t"), "- "):
			out = append(out, strings.TrimPrefix(strings.TrimLeft(line, " \t"), "- "))
		case strings.HasPrefix(line, " ") && len(out) > 0 && strings.TrimSpace(line) != "":
			out[len(out)-1] += " " + strings.TrimSpace(line)
		}
	}
	return out
}

// docsRules reads the rule table of docs/understanding.md: rows "| n |
// `name` | description |" under "## The rules, in priority order".
func docsRules(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("../docs/understanding.md")
	require.NoError(t, err)
	row := regexp.MustCompile("^\\| [0-9]+ \\| `([a-z_]+)` \\| (.*) \\|$")
	var out []string
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "#") {
			in = line == "## The rules, in priority order"
			continue
		}
		if m := row.FindStringSubmatch(line); in && m != nil {
			out = append(out, m[1]+": "+m[2])
		}
	}
	return out
}

// TestRulesDocumented: the package documentation and docs/understanding.md
// list the rules of the table, in its order, each with its description.
func TestRulesDocumented(t *testing.T) {
	t.Parallel()
	want := tableRules()
	assert.Equal(t, want, packageDocRules(t), "the package documentation's # Rules list differs from the table in rules.go")
	assert.Equal(t, want, docsRules(t), "the rule table in docs/understanding.md differs from the table in rules.go")
}

// TestDocRulesParser: the list reader sees a missing, an extra or a
// reordered rule.
func TestDocRulesParser(t *testing.T) {
	t.Parallel()
	doc := "Package x.\n\n# Rules\n\n  - a: one,\n    wrapped.\n  - b: two.\n\n# Other\n\n  - c: not a rule.\n"
	assert.Equal(t, []string{"a: one, wrapped.", "b: two."}, docRules(doc))
	assert.NotEqual(t, []string{"b: two.", "a: one, wrapped."}, docRules(doc))
	assert.Empty(t, docRules("Package x.\n\n  - a: no heading.\n"))
}
