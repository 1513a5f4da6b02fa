package rasaimport

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// casesDir holds small Rasa projects, one per construct of a real project
// that the main fixture does not show (symbolic links, a model group, ...):
// each case's in/ is the Rasa project and golden/ its import, file by file,
// with report.json (SONI_UPDATE=1 rewrites them).
const casesDir = "../testdata/rasa/cases"

// TestImportCases pins the import of every case and checks that the soni
// project it writes compiles with no error.
func TestImportCases(t *testing.T) {
	entries, err := os.ReadDir(casesDir)
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			in := filepath.Join(casesDir, e.Name(), "in")
			golden := filepath.Join(casesDir, e.Name(), "golden")
			files, rep, err := Translate(in)
			require.NoError(t, err)
			files["report.json"] = rep.JSON()
			assertGolden(t, golden, files)
			delete(files, "report.json")
			dir := writeProject(t, files)
			r := compiler.Compile(dir, compiler.Options{})
			for _, d := range r.Diags {
				assert.NotEqual(t, diag.Error, d.Severity, "%s", d)
			}
		})
	}
}

// TestReportLineMatchesTable holds the one-line summary (which the CLI
// prints) to the table of IMPORT.md, row by row, on every case.
func TestReportLineMatchesTable(t *testing.T) {
	entries, err := os.ReadDir(casesDir)
	require.NoError(t, err)
	for _, e := range append(entries, nil) {
		src := fixture
		if e != nil {
			if !e.IsDir() {
				continue
			}
			src = filepath.Join(casesDir, e.Name(), "in")
		}
		_, rep, err := Translate(src)
		require.NoError(t, err)
		md := string(rep.Markdown())
		assert.Contains(t, md, "In one line: "+rep.Line()+".")
		s := rep.Summary
		for _, row := range []struct {
			name string
			c    Count
			line string
		}{
			{"business flows", s.Flows, "flows"}, {"pattern overrides", s.Patterns, "pattern overrides"},
			{"flow steps", s.Steps, "steps"}, {"slots", s.Slots, "slots"}, {"responses", s.Responses, "responses"},
			{"custom actions", s.Actions, "custom actions"}, {"test files", s.TestFiles, "test files"},
		} {
			assert.Contains(t, md, fmt.Sprintf("| %s | %d | %d |", row.name, row.c.Total, row.c.Converted), src)
			assert.Contains(t, rep.Line(), fmt.Sprintf("%d of %d %s", row.c.Converted, row.c.Total, row.line), src)
		}
	}
}

// TestImportRefusesToWriteIntoTheProject: an output directory that is the
// Rasa project, inside it, or a link to it is refused before anything is
// written.
func TestImportRefusesToWriteIntoTheProject(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.CopyFS(src, os.DirFS(filepath.Join(casesDir, "model", "in"))))
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(src, link))
	for name, tc := range map[string]struct{ dst, want string }{
		"itself":     {src, "is the Rasa project itself"},
		"itself/":    {src + "/", "is the Rasa project itself"},
		"inside":     {filepath.Join(src, "soni"), "is inside the Rasa project"},
		"deeper":     {filepath.Join(src, "a", "b"), "is inside the Rasa project"},
		"via a link": {filepath.Join(link, "out"), "is inside the Rasa project"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Import(src, tc.dst, Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			_, statErr := os.Stat(filepath.Join(src, "IMPORT.md"))
			assert.True(t, os.IsNotExist(statErr), "nothing may be written into the project")
			_, statErr = os.Stat(filepath.Join(src, "soni"))
			assert.True(t, os.IsNotExist(statErr))
		})
	}
	// A sibling directory whose name starts with the project's is fine.
	_, err := Import(src, src+"-soni", Options{})
	require.NoError(t, err)
}

