package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/internal/actionservertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureActions are the custom actions of testdata/rasa/project
// (actions/actions.py), written again in Go for the fake action server.
func fixtureActions() map[string]actionservertest.Action {
	slot := actionservertest.SlotSet
	return map[string]actionservertest.Action{
		"action_check_funds": func(req actionservertest.Request) (actionservertest.Answer, error) {
			amount, _ := req.Tracker.Slot("amount").(float64)
			return actionservertest.Answer{Events: []map[string]any{slot("has_funds", amount <= 1200)}}, nil
		},
		"action_execute_transfer": func(req actionservertest.Request) (actionservertest.Answer, error) {
			payees, _ := req.Tracker.Slot("recent_payees").([]any)
			payees = append(payees, req.Tracker.Slot("recipient"))
			return actionservertest.Answer{Events: []map[string]any{slot("transfer_ok", true), slot("recent_payees", payees)}}, nil
		},
		"action_get_balance": func(req actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{
				Events:    []map[string]any{slot("balance", 1200.0)},
				Responses: []map[string]any{{"text": "Let me look that up."}},
			}, nil
		},
		"action_ask_feedback_text": func(req actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{Responses: []map[string]any{{"response": "utter_ask_support_reason"}}}, nil
		},
		"action_guess_colour": func(req actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{Events: []map[string]any{slot("favourite_colour", "green")}}, nil
		},
	}
}

// TestImportRasaFixture imports testdata/rasa/project with the CLI and
// runs the imported conversation tests with `soni test`, the custom
// actions answered by a fake Rasa action server: the test report, text and
// JSON, is pinned in testdata/rasa/soni-test.golden (SONI_UPDATE=1
// rewrites it).
func TestImportRasaFixture(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	srv := httptest.NewServer(actionservertest.New(fixtureActions()))
	defer srv.Close()
	t.Setenv("RASA_ACTION_ENDPOINT", srv.URL+"/webhook")
	t.Chdir(t.TempDir())

	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "import", "rasa", filepath.Join(root, "testdata/rasa/project"), "-o", "bot"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "written     domain.yaml")
	assert.Contains(t, out.String(), "bot/IMPORT.md lists")

	// The imported project validates with no error.
	out.Reset()
	errOut.Reset()
	code = run(context.Background(), []string{"soni", "validate", "bot"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())

	// Its tests run under soni test with no manual edit: the summary, and
	// each case by name (the JSON report).
	out.Reset()
	errOut.Reset()
	run(context.Background(), []string{"soni", "test", "bot"}, nil, &out, &errOut)
	text, textErr := out.String(), errOut.String()
	out.Reset()
	errOut.Reset()
	run(context.Background(), []string{"soni", "test", "--format", "json", "bot"}, nil, &out, &errOut)
	got := strings.ReplaceAll(text+"--- json\n"+out.String(), srv.URL, "http://ACTION-SERVER")
	path := filepath.Join(root, "testdata/rasa/soni-test.golden")
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run SONI_UPDATE=1 go test ./cmd/soni -run TestImportRasaFixture")
	assert.Equal(t, string(want), got, "run SONI_UPDATE=1 go test ./cmd/soni -run TestImportRasaFixture")
	assert.Empty(t, textErr[:strings.LastIndex(textErr, "\n")+1], "stderr has only the summary")
}

