package diag

// Rule describes one diagnostic code: its stable identifier, a short name,
// its severity and a help text that says how to fix it. The SARIF renderer
// publishes the catalogue as its rules, and docs/diagnostics.md documents
// every entry.
type Rule struct {
	Code     string
	Name     string
	Severity Severity
	Summary  string
	Help     string
}

// The diagnostic codes. Errors start with E, warnings with W. Codes are
// stable: a code is never reused for another meaning.
const (
	CodeFileRead            = "E001"
	CodeFileLimit           = "E002"
	CodeYAMLSyntax          = "E003"
	CodeDuplicateKey        = "E004"
	CodeMultiDoc            = "E005"
	CodeAliasLimit          = "E006"
	CodeNestingLimit        = "E007"
	CodeNotUTF8             = "E008"
	CodeNoFlows             = "E009"
	CodeVersion             = "E010"
	CodeUnknownKey          = "E011"
	CodeWrongType           = "E012"
	CodeMissingField        = "E013"
	CodeInvalidValue        = "E014"
	CodeDuplicateName       = "E020"
	CodeDuplicateStep       = "E021"
	CodeDuplicateSetting    = "E022"
	CodeInvalidName         = "E023"
	CodeUnknownTarget       = "E030"
	CodeUnknownFlow         = "E031"
	CodeUnknownSlot         = "E032"
	CodeExpression          = "E033"
	CodeTemplate            = "E034"
	CodeSetType             = "E035"
	CodeUnknownOutput       = "E036"
	CodeDuplicateTrigger    = "E037"
	CodeBadPattern          = "E038"
	CodeLoopBody            = "E039"
	CodeMisspeltSlotType    = "E040"
	CodeUnknownResponse     = "E041"
	CodeBadPayload          = "E042"
	CodeReadOnlySlot        = "E043"
	CodeUnreachable         = "W001"
	CodeInputlessLoop       = "W002"
	CodeMaybeUnset          = "W003"
	CodeUnusedSlot          = "W004"
	CodeUnusedAction        = "W005"
	CodeUndeclaredAction    = "W006"
	CodeUnstartableFlow     = "W007"
	CodeNeverMatches        = "W008"
	CodeCallRecursion       = "W009"
	CodeUnknownSlotType     = "W010"
	CodeEmptyFile           = "W011"
	CodeIgnoredKey          = "W012"
	CodeEndFlow             = "W013"
	CodeConfirmLabel        = "W014"
	CodeUndeclaredValidator = "W015"
	CodeMixedLogic          = "W016"
	CodeKeptSlot            = "W017"
	CodeUnusedResponse      = "W018"
	CodeEndlessPattern      = "W019"
	CodeRunnerlessAction    = "W020"
)

