package convtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBadInput checks that every kind of broken test file is a positioned
// diagnostic and never runs, let alone passes.
func TestBadInput(t *testing.T) {
	proj := filepath.ToSlash(projectDir(t))
	head := "flows: " + proj + "\n"
	hello := "      - user: hello\n      - bot: \"Hello!\"\n      - bot: I can take an order.\n"
	tests := []struct {
		name, src string
		code      string
		// at is line:col of the diagnostic; want is in its rendering.
		at, want string
	}{
		{"not yaml", "test_cases: [\n  - test_case: x\n", CodeYAMLSyntax, "", "invalid YAML"},
		{"not a mapping", "- test_cases\n", CodeWrongType, "1:1", "must be a mapping"},
		{"services not a mapping", head + "services: [go]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeWrongType, "2:11", "services must be a mapping"},
		{"service key not a variable", head + "services:\n  travel-api: [go]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeWrongType, "3:3", `service "travel-api": the key is the environment variable`},
		{"service command not a list", head + "services:\n  API_URL: go run .\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeWrongType, "3:12", `the command of service "API_URL" must be a list`},
		{"service command empty", head + "services:\n  API_URL: []\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeMissingField, "3:12", `the command of service "API_URL" is empty`},
		{"no test_cases", head + "fixtures: []\ntest_case: x\n", CodeUnknownKey, "3:1", `did you mean "test_cases"?`},
		{"unknown file key", head + "stubs: {}\ntest_cases: []\n", CodeUnknownKey, "2:1", "allowed keys"},
		{"unknown step key", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n      - bott: Hello!\n", CodeUnknownKey, "6:9", `did you mean "bot"?`},
		{"two kinds in a step", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        bot: hi\n", CodeUnknownKey, "6:9", `both "user" and "bot"`},
		{"commands on a bot step", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n      - bot: hi\n        commands: [affirm]\n", CodeUnknownKey, "7:9", "commands belongs to a user step"},
		{"check before user", head + "test_cases:\n  - test_case: a\n    steps:\n      - bot: hi\n" + hello, CodeCheckBeforeUser, "5:9", "before the first user step"},
		{"unknown case key", head + "test_cases:\n  - test_case: a\n    fixture: [x]\n    steps:\n" + hello, CodeUnknownKey, "4:5", `did you mean "fixtures"?`},
		{"case without name", head + "test_cases:\n  - steps:\n" + hello, CodeMissingField, "3:5", "no name"},
		{"case without steps", head + "test_cases:\n  - test_case: a\n", CodeMissingField, "3:5", `"a" has no steps`},
		{"duplicate case", head + "test_cases:\n  - test_case: a\n    steps:\n" + hello + "  - test_case: a\n    steps:\n" + hello, CodeDuplicateName, "8:5", "defined twice"},
		{"command unknown flow", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n        commands: [start_flow: ordr]\n", CodeUnknownFlow, "6:32", `did you mean "order"?`},
		{"command unknown slot", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n        commands: [{set_slot: {itme: tea}}]\n", CodeUnknownSlot, "6:32", `did you mean "item"?`},
		{"start_flow slot of another flow", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n        commands: [{start_flow: {flow: hello, slots: {item: tea}}}]\n", CodeUnknownSlot, "6:55", `flow "hello" has no slot "item"`},
		{"unknown command", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n        commands: [afirm]\n", CodeUnknownCommand, "6:20", `did you mean "affirm"?`},
		{"chitchat of an unknown kind", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n        commands: [chitchat: weather]\n", CodeWrongType, "6:30", `unknown kind of small talk "weather"`},
		{"slot check unknown slot", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n      - slot_was_set: [qtty]\n", CodeUnknownSlot, "6:24", `did you mean "qty"?`},
		{"event unknown flow", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n      - flow_started: helo\n", CodeUnknownFlow, "6:23", `did you mean "hello"?`},
		{"event unknown action", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n      - action_executed: get_prize\n", CodeUnknownAction, "6:26", `did you mean "get_price"?`},
		{"bad regex", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: x\n      - bot_matches: \"(unclosed\"\n", CodeBadRegex, "6:22", "not a valid regular expression"},
		{"unknown fixture", head + "fixtures:\n  - premium: [{tier: premium}]\ntest_cases:\n  - test_case: a\n    fixtures: [premum]\n    steps:\n" + hello, CodeUnknownFixture, "6:16", `did you mean "premium"?`},
		{"fixture of a flow slot", head + "fixtures:\n  - f: [{item: tea}]\ntest_cases:\n  - test_case: a\n    fixtures: [f]\n    steps:\n" + hello, CodeInvalidValue, "3:10", "flow slot"},
		{"fixture unknown slot", head + "fixtures:\n  - f: [{teir: premium}]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownSlot, "3:10", `did you mean "tier"?`},
		{"fixture bad value", head + "fixtures:\n  - f: [{tier: platinum}]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeInvalidValue, "3:10", "does not fit"},
		{"duplicate fixture", head + "fixtures:\n  - f: [{tier: basic}]\n  - f: [{tier: premium}]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeDuplicateName, "4:5", "defined twice"},
		{"stub unknown action", head + "stub_custom_actions:\n  get_prize: {outputs: {price: 1}}\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownAction, "3:3", `did you mean "get_price"?`},
		{"stub unknown case", head + "stub_custom_actions:\n  b::get_price: {error: down}\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownCase, "3:3", `names test case "b"`},
		{"stub unknown field", head + "stub_custom_actions:\n  get_price: {output: {price: 1}}\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownKey, "3:15", `did you mean "outputs"?`},
		{"stub with outputs and error", head + "stub_custom_actions:\n  get_price:\n    outputs: {price: 1}\n    error: down\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownKey, "5:5", "both outputs and error"},
		{"stub with error and outputs", head + "stub_custom_actions:\n  get_price: {error: down, outputs: {price: 1}}\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownKey, "3:28", "both outputs and error"},
		{"stub with an empty case name", head + "stub_custom_actions:\n  ::get_price: {outputs: {price: 1}}\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeWrongType, "3:3", "names no test case"},
		{"empty test_cases list", head + "test_cases: []\n", CodeMissingField, "2:1", "at least one test case"},
		{"null test_cases", head + "test_cases:\n", CodeMissingField, "2:1", "at least one test case"},
		{"flows path missing", "flows: ../nowhere\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeNoProject, "1:8", "does not exist"},
		{"user not a string", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: [a, b]\n", CodeWrongType, "5:15", "must be a string"},
		{"steps not a list", head + "test_cases:\n  - test_case: a\n    steps: hello\n", CodeWrongType, "4:12", "must be a list"},
		{"two documents", head + "test_cases: []\n---\ntest_cases: []\n", CodeYAMLSyntax, "", "more than one YAML document"},
		// Rasa's format: what soni has no equivalent for says what to
		// write instead (T017); mistakes get the usual codes.
		{"rasa utter step", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n      - utter: utter_welcome\n", CodeUnknownResponse, "6:16", `unknown response "utter_welcome": the project has no such response`},
		{"rasa utter_name", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - bot_uttered: {utter_name: utter_welcome}\n", CodeUnknownResponse, "7:39", "unknown response \"utter_welcome\": the project has no such response"},
		{"rasa buttons", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - bot_uttered:\n              buttons: [{title: Yes, payload: /affirm, kind: x}]\n", CodeUnknownKey, "8:56", "unknown key \"kind\" in a button"},
		{"rasa stub events", head + "stub_custom_actions:\n  get_price:\n    events: [42]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeWrongType, "4:13", `events of stub "get_price": event 1 is a JSON number, not an object`},
		{"rasa stub responses", head + "stub_custom_actions:\n  get_price:\n    responses: [hi]\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeWrongType, "4:16", `responses of stub "get_price": response 1: a JSON string, not an object`},
		{"rasa generative relevant", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - generative_response_is_relevant: {threshold: 0.9}\n", CodeUnsupported, "7:13", `assertion "generative_response_is_relevant" has no equivalent in soni: generative assertions need an LLM judge`},
		{"rasa generative grounded", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - generative_response_is_grounded: {threshold: 0.9}\n", CodeUnsupported, "7:13", `assertion "generative_response_is_grounded" has no equivalent`},
		{"rasa unknown assertion", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - flow_startd: hello\n", CodeUnknownKey, "7:13", `did you mean "flow_started"?`},
		{"rasa unknown flow step", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - flow_completed: {flow_id: hello, flow_step_id: ofer}\n", CodeUnknownFlow, "7:60", `flow "hello" has no step "ofer" (did you mean "offer"?)`},
		{"rasa flow without flow_id", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - flow_completed: {flow_step_id: offer}\n", CodeMissingField, "7:13", "flow_completed needs flow_id"},
		{"rasa slot without name", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - slot_was_set: [{value: tea}]\n", CodeMissingField, "7:29", "needs name"},
		{"rasa unknown slot", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - slot_was_set: [{name: itm, value: tea}]\n", CodeUnknownSlot, "7:35", `did you mean "item"?`},
		{"rasa assertions on a bot step", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n      - bot: hi\n        assertions: []\n", CodeUnknownKey, "7:9", "assertions belongs to a user step"},
		{"rasa order not a boolean", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertion_order_enabled: yes please\n", CodeWrongType, "6:34", "must be true or false"},
		{"rasa unknown metadata", head + "metadata:\n  - web: {channel: web}\ntest_cases:\n  - test_case: a\n    metadata: wbe\n    steps:\n" + hello, CodeUnknownFixture, "6:15", `uses unknown metadata "wbe": define it under the file's metadata (did you mean "web"?)`},
		{"rasa bot_uttered without text", head + "test_cases:\n  - test_case: a\n    steps:\n      - user: hello\n        assertions:\n          - bot_uttered: {}\n", CodeMissingField, "7:13", "bot_uttered needs utter_name"},
		{"validator stub unknown", head + "stub_validators:\n  iban_check: {valid: true}\ntest_cases:\n  - test_case: a\n    steps:\n" + hello, CodeUnknownAction, "3:3", `stub for unknown validator "iban_check"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "case.yaml", tt.src)
			s := Load([]string{path}, Options{Now: fixedNow})
			require.True(t, s.Diags.HasErrors(), "no error for %s", tt.name)
			assert.Empty(t, s.Files, "a file with errors must not run")
			var found *diag.Diagnostic
			for i, d := range s.Diags {
				if d.Code == tt.code {
					found = &s.Diags[i]
					break
				}
			}
			require.NotNil(t, found, "want %s, got %v", tt.code, s.Diags)
			if tt.at != "" {
				assert.Equal(t, tt.at, fmt.Sprintf("%d:%d", found.Pos.Line, found.Pos.Col), "position of %v", *found)
			}
			var b bytes.Buffer
			require.NoError(t, diag.WriteText(&b, s.Diags, s.Sources, diag.TextOptions{}))
			assert.Contains(t, b.String(), tt.want)
			assert.Contains(t, b.String(), filepath.ToSlash(path)+":")
			r := s.Run(context.Background())
			assert.Equal(t, 0, r.Passed, "an invalid file never passes")
		})
	}
}

// TestProjectErrors stops at a project that does not compile, with the
// compiler's own diagnostics.
func TestProjectErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "flows.yaml", "flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        mesage: hi\n")
	test := writeFile(t, dir, "tests/t.yaml", "test_cases:\n  - test_case: a\n    steps:\n      - user: hi\n")
	s := Load([]string{test}, Options{})
	require.True(t, s.Diags.HasErrors())
	assert.Empty(t, s.Files)
	var codes []string
	for _, d := range s.Diags {
		codes = append(codes, d.Code)
		assert.NotNil(t, s.Sources.Source(d.Pos.File), "the flow file's source is there for snippets")
	}
	assert.Contains(t, codes, "E011")
}

// TestMissingPaths reports paths that cannot be read and directories
// without tests.
func TestMissingPaths(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "empty/flows.yaml", "flows: {}\n")
	s := Load([]string{filepath.Join(dir, "nope.yaml"), filepath.Join(dir, "empty")}, Options{})
	require.Len(t, s.Diags, 2)
	assert.Equal(t, CodeFileRead, s.Diags[0].Code)
	assert.Contains(t, s.Diags[1].Message+s.Diags[0].Message, "no test files")
}

// TestProjectResolution finds the project of each test file: --flows,
// else flows:, else the nearest directory up to the path given that holds
// flow files.
func TestProjectResolution(t *testing.T) {
	proj, err := os.ReadFile(filepath.Join("testdata", "project", "shop.yaml"))
	require.NoError(t, err)
	dir := t.TempDir()
	writeFile(t, dir, "flows/shop/shop.yaml", string(proj))
	writeFile(t, dir, "flows/shop/tests/deep/hello.yaml", "test_cases:\n  - test_case: hello\n    steps:\n      - user: hello\n      - bot: \"Hello!\"\n      - bot: I can take an order.\n")
	writeFile(t, dir, "flows/shop/side.yaml", "test_cases:\n  - test_case: side\n    steps:\n      - user: info\n      - bot: \"Note: all prices include VAT.\"\n      - bot: 'Say \"order\" to start.'\n")
	writeFile(t, dir, "other/explicit.yaml", "flows: ../flows/shop/shop.yaml\ntest_cases:\n  - test_case: explicit\n    steps:\n      - user: hello\n      - bot: \"Hello!\"\n      - bot: I can take an order.\n")
	writeFile(t, dir, "lonely/tests/t.yaml", "test_cases:\n  - test_case: lonely\n    steps:\n      - user: hello\n")

	t.Run("walk up to the nearest flow directory", func(t *testing.T) {
		s, r := run(t, []string{filepath.Join(dir, "flows")}, Options{})
		require.Len(t, s.Projects, 1, "both files test the same project, compiled once")
		assert.True(t, strings.HasSuffix(s.Projects[0].Path, "flows/shop"), s.Projects[0].Path)
		assert.Equal(t, "2 passed, 0 failed", r.Summary())
	})
	t.Run("flows key", func(t *testing.T) {
		s, r := run(t, []string{filepath.Join(dir, "other")}, Options{})
		require.Len(t, s.Projects, 1)
		assert.True(t, strings.HasSuffix(s.Projects[0].Path, "flows/shop/shop.yaml"), s.Projects[0].Path)
		assert.Equal(t, "1 passed, 0 failed", r.Summary())
	})
	t.Run("--flows overrides", func(t *testing.T) {
		s, r := run(t, []string{filepath.Join(dir, "lonely")}, Options{Flows: filepath.Join(dir, "flows", "shop")})
		require.Len(t, s.Projects, 1)
		assert.Equal(t, "1 passed, 0 failed", r.Summary(), "the case lists no bot step, so its replies are not checked")
	})
	t.Run("no project up to the path given", func(t *testing.T) {
		s := Load([]string{filepath.Join(dir, "lonely")}, Options{})
		require.Len(t, s.Diags, 1)
		assert.Equal(t, CodeNoProject, s.Diags[0].Code)
		assert.Contains(t, s.Diags[0].Message, "add flows: PATH")
	})
	t.Run("flows and tests in sibling directories of the path given", func(t *testing.T) {
		// project/flows/*.yaml and project/tests/*.yaml: walking up from
		// tests finds no directory that directly holds flow files, so the
		// project is the directory given on the command line.
		root := t.TempDir()
		writeFile(t, root, "bot/flows/shop.yaml", string(proj))
		writeFile(t, root, "bot/tests/t.yaml", "test_cases:\n  - test_case: hello\n    steps:\n      - user: hello\n      - bot: \"Hello!\"\n      - bot: I can take an order.\n")
		s, r := run(t, []string{filepath.Join(root, "bot")}, Options{})
		require.Len(t, s.Projects, 1)
		assert.True(t, strings.HasSuffix(s.Projects[0].Path, "bot"), s.Projects[0].Path)
		assert.Equal(t, "1 passed, 0 failed", r.Summary())

		s = Load([]string{filepath.Join(root, "bot", "tests")}, Options{})
		require.Len(t, s.Diags, 1, "the path given holds no flow files: %v", s.Diags)
		assert.Equal(t, CodeNoProject, s.Diags[0].Code)
	})
	t.Run("a file given directly in a flows/ and tests/ layout: the working directory is the project", func(t *testing.T) {
		// "soni test tests/t.yaml" run in bot/ is "soni test ." for
		// that one file: no directory on the way holds flow files
		// directly, the working directory holds them further down.
		root := t.TempDir()
		writeFile(t, root, "bot/flows/shop.yaml", string(proj))
		writeFile(t, root, "bot/tests/t.yaml", "test_cases:\n  - test_case: hello\n    steps:\n      - user: hello\n      - bot: \"Hello!\"\n      - bot: I can take an order.\n")
		t.Chdir(filepath.Join(root, "bot"))
		s, r := run(t, []string{filepath.Join("tests", "t.yaml")}, Options{})
		require.Len(t, s.Projects, 1)
		assert.Equal(t, ".", s.Projects[0].Path)
		assert.Equal(t, "1 passed, 0 failed", r.Summary())

		// Standing in tests/, the working directory holds no flow
		// files: still no project.
		t.Chdir(filepath.Join(root, "bot", "tests"))
		s = Load([]string{"t.yaml"}, Options{})
		require.Len(t, s.Diags, 1, "%v", s.Diags)
		assert.Equal(t, CodeNoProject, s.Diags[0].Code)
	})
	t.Run("a file given directly: the search stops at the repository root", func(t *testing.T) {
		outer := t.TempDir()
		writeFile(t, outer, "shop.yaml", string(proj))
		require.NoError(t, os.MkdirAll(filepath.Join(outer, "repo", ".git"), 0o755))
		test := writeFile(t, outer, "repo/tests/t.yaml", "test_cases:\n  - test_case: hello\n    steps:\n      - user: hello\n")
		s := Load([]string{test}, Options{})
		require.Len(t, s.Diags, 1, "%v", s.Diags)
		assert.Equal(t, CodeNoProject, s.Diags[0].Code)
		assert.Contains(t, s.Diags[0].Message, `up to "`+filepath.ToSlash(filepath.Join(outer, "repo"))+`" holds flow files`)
	})
	t.Run("a file given directly: the temporary directory is never the project", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		writeFile(t, tmp, "stray.yaml", string(proj))
		test := writeFile(t, tmp, "work/t.yaml", "test_cases:\n  - test_case: hello\n    steps:\n      - user: hello\n")
		s := Load([]string{test}, Options{})
		require.Len(t, s.Diags, 1, "%v", s.Diags)
		assert.Equal(t, CodeNoProject, s.Diags[0].Code)
	})
	t.Run("an unusable flows: key is reported and nothing else is searched", func(t *testing.T) {
		for _, value := range []string{`""`, "[a, b]", "{}", ""} {
			d := t.TempDir()
			writeFile(t, d, "broken.yaml", "flows:\n  f:\n    steps:\n      - step: a\n        type: say\n        mesage: hi\n")
			test := writeFile(t, d, "t.yaml", "flows: "+value+"\ntest_cases:\n  - test_case: hello\n    steps:\n      - user: hello\n")
			s := Load([]string{test}, Options{})
			require.Len(t, s.Diags, 1, "flows: %s: %v", value, s.Diags)
			assert.Equal(t, CodeWrongType, s.Diags[0].Code, "flows: %s", value)
			assert.Equal(t, 1, s.Diags[0].Pos.Line)
		}
	})
	t.Run("--flows missing", func(t *testing.T) {
		s := Load([]string{filepath.Join(dir, "lonely")}, Options{Flows: filepath.Join(dir, "nope")})
		require.Len(t, s.Diags, 1)
		assert.Equal(t, CodeNoProject, s.Diags[0].Code)
	})
}

// TestIsTestFile tells test files from flow files.
func TestIsTestFile(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"test_cases: []\n", true},
		{"flows: {}\n# test_cases: in a comment\n", false},
		{"flows:\n  f:\n    description: test_cases\n", false},
		{"test_cases: [\n", true},
		{"flows: [\n", false},
		{"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsTestFile([]byte(tt.src)), "%q", tt.src)
	}
}

// TestCodes keeps the catalogue complete: every code has a unique entry.
func TestCodes(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		assert.False(t, seen[r.Code], "duplicate %s", r.Code)
		seen[r.Code] = true
		assert.True(t, strings.HasPrefix(r.Code, "T"))
		assert.NotEmpty(t, r.Name)
		assert.NotEmpty(t, r.Help)
		assert.Equal(t, diag.Error, r.Severity)
		assert.Same(t, &Rules[len(seen)-1], RuleOf(r.Code))
	}
	assert.Len(t, seen, 18)
	assert.Nil(t, RuleOf("E001"))
}

// TestEachTestFileParsedOnce: telling test files from flow files, finding
// each file's project and decoding it share one parse of each test file.
// Before, a directory's test files were parsed to classify them, again to
// decode them, and the project search parsed every sibling test file
// again for each test file without a flows: key (n² parses).
func TestEachTestFileParsedOnce(t *testing.T) {
	dir := t.TempDir()
	shop, err := os.ReadFile(filepath.Join(projectDir(t), "shop.yaml"))
	require.NoError(t, err)
	writeFile(t, dir, "shop.yaml", string(shop))
	var files []string
	for i := range 5 {
		files = append(files, writeFile(t, dir, fmt.Sprintf("tests/t%d.yaml", i), fmt.Sprintf("test_cases:\n  - test_case: c%d\n    steps:\n      - user: hello\n", i)))
	}
	for _, tc := range []struct {
		name  string
		paths []string
	}{
		{"the project directory", []string{dir}},
		{"the files", files},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := yamlParses.Load()
			s := Load(tc.paths, Options{Now: fixedNow})
			require.False(t, s.Diags.HasErrors(), "%v", s.Diags)
			require.Len(t, s.Files, 5)
			assert.Equal(t, int64(5), yamlParses.Load()-before, "YAML parses of 5 test files")
		})
	}
}