// TestImportRasaAgain covers re-running the import: unchanged files stay,
// a file a person edited is kept (and --force overwrites it), a file the
// importer did not write is never touched, and what changed is said.
func TestImportRasaAgain(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	src := t.TempDir()
	require.NoError(t, os.CopyFS(src, os.DirFS(filepath.Join(root, "testdata/rasa/project"))))
	dst := t.TempDir()
	imp := func(extra ...string) string {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"soni", "import", "rasa", src, "-o", dst}, extra...), nil, &out, &errOut)
		require.Equal(t, 0, code, errOut.String())
		return out.String()
	}
	// A file of the person's own is there before the first import.
	require.NoError(t, os.WriteFile(filepath.Join(dst, "notes.yaml"), []byte("test_cases: []\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dst, "flows"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dst, "flows", "patterns.yaml"), []byte("# mine\n"), 0o644))
	first := imp()
	assert.Contains(t, first, "written     flows/banking.yaml")
	assert.Contains(t, first, "skipped     flows/patterns.yaml")
	assert.Contains(t, first, "1 files the importer did not write were left alone")
	b, err := os.ReadFile(filepath.Join(dst, "flows", "patterns.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "# mine\n", string(b))

	again := imp()
	assert.Contains(t, again, "files unchanged")
	assert.NotContains(t, again, "written ")
	assert.NotContains(t, again, "overwritten ")

	// The Rasa project changes; a person edits one imported file.
	edited := filepath.Join(dst, "tests", "happy", "balance.yaml")
	require.NoError(t, os.WriteFile(edited, []byte("# my edit\ntest_cases: []\n"), 0o644))
	flows := filepath.Join(src, "data", "flows", "banking.yml")
	b, err = os.ReadFile(flows)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(flows, bytes.Replace(b, []byte("send money to someone you know"), []byte("send money to a friend"), 1), 0o644))
	require.NoError(t, os.Remove(filepath.Join(src, "e2e_tests", "stubs", "transfer_stubbed.yml")))
	third := imp()
	assert.Contains(t, third, "overwritten flows/banking.yaml")
	assert.Contains(t, third, "kept        tests/happy/balance.yaml")
	assert.Contains(t, third, "removed     tests/stubs/transfer_stubbed.yaml")
	assert.Contains(t, third, "1 files edited since the last import were kept; --force overwrites them")
	b, err = os.ReadFile(edited)
	require.NoError(t, err)
	assert.Equal(t, "# my edit\ntest_cases: []\n", string(b))
	b, err = os.ReadFile(filepath.Join(dst, "flows", "banking.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "send money to a friend")
	_, err = os.Stat(filepath.Join(dst, "tests", "stubs", "transfer_stubbed.yaml"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	forced := imp("--force")
	assert.Contains(t, forced, "overwritten tests/happy/balance.yaml")
	b, err = os.ReadFile(edited)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "my edit")
	b, err = os.ReadFile(filepath.Join(dst, "notes.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "test_cases: []\n", string(b), "a file the importer never wrote is never touched")

	// The JSON report.
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"soni", "import", "rasa", src, "-o", dst, "--format", "json"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.True(t, strings.HasPrefix(out.String(), "{\n  \"source\": "))
	assert.Contains(t, out.String(), `"where": "config.yml:5"`)
	assert.Contains(t, out.String(), `"action": "unchanged"`)
}

// TestImportedCasesRun imports each case of testdata/rasa/cases that has
// an expect file and runs its conversation tests with soni test (rules
// mode), the custom actions answered by a fake Rasa action server: the
// last line of the report must be the expect file's first, and the report
// must hold each of its other lines.
func TestImportedCasesRun(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	srv := httptest.NewServer(actionservertest.New(map[string]actionservertest.Action{
		"action_check_soil": func(req actionservertest.Request) (actionservertest.Answer, error) {
			return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("soil_moisture", 0.42)}}, nil
		},
		// validate_slot's action, as its actions.py does it.
		"validate_check_in": func(req actionservertest.Request) (actionservertest.Answer, error) {
			v, _ := req.Tracker.Slot("check_in").(string)
			if v == "yesterday" {
				return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("check_in", nil)},
					Responses: []map[string]any{{"text": "That date is in the past."}}}, nil
			}
			return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("check_in", v), actionservertest.SlotSet("check_in_readable", titleCase(v))}}, nil
		},
	}))
	defer srv.Close()
	t.Setenv("RASA_ACTION_ENDPOINT", srv.URL+"/webhook")
	cases := filepath.Join(root, "testdata", "rasa", "cases")
	entries, err := os.ReadDir(cases)
	require.NoError(t, err)
	ran := 0
	for _, e := range entries {
		want, err := os.ReadFile(filepath.Join(cases, e.Name(), "expect"))
		if err != nil {
			continue
		}
		ran++
		t.Run(e.Name(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "bot")
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitOK, run(context.Background(), []string{"soni", "import", "rasa", filepath.Join(cases, e.Name(), "in"), "-o", out}, nil, &stdout, &stderr), stderr.String())
			stdout.Reset()
			stderr.Reset()
			run(context.Background(), []string{"soni", "test", "--understanding", "rules", out}, strings.NewReader(""), &stdout, &stderr)
			// The expect file's first line is the report's last line; each
			// other line is a text the report must hold.
			expect := strings.Split(strings.TrimSpace(string(want)), "\n")
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			assert.Equal(t, expect[0], lines[len(lines)-1], "%s\n%s", stdout.String(), stderr.String())
			for _, s := range expect[1:] {
				assert.Contains(t, stdout.String(), s)
			}
		})
	}
	assert.Positive(t, ran)
}

// titleCase capitalises each word, as Python's str.title does for plain
// lower-case words.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}
