package rasaimport

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is the Rasa-shaped project of testdata/rasa: every construct the
// importer translates.
const fixture = "../testdata/rasa/project"

// goldenDir holds the import of the fixture, file by file, and its report.
const goldenDir = "../testdata/rasa/golden"

// writeProject writes files into a new directory.
func writeProject(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, b, 0o644))
	}
	return dir
}

// assertGolden holds files (by path) to the golden directory, file by
// file and with no file more or less; SONI_UPDATE=1 rewrites the directory
// first.
func assertGolden(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if os.Getenv("SONI_UPDATE") != "" {
		require.NoError(t, os.RemoveAll(dir))
		for p, b := range files {
			full := filepath.Join(dir, filepath.FromSlash(p))
			require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
			require.NoError(t, os.WriteFile(full, b, 0o644))
		}
	}
	var golden []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, path)
			golden = append(golden, filepath.ToSlash(rel))
		}
		return err
	}), "missing golden files: run SONI_UPDATE=1 go test ./rasaimport")
	var got []string
	for p := range files {
		got = append(got, p)
	}
	slices.Sort(got)
	slices.Sort(golden)
	require.Equal(t, golden, got, "the import writes other files than the golden ones: run SONI_UPDATE=1 go test ./rasaimport")
	for _, p := range got {
		want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(files[p]), "%s is out of date: run SONI_UPDATE=1 go test ./rasaimport", p)
	}
}

// TestImportFixture pins the whole import of the fixture: every file it
// writes and the JSON report (SONI_UPDATE=1 rewrites them), and checks that
// the soni project compiles with no error.
func TestImportFixture(t *testing.T) {
	files, rep, err := Translate(fixture)
	require.NoError(t, err)
	files["report.json"] = rep.JSON()
	assertGolden(t, goldenDir, files)

	// The imported project compiles with no error.
	delete(files, "report.json")
	dir := writeProject(t, files)
	r := compiler.Compile(dir, compiler.Options{})
	for _, d := range r.Diags {
		assert.NotEqual(t, diag.Error, d.Severity, "%s", d)
	}
	require.NotNil(t, r.Program)

	// Translating twice gives the same bytes.
	again, _, err := Translate(fixture)
	require.NoError(t, err)
	for p, b := range again {
		assert.Equal(t, string(files[p]), string(b), p)
	}
}

// TestImportFixtureCoverage checks that the fixture has every construct
// the importer translates, so that the golden files cover them all.
func TestImportFixtureCoverage(t *testing.T) {
	files, rep, err := Translate(fixture)
	require.NoError(t, err)
	all := ""
	for _, b := range files {
		all += string(b)
	}
	for _, want := range []string{
		// steps
		"type: collect", "force: true", "ask_action: action_ask_feedback_text", "validator:", "validation_error_message:", "type: action", "map_outputs:",
		"type: say", "type: set", "type: branch", "type: call", "type: link", "jump_to: __end__",
		"jump_to: ask_amount", `evaluate: "true"`, "Rasa step kept as a comment",
		// conditions
		" and ", " or ", "not ", " == ", " != nil", `in [\"basic\", \"gold\"]`, "matches", "slots.balance > 1000",
		// flows
		"trigger:", "I need to pay Ana back", "min_confidence: 0.8", "soni:ignore W017",
		// a called flow's slots are reset when its caller ends, before a link
		"      - step: link_check_balance\n        type: set\n        slots:\n          feedback_text: null\n      - step: link_check_balance_link\n        type: link",
		// NLU-based rules and forms
		"  goodbye:\n    description: \"say goodbye\"", "response: utter_ask_table_form_table_city",
		"response: utter_ask_table_guests", "response: utter_table_booked", `"/inform{\"table_city\":\"Lisbon\"}"`,
		"  venue_name:\n    type: text\n",
		// slot rejections
		`validation: "not ((value == \"me\") or (value == \"myself\"))"`, "invalid_message: {response: utter_recipient_self}",
		"# Rasa (kept as a comment):\n          # - slot_was_set:\n          #     - name: recipient",
		// slots
		"type: boolean", "type: number", "min: 1", "max: 10000", "type: categorical", "type: any", "initial: Sam",
		// actions
		"rasa:", "${RASA_ACTION_ENDPOINT:-http://localhost:5055/webhook}", "outputs: [has_funds]",
		// settings
		"session_expiration: 30", "carry_over_slots: false",
		// tests
		"assertions:", "flow_started: transfer_money", "slot_was_set:", "text_matches:",
		"action_executed: action_check_funds", "assertion_order_enabled: true", "fixtures:", "metadata: mobile",
		"stub_custom_actions:", `"no_funds::action_check_funds":`, "flow_step_id: done", "balance_old_style_2",
		"flow_cancelled: book_call", "- slot_was_not_set:\n              - name: call_time", "- slot_was_not_set:\n          - call_time",
		"- pattern_clarification_contains:\n              - \"book a call\"\n              - \"book table\"",
		"- bot_did_not_utter:\n              utter_name: utter_ask_call_time",
		"- bot_did_not_utter:\n              text_matches: afternoon\n              buttons:",
		"# stub_custom_actions:\n#   action_unused:\n#     events: []", // a stub soni cannot use is kept as a comment
		// responses
		"- text: \"An adviser will call you in the {call_time}.\"\n      id: call_booked_default", // a variation's id is kept
	} {
		assert.Contains(t, all, want)
	}
	md := all
	for _, want := range []string{
		`the rule "open the table form" (Rasa's NLU-based dialogue) is imported as the flow "book_table"`,
		`the form "table_form" is imported as the collect steps of flow "book_table"`,
		`the rule "greet a gold customer" is not translated: it has a condition`,
		`the form "survey_form" (Rasa's NLU-based dialogue) is not translated`,
	} {
		assert.Contains(t, md, want)
	}
	// Nothing is dropped silently: what a step or a flow carries that the
	// import does not translate is reported, and so are the stories.
	var msgs []string
	for _, it := range rep.Items {
		msgs = append(msgs, it.Where+" "+it.Status+" "+it.Message)
	}
	items := strings.Join(msgs, "\n")
	for _, want := range []string{
		`data/flows/banking.yml:77 approximated in flow "contact_support", force_slot_filling makes Rasa take the whole answer`,
		`data/flows/banking.yml:78 ignored flow "contact_support": the step key "silence_timeout" is not translated`,
		`data/flows/banking.yml:8 approximated flow "transfer_money": the confidence_threshold of its nlu_trigger intent "transfer_money" is the trigger's min_confidence`,
		`data/stories.yml:2 ignored 1 stories (Rasa's NLU-based dialogue) are not translated`,
		`domain/banking.yml:27 approximated slot "amount" is filled from_llm only under conditions (an active flow or form)`,
	} {
		assert.Contains(t, items, want)
	}
	kinds := map[string]bool{}
	for _, it := range rep.Items {
		kinds[it.Status+" "+it.Kind] = true
		assert.NotEmpty(t, it.Fix, "every item has a fix: %+v", it)
		assert.NotEmpty(t, it.Where, "every item has a place: %+v", it)
	}
	for _, want := range []string{"manual slot", "manual step", "manual config", "commented step", "commented test",
		"approximated step", "approximated test", "approximated action", "ignored flow", "ignored data"} {
		assert.True(t, kinds[want], "no %s item", want)
	}
	s := rep.Summary
	assert.Equal(t, Count{8, s.Flows.Converted}, s.Flows)
	assert.Equal(t, 4, s.Patterns.Total)
	assert.Equal(t, 5, s.TestFiles.Total)
	assert.Equal(t, 11, s.TestCases.Total)
}

