package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFrameworkKeyHints: keys of the Python Soni framework that soni spells
// differently, or has no counterpart for, say what to write instead.
func TestFrameworkKeyHints(t *testing.T) {
	src := `settings:
  models: {nlu: {provider: openai, model: gpt-4o-mini}}
slots:
  user_input: {type: string, prompt: "Please enter your input"}
flows:
  e:
    process: []
  f:
    steps:
      - {step: a, type: branch, input: user_input, cases: {default: b}}
      - {step: b, type: confirm, slot: user_input, max_retries: 2}
  g:
    slots:
      - {name: x, prompt: "X?"}
    steps:
      - {step: a, type: say, message: hi}
`
	want := []want{
		{"/flows/e/process", UnknownKey, "process", `unknown key "process" in flow "e"`, `did you mean "steps"?`},
		{"/flows/f/steps/0/input", UnknownKey, "input", `unknown key "input" in branch step`, `did you mean "slot"?`},
		{"/flows/f/steps/1/max_retries", UnknownKey, "max_retries", `unknown key "max_retries" in confirm step`, `a confirm asks again until it gets a yes or a no, or the user cancels or digresses: remove "max_retries"`},
		{"/flows/g/slots/0/prompt", UnknownKey, "prompt", `unknown key "prompt" in a slot of flow "g"`, `a slot's question is asked by the collect step: move the text to that step's "message"`},
		{"/settings/models", UnknownKey, "models", `unknown key "models" in settings`, `did you mean "llm"?`},
		{"/slots/user_input/prompt", UnknownKey, "prompt", `unknown key "prompt" in slot "user_input"`, `a slot's question is asked by the collect step: move the text to that step's "message"`},
	}
	assert.Equal(t, want, summarize(Validate(decode(t, src))))
}

// TestShapeHints: a value of the wrong shape gets the same value written in
// the shape the language wants.
func TestShapeHints(t *testing.T) {
	src := `slots:
  - {name: a, type: text}
flows:
  f:
    trigger: ["book a flight"]
    slots:
      origin: {type: city}
    steps:
      - {step: a, type: while, condition: "true", do: a}
      - {step: b, type: branch, slot: x, cases: [{Madrid: a}]}
      - {step: c, type: action, call: x, map_outputs: [x]}
      - {step: d, type: set, slots: [x]}
      - {step: e, type: collect, slot: x, message: m, force: "no"}
  g:
    trigger: {intents: "hello there"}
    steps:
      - {step: a, type: say, message: hi}
actions:
  act: {outputs: 3}
`
	want := []want{
		{"/actions/act/outputs", WrongType, "", `expected a list for "outputs", got an integer`, `write a list, even for one item: outputs: [3]`},
		{"/flows/f/slots", WrongType, "", `expected a list for "slots", got a mapping`, `a flow's "slots" is a list of definitions with a name, such as "- {name: origin, type: text}"; the mapping from names to definitions is the top-level "slots"`},
		{"/flows/f/steps/0/do", WrongType, "", `expected a list for "do", got a string`, `write a list, even for one item: do: [a]`},
		{"/flows/f/steps/1/cases", WrongType, "", `expected a mapping for "cases", got a list`, `write the cases as a mapping from pattern to step id, without "-": cases: {">100": big, default: small}`},
		{"/flows/f/steps/2/map_outputs", WrongType, "", `expected a mapping for "map_outputs", got a list`, `map each output key of the action to a slot: map_outputs: {balance: account_balance}`},
		{"/flows/f/steps/3/slots", WrongType, "", `expected a mapping for "slots", got a list`, `a set step maps each slot to its value: slots: {amount: 0, recipient: null}`},
		{"/flows/f/steps/4/force", WrongType, "", `expected a boolean for "force", got a string`, "use true or false"},
		{"/flows/f/trigger", WrongType, "", `expected a mapping for "trigger", got a list`, `put the phrases under "intents": trigger: {intents: [...]}`},
		{"/flows/g/trigger/intents", WrongType, "", `expected a list for "intents", got a string`, `write a list, even for one item: intents: ["hello there"]`},
		{"/slots", WrongType, "", `expected a mapping for "slots", got a list`, `the top-level "slots" maps each name to its definition: "amount: {type: number}"; a list of "- name: ..." items belongs in a flow`},
	}
	assert.Equal(t, want, summarize(Validate(decode(t, src))))
}