// TestImportDanglingLink: a link to nothing is reported and not followed
// (made here, as a dangling link in the repository would trip every
// reader of its files).
func TestImportDanglingLink(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.CopyFS(src, os.DirFS(filepath.Join(casesDir, "model", "in"))))
	require.NoError(t, os.Symlink("nowhere.yml", filepath.Join(src, "data", "dangling.yml")))
	_, rep, err := Translate(src)
	require.NoError(t, err)
	var found bool
	for _, it := range rep.Items {
		if it.File == "data/dangling.yml" {
			found = true
			assert.Equal(t, `the symbolic link "data/dangling.yml" points to nothing that exists (or loops), so it is not followed`, it.Message)
		}
	}
	assert.True(t, found, "the dangling link is reported")
}

// TestImportLinksStayInTheRepository: a variant of an assistant whose
// domain and data are links to a directory beside it, in the same
// repository, is read through them; a link that leaves the repository is
// reported and not followed.
func TestImportLinksStayInTheRepository(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	require.NoError(t, os.CopyFS(filepath.Join(repo, "shared"), os.DirFS(filepath.Join(casesDir, "model", "in"))))
	bot := filepath.Join(repo, "bot")
	require.NoError(t, os.MkdirAll(bot, 0o755))
	for _, l := range []struct{ target, name string }{
		{"../shared/domain.yml", "domain.yml"},
		{"../shared/data", "data"},
		{"../shared/config.yml", "config.yml"},
	} {
		require.NoError(t, os.Symlink(l.target, filepath.Join(bot, l.name)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(top, "outside.yml"), []byte("version: \"3.1\"\nflows:\n  outside_flow:\n    description: outside\n    steps:\n      - action: utter_pruned\n"), 0o644))
	require.NoError(t, os.Symlink("../../../outside.yml", filepath.Join(repo, "shared", "data", "outside.yml")))

	files, rep, err := Translate(bot)
	require.NoError(t, err)
	assert.Contains(t, string(files["flows/flows.yaml"]), "prune_hedge:", "the flows behind the link are read")
	assert.NotContains(t, string(files["flows/outside.yaml"]), "outside_flow", "the link out of the repository is not followed")
	var found bool
	for _, it := range rep.Items {
		if it.File == "data/outside.yml" {
			found = true
			assert.Equal(t, `the symbolic link "data/outside.yml" points outside the project and its repository, so it is not followed`, it.Message)
		}
	}
	assert.True(t, found, "the link out of the repository is reported")
}

// TestImportButtonKeys: a button's keys other than title and payload, and
// a variation condition's other than type, name and value, have no place
// in soni's model; each is reported, not dropped silently, and a button
// that is no mapping is kept as a comment.
func TestImportButtonKeys(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.CopyFS(src, os.DirFS(filepath.Join(casesDir, "model", "in"))))
	require.NoError(t, os.WriteFile(filepath.Join(src, "domain.yml"), []byte(`version: "3.1"
responses:
  utter_pruned:
    - text: "Pruned."
      condition:
        - type: slot
          name: plant
          value: fern
          negate: true
      buttons:
        - title: Again
          payload: /SetSlots(plant=fern)
          button_style: primary
        - just a text
slots:
  plant:
    type: text
    mappings:
      - type: from_llm
`), 0o644))
	files, rep, err := Translate(src)
	require.NoError(t, err)
	var msgs []string
	for _, it := range rep.Items {
		msgs = append(msgs, it.Message)
	}
	assert.Contains(t, msgs, `a button of response "utter_pruned": the key "button_style" is not translated`)
	assert.Contains(t, msgs, `a condition of response "utter_pruned": the key "negate" is not translated`)
	assert.Contains(t, msgs, `a button of response "utter_pruned" cannot be translated: it is not a mapping with a title and a payload`)
	dom := string(files["domain.yaml"])
	assert.Contains(t, dom, "        - title: Again\n          payload: \"/SetSlots(plant=fern)\"\n")
	assert.Contains(t, dom, "# Rasa (kept as a comment):\n        # - \"just a text\"\n")
}