// Rules is the catalogue of every diagnostic code, in code order.
var Rules = []Rule{
	{CodeFileRead, "file-read", Error, "A file or directory could not be read.", "Check that the path exists, is readable and is not a symlink loop."},
	{CodeFileLimit, "file-too-large", Error, "A file is larger than the configured size limit.", "Split the project into smaller files, or raise the limit with --max-file-size."},
	{CodeYAMLSyntax, "yaml-syntax", Error, "The file is not valid YAML.", "Fix the YAML at the position shown; indent with spaces, never tabs."},
	{CodeDuplicateKey, "duplicate-key", Error, "A mapping has the same key twice.", "Remove or rename one of the two keys; YAML keeps only one of them."},
	{CodeMultiDoc, "multiple-documents", Error, "A flow file holds more than one YAML document.", "Put each document in its own file, or remove the extra '---' separator."},
	{CodeAliasLimit, "alias-limit", Error, "The file expands too many YAML aliases.", "Use fewer anchors and aliases; a file may expand at most the limit shown."},
	{CodeNestingLimit, "nesting-limit", Error, "The YAML nests deeper than the limit.", "Flatten the structure; flow files never need deep nesting."},
	{CodeNotUTF8, "not-utf8", Error, "The file is not UTF-8 text.", "Save the file as UTF-8; binary files do not belong in a project."},
	{CodeNoFlows, "no-flows", Error, "The project defines no flows.", "Add a top-level 'flows:' mapping with at least one flow."},
	{CodeVersion, "unsupported-version", Error, "The file's version is not supported.", "Set 'version: \"1.0\"' or remove the key."},
	{CodeUnknownKey, "unknown-key", Error, "A mapping has a key the language does not define.", "Rename the key to the suggested one, or remove it."},
	{CodeWrongType, "wrong-type", Error, "A value has the wrong type.", "Write a value of the type named in the message."},
	{CodeMissingField, "missing-field", Error, "A required field is missing.", "Add the field named in the message."},
	{CodeInvalidValue, "invalid-value", Error, "A value is not one of the allowed values or out of range.", "Use one of the values listed in the message."},
	{CodeDuplicateName, "duplicate-definition", Error, "A flow, slot or action is defined twice.", "Rename or remove one of the two definitions; both places are cited."},
	{CodeDuplicateStep, "duplicate-step-id", Error, "Two steps of a flow share an id.", "Give every step of a flow its own id."},
	{CodeDuplicateSetting, "duplicate-setting", Error, "A setting is given twice across files.", "Keep each setting in one file only."},
	{CodeInvalidName, "invalid-name", Error, "A name does not match the naming rules.", "Flow names and step ids match [A-Za-z_][A-Za-z0-9_-]*; slot and action names match [A-Za-z_][A-Za-z0-9_]*; __end__ is reserved."},
	{CodeUnknownTarget, "unknown-target", Error, "A jump names a step that does not exist in the flow.", "Use a step id of the same flow, or __end__."},
	{CodeUnknownFlow, "unknown-flow", Error, "A link or call names a flow that does not exist.", "Use the name of a defined flow."},
	{CodeUnknownSlot, "unknown-slot", Error, "A slot is used that the flow cannot see.", "Declare the slot at the top level or in the flow's slots, or fix its name."},
	{CodeExpression, "expression", Error, "An expression does not compile or has the wrong type.", "Fix the expression; slots are variables by name and conditions must be boolean."},
	{CodeTemplate, "template", Error, "A template is malformed.", "Close every '{' with '}', and write '{{' and '}}' for literal braces."},
	{CodeSetType, "set-type", Error, "A set step assigns a literal of the wrong type to a typed slot.", "Assign a value of the slot's type, or use {expr: ...}."},
	{CodeUnknownOutput, "unknown-output", Error, "map_outputs names an output that the action does not declare.", "Use one of the action's declared outputs, or declare the output."},
	{CodeDuplicateTrigger, "duplicate-trigger", Error, "Two flows share a trigger phrase.", "Keep each trigger phrase in one flow only, so a message starts one flow."},
	{CodeBadPattern, "bad-pattern", Error, "A regular expression does not compile.", "Fix the regular expression (Go RE2 syntax)."},
	{CodeLoopBody, "loop-body", Error, "A step belongs to the body of more than one while loop, or a while lists itself.", "List each step in at most one 'do' and never the while step itself."},
	{CodeMisspeltSlotType, "misspelt-slot-type", Error, "A slot type is a misspelling of a known type, or an unknown type on a slot with min or max.", "Write the type suggested in the message: text, integer, number, boolean, categorical, date, list or any."},
	{CodeUnknownResponse, "unknown-response", Error, "A step or message names a response that is not defined, or a collect has no message and no utter_ask_SLOT response.", "Define the response under 'responses:', fix its name, or give the step a message."},
	{CodeBadPayload, "bad-payload", Error, "A button's payload names a slot, value or flow the project does not have, or is malformed.", "Write /SetSlots(slot=value), /intent{\"slot\": \"value\"} or a soni command with names the project defines."},
	{CodeReadOnlySlot, "read-only-slot", Error, "A pattern flow sets or collects one of the read-only slots the VM gives it.", "Use another slot name; the pattern's context slots are filled by soni when the pattern starts."},
	{CodeUnreachable, "unreachable-step", Warning, "A step can never run.", "Jump to the step from somewhere, or remove it."},
	{CodeInputlessLoop, "loop-without-input", Warning, "A cycle of steps never waits for the user and may loop forever.", "Put a collect or confirm in the cycle, or give it a condition that becomes false."},
	{CodeMaybeUnset, "slot-maybe-unset", Warning, "A slot may be read before it is set on some path.", "Collect or set the slot on every path before it is read, or give it an initial value."},
	{CodeUnusedSlot, "unused-slot", Warning, "A declared slot is never used.", "Use the slot or remove its declaration."},
	{CodeUnusedAction, "unused-action", Warning, "A declared action is never called.", "Call the action from a step or remove its declaration."},
	{CodeUndeclaredAction, "undeclared-action", Warning, "A step calls an action that is not declared.", "Declare the action under 'actions:' or provide it from Go or a test stub."},
	{CodeUnstartableFlow, "unstartable-flow", Warning, "Nothing can start a flow.", "Give the flow trigger intents, or link or call it from another flow."},
	{CodeNeverMatches, "branch-never-matches", Warning, "A branch case can never match the slot's type.", "Use a pattern that fits the slot's type or declared values."},
	{CodeCallRecursion, "call-recursion", Warning, "Flows call each other recursively.", "Break the cycle of calls; deep recursion hits max_stack_depth at run time."},
	{CodeUnknownSlotType, "unknown-slot-type", Warning, "A slot type is not one the language knows; it is treated as text.", "Use text, integer, number, boolean, categorical, date, list or any."},
	{CodeEmptyFile, "empty-file", Warning, "A file in the project is empty.", "Add content or remove the file."},
	{CodeIgnoredKey, "ignored-key", Warning, "A key of the Python Soni framework that it ignores; soni ignores it too.", "Write what the message says instead, or remove the key."},
	{CodeEndFlow, "end-flow", Warning, "A jump names __end_flow__, the Python framework's name for __end__; soni reads it as __end__.", "Write __end__."},
	{CodeConfirmLabel, "confirm-label", Warning, "A confirm names a slot that nothing declares or sets: a label, as in the Python framework.", "Name the slot the confirmation is about, or declare the slot."},
	{CodeUndeclaredValidator, "undeclared-validator", Warning, "A collect names a validator that is neither built in nor declared.", "Declare it under 'validators:', provide it from Go (Engine.RegisterValidator) or a test stub, or use a built-in."},
	{CodeMixedLogic, "mixed-and-or", Warning, "An expression mixes and and or without parentheses; the Python framework read such conditions from left to right.", "Add parentheses that say which reading you mean."},
	{CodeKeptSlot, "kept-slot", Warning, "A flow collects a conversation slot and never clears it, so the next run of the flow reuses the old answer.", "Declare the slot in the flow's slots, clear it with a set step (slot: null), or acknowledge a slot meant to outlive the flow with # soni:ignore W017."},
	{CodeUnusedResponse, "unused-response", Warning, "A response is defined but nothing says it.", "Say it from a step (response: NAME), or remove it."},
	{CodeEndlessPattern, "endless-pattern", Warning, "A pattern flow that overrides a default can never end, so the conversation it repairs would never resume.", "Give the pattern a path to its end (the last step, or __end__)."},
	{CodeRunnerlessAction, "runnerless-action", Warning, "A flow calls a declared action that has no run block, and no conversation test of the project stubs it: soni chat and soni serve fail at the action.", "Give the action a run: block (exec, http or rasa), register a Go function for it (Engine.Register), or stub it in the project's tests (stub_custom_actions)."},
}

var rulesByCode = func() map[string]*Rule {
	m := make(map[string]*Rule, len(Rules))
	for i := range Rules {
		m[Rules[i].Code] = &Rules[i]
	}
	return m
}()

// RuleOf returns the catalogue entry of a code, or nil.
func RuleOf(code string) *Rule { return rulesByCode[code] }

// SeverityOf returns the severity of a code. Unknown codes are errors.
func SeverityOf(code string) Severity {
	if r := rulesByCode[code]; r != nil {
		return r.Severity
	}
	return Error
}