// TestImportIssue19Forms checks the forms the importer writes with the
// parts of soni's language that came with issue 19: responses, pattern
// flows that say soni's default responses by name, flow guards, action
// messages in stubs, button checks.
func TestImportIssue19Forms(t *testing.T) {
	files, _, err := Translate(fixture)
	require.NoError(t, err)
	domain := string(files["domain.yaml"])
	flows := string(files["flows/banking.yaml"])
	tests := string(files["tests/happy/transfer.yaml"])
	for _, want := range []string{
		"responses:\n", "  utter_greet:\n    - text: \"Hello {customer_name}!\"\n    - text: \"Hi {customer_name}, good to see you.\"",
		"condition:", "buttons:", "payload: \"/SetSlots(account_tier=basic)\"", "image: \"https://example.com/card.png\"",
		"custom:", "channel: rest", "translation:\n        es: \"¡Adiós!\"",
	} {
		assert.Contains(t, domain, want)
	}
	for _, want := range []string{"response: utter_ask_recipient", "response: utter_transfer_done", "if: \"slots.account_tier == \\\"gold\\\"\""} {
		assert.Contains(t, flows, want)
	}
	patterns := string(files["flows/patterns.yaml"])
	for _, want := range []string{"response: utter_corrected_previous_input", "response: utter_can_do_something_else", "response: utter_free_chitchat_response"} {
		assert.Contains(t, patterns, want)
	}
	assert.Contains(t, string(files["tests/happy/balance.yaml"]), "bot_response: utter_can_do_something_else")
	for _, want := range []string{"utter_name: utter_ask_recipient", "buttons:"} {
		assert.Contains(t, tests, want)
	}
	assert.Contains(t, string(files["tests/happy/balance.yaml"]), "bot_response: utter_balance")
	assert.Contains(t, string(files["tests/stubs/transfer_stubbed.yaml"]), "responses:\n      - text: \"The bank is slow today.\"")
	assert.NotContains(t, flows, "kept as a comment):\n    # if:")
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(s), 0o644))
	}
	_, _, err := Translate(filepath.Join(dir, "nothing"))
	require.ErrorContains(t, err, "cannot read the Rasa project")
	_, _, err = Translate(dir)
	require.ErrorContains(t, err, "has no domain.yml and no domain/ directory")
	write("domain.yml", "slots: {}\n")
	_, _, err = Translate(dir)
	require.ErrorContains(t, err, "defines no flows under data/")
	write("data/flows.yml", "flows:\n  a:\n    steps:\n      - action: utter_x\n  b: [\n")
	_, _, err = Translate(dir)
	require.ErrorContains(t, err, "data/flows.yml:")
	require.ErrorContains(t, err, "invalid YAML")
	write("data/flows.yml", "flows:\n  a: &x\n    steps: []\n  b: *x\n")
	_, _, err = Translate(dir)
	require.ErrorContains(t, err, "YAML aliases")
	write("data/flows.yml", "flows:\n  a:\n    steps:\n      - action: utter_x\n")
	write("data/more.yml", "flows:\n  a:\n    steps:\n      - action: utter_y\n")
	_, _, err = Translate(dir)
	require.ErrorContains(t, err, `data/more.yml:2: flow "a" is defined twice (first at data/flows.yml:2)`)
	require.NoError(t, os.Remove(filepath.Join(dir, "data/more.yml")))
	files, rep, err := Translate(dir)
	require.NoError(t, err)
	assert.Contains(t, string(files["flows/flows.yaml"]), "message: utter_x")
	assert.True(t, slices.ContainsFunc(rep.Items, func(it Item) bool {
		return it.Status == StatusManual && strings.Contains(it.Message, `says the response "utter_x", which the domain does not define`)
	}))
}
