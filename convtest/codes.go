package convtest

import (
	"github.com/soni-dev/soni/diag"
	docs "github.com/soni-dev/soni/syntax"
)

// The diagnostic codes of test files. They start with T so they never clash
// with the compiler's E and W codes; all of them are errors, and a test file
// with any of them does not run.
const (
	CodeFileRead        = "T001"
	CodeYAMLSyntax      = docs.TestYAMLSyntax
	CodeUnknownKey      = docs.TestUnknownKey
	CodeWrongType       = docs.TestWrongType
	CodeMissingField    = docs.TestMissingField
	CodeCheckBeforeUser = "T006"
	CodeUnknownFlow     = "T007"
	CodeUnknownSlot     = "T008"
	CodeUnknownAction   = "T009"
	CodeUnknownFixture  = "T010"
	CodeUnknownCase     = "T011"
	CodeBadRegex        = "T012"
	CodeNoProject       = "T013"
	CodeDuplicateName   = docs.TestDuplicateName
	CodeInvalidValue    = "T015"
	CodeUnknownCommand  = "T016"
	CodeUnsupported     = docs.TestUnsupported
	CodeUnknownResponse = "T018"
)

// Rules is the catalogue of the test-file codes, in code order.
var Rules = []diag.Rule{
	{Code: CodeFileRead, Name: "test-file-read", Severity: diag.Error, Summary: "A test file or directory could not be read.", Help: "Check that the path exists and is readable."},
	{Code: CodeYAMLSyntax, Name: "test-yaml-syntax", Severity: diag.Error, Summary: "A test file is not valid YAML or has no test_cases.", Help: "Fix the YAML at the position shown; a test file is a mapping with a test_cases list."},
	{Code: CodeUnknownKey, Name: "unknown-test-key", Severity: diag.Error, Summary: "A test file, test case or step has a key the format does not define.", Help: "Rename the key to the suggested one, or remove it."},
	{Code: CodeWrongType, Name: "test-wrong-type", Severity: diag.Error, Summary: "A value in a test file has the wrong shape.", Help: "Write a value of the shape named in the message."},
	{Code: CodeMissingField, Name: "test-missing-field", Severity: diag.Error, Summary: "A test case lacks a required field.", Help: "Give every test case a test_case name and a steps list."},
	{Code: CodeCheckBeforeUser, Name: "check-before-user", Severity: diag.Error, Summary: "A check step comes before the first user step of a test case.", Help: "Start the steps with a user step; checks test the turn of the user step above them."},
	{Code: CodeUnknownFlow, Name: "test-unknown-flow", Severity: diag.Error, Summary: "A test names a flow the project does not have.", Help: "Use the name of a flow of the project under test."},
	{Code: CodeUnknownSlot, Name: "test-unknown-slot", Severity: diag.Error, Summary: "A test names a slot the project does not have.", Help: "Use a conversation slot or a slot of a flow of the project."},
	{Code: CodeUnknownAction, Name: "test-unknown-action", Severity: diag.Error, Summary: "A test or stub names an action that no step calls and nothing declares.", Help: "Use the name of an action the project declares or calls."},
	{Code: CodeUnknownFixture, Name: "unknown-fixture", Severity: diag.Error, Summary: "A test case uses a fixture or metadata the file does not define.", Help: "Define the fixture under the file's fixtures, or fix its name."},
	{Code: CodeUnknownCase, Name: "unknown-test-case", Severity: diag.Error, Summary: "A CASE::ACTION stub names a test case the file does not have.", Help: "Use the name of a test case of the same file."},
	{Code: CodeBadRegex, Name: "bad-regex", Severity: diag.Error, Summary: "A bot_matches pattern is not a valid regular expression.", Help: "Fix the pattern (Go RE2 syntax); remember to double backslashes inside double quotes."},
	{Code: CodeNoProject, Name: "no-project", Severity: diag.Error, Summary: "The project under test cannot be found.", Help: "Point flows: (relative to the test file) or --flows at a flow file or project directory."},
	{Code: CodeDuplicateName, Name: "duplicate-test-name", Severity: diag.Error, Summary: "Two test cases or fixtures of a file share a name.", Help: "Give every test case and fixture of a file its own name."},
	{Code: CodeInvalidValue, Name: "test-invalid-value", Severity: diag.Error, Summary: "A value in a test file does not fit the slot it is meant for.", Help: "Give a value of the slot's type; fixtures may only preset conversation slots."},
	{Code: CodeUnknownCommand, Name: "unknown-command", Severity: diag.Error, Summary: "A user step's commands has an entry that is not a command.", Help: "Use start_flow, set_slot, correct_slot, cancel_flow, affirm or deny."},
	{Code: CodeUnsupported, Name: "unsupported-rasa", Severity: diag.Error, Summary: "A construct of Rasa's test format that soni has no equivalent for, such as generative assertions.", Help: "Write what the message says instead: bot: or bot_matches: for a reply, bot_uttered: {text_matches: ...}."},
	{Code: CodeUnknownResponse, Name: "test-unknown-response", Severity: diag.Error, Summary: "A test names a response the project does not have.", Help: "Use the name of a response of the project under test (responses: in its files, or one of soni's default patterns' responses)."},
}

var rulesByCode = func() map[string]*diag.Rule {
	m := make(map[string]*diag.Rule, len(Rules))
	for i := range Rules {
		m[Rules[i].Code] = &Rules[i]
	}
	return m
}()

// RuleOf returns the catalogue entry of a test-file code, or nil.
func RuleOf(code string) *diag.Rule { return rulesByCode[code] }
