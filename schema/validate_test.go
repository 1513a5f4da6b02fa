package schema

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/diag"
)

// decode parses YAML the way the compiler does and returns the generic value.
func decode(t testing.TB, src string) any {
	t.Helper()
	f, err := parser.ParseBytes([]byte(src), parser.ParseComments)
	require.NoError(t, err)
	require.Len(t, f.Docs, 1)
	var doc any
	require.NoError(t, yaml.NodeToValue(f.Docs[0].Body, &doc))
	return doc
}

// want is the part of a Violation a table case checks.
type want struct {
	Pointer    string
	Kind       ViolationKind
	Key        string
	Message    string
	Suggestion string
}

func summarize(vs []Violation) []want {
	out := make([]want, 0, len(vs))
	for _, v := range vs {
		out = append(out, want{v.Pointer, v.Kind, v.Key, v.Message, v.Suggestion})
	}
	return out
}

// validCases are documents that must validate without violations.
var validCases = map[string]string{
	"empty mapping": `{}`,
	"everything": `
version: "1.0"
settings:
  idle_message: How can I help?
  fallback_message: Sorry, I didn't understand that.
  cancel_message: Okay, I've cancelled that.
  action_error_message: Sorry, something went wrong while trying to {action}.
  max_steps_per_turn: 1000
  max_stack_depth: 32
  history_size: 0
  rephrase_responses: true
  rephrase_tone: friendly
  llm: {provider: openai, model: gpt}
  persistence: [anything, goes]
slots:
  account_type:
    type: categorical
    description: which account
    values: [checking, savings]
  size:
    type: categorical
    values: {small: [s, tiny], large: null}
  age: {type: integer, min: 0, max: 130.5, invalid_message: "no", initial: 30}
  city: {type: city}
  code: {type: string, pattern: "[A-Z]{3}", validation: "len(value) == 3"}
  ok: {type: bool, initial: null}
actions:
  get_balance:
    description: Look up an account's balance
    inputs: [account_type, {name: age, required: true}, {name: city}]
    outputs: [balance, currency]
    run:
      exec: ["./actions/get_balance.sh", "--fast"]
      env: [HOME, API_KEY]
      timeout: 5s
  ping:
    run:
      exec: ./ping.sh
      timeout: 2
  remote:
    run:
      http:
        url: http://127.0.0.1:5055/get_balance
        timeout: 5s
        headers: {Authorization: Bearer x}
        retry: {attempts: 3, backoff: 500ms}
flows:
  transfer_funds:
    description: Send money to someone
    trigger:
      intents: ["send money", "I want to make a transfer"]
    slots:
      - {name: amount, type: number, description: how much, min: 1}
      - name: when
        type: date
    steps:
      - step: hello
        type: say
        message: Hi {name}
        rephrase: false
        jump_to: ask
      - step: ask
        type: collect
        slot: amount
        message: How much?
        validator: positive
        validation_error_message: Must be positive
        force: true
        max_attempts: 3
        on_invalid: __end__
      - step: compute
        type: set
        condition: amount > 10
        slots:
          fee: 1.5
          note: "Hello {name}"
          total: {expr: "amount + fee"}
          cleared: null
          flag: true
      - step: route
        type: branch
        slot: amount
        cases: {">100": big, default: small, "true": big}
      - step: route2
        type: branch
        evaluate: amount > 5
        cases: {"true": big}
      - step: loop
        type: while
        condition: amount < 3
        do:
          - ask
          - step: inline
            type: say
            message: again
          - step: inner
            type: while
            do: [ask]
        exit_to: big
      - step: big
        type: action
        call: get_balance
        map_outputs: {balance: amount}
        on_error: small
      - step: small
        type: link
        target: other
      - step: sub
        type: call
        target: other
      - step: sure
        type: confirm
        slot: amount
        message: Sure?
        on_confirm: big
        on_deny: small
  other:
    steps:
      - {step: only, type: say, message: hi}
`,
}

func TestValidateAcceptsValidDocuments(t *testing.T) {
	for name, src := range validCases {
		t.Run(name, func(t *testing.T) {
			assert.Empty(t, Validate(decode(t, src)))
		})
	}
}

func TestValidate(t *testing.T) {
	allStepTypes := "say, collect, set, branch, while, action, link, call, confirm"
	for _, tc := range []struct {
		name string
		src  string
		want []want
	}{
		{
			name: "unknown top-level key with suggestion",
			src:  "flws: {}\n",
			want: []want{{"/flws", UnknownKey, "flws", `unknown key "flws" at the top level`, `did you mean "flows"?`}},
		},
		{
			name: "keys other frameworks use get the soni key as a suggestion",
			src:  "settings: {max_steps: 5}\nflows:\n  f:\n    trigger: {examples: [hi]}\n    steps:\n      - {step: a, type: confirm, slot: x, on_yes: b, on_no: c}\n      - {step: b, type: while, condition: x, do: [c], exit: c}\n      - {step: c, type: branch, condition: x, cases: {default: a}}\n      - {step: d, type: say, message: hi, condition: x}\n",
			want: []want{
				{"/flows/f/steps/0/on_no", UnknownKey, "on_no", `unknown key "on_no" in confirm step`, `did you mean "on_deny"?`},
				{"/flows/f/steps/0/on_yes", UnknownKey, "on_yes", `unknown key "on_yes" in confirm step`, `did you mean "on_confirm"?`},
				{"/flows/f/steps/1/exit", UnknownKey, "exit", `unknown key "exit" in while step`, `did you mean "exit_to"?`},
				{"/flows/f/steps/2/condition", UnknownKey, "condition", `unknown key "condition" in branch step`, `did you mean "evaluate"?`},
				{"/flows/f/steps/3/condition", UnknownKey, "condition", `unknown key "condition" in say step`, `"condition" is a field of set and while steps`},
				{"/flows/f/trigger/examples", UnknownKey, "examples", `unknown key "examples" in the trigger of flow "f"`, `did you mean "intents"?`},
				{"/settings/max_steps", UnknownKey, "max_steps", `unknown key "max_steps" in settings`, `did you mean "max_steps_per_turn"?`},
			},
		},
		{
			name: "unknown top-level key without suggestion",
			src:  "test_cases: []\n",
			want: []want{{"/test_cases", UnknownKey, "test_cases", `unknown key "test_cases" at the top level`, ""}},
		},
		{
			name: "document is a list",
			src:  "- a\n",
			want: []want{{"", WrongType, "", "expected a mapping at the top level, got a list", ""}},
		},
		{
			name: "version of the wrong type",
			src:  "version: [1]\n",
			want: []want{{"/version", WrongType, "", `expected a string or a number for "version", got a list`, ""}},
		},
		{
			name: "misspelt key in a say step is reported once",
			src: `flows:
  f:
    steps:
      - step: a
        type: say
        mesage: hi
`,
			want: []want{{"/flows/f/steps/0/mesage", UnknownKey, "mesage", `unknown key "mesage" in say step`, `did you mean "message"?`}},
		},
		{
			name: "key of another step type",
			src: `flows:
  f:
    steps:
      - step: a
        type: say
        message: hi
        slot: x
`,
			want: []want{{"/flows/f/steps/0/slot", UnknownKey, "slot", `unknown key "slot" in say step`, `"slot" is a field of branch, collect and confirm steps`}},
		},
		{
			name: "wrong type in a step",
			src: `flows:
  f:
    steps:
      - step: a
        type: say
        message: 5
`,
			want: []want{{"/flows/f/steps/0/message", WrongType, "", `expected a string for "message", got an integer`, ""}},
		},
		{
			name: "missing required field in a collect step",
			src: `flows:
  f:
    steps:
      - step: a
        type: collect
        message: what?
`,
			want: []want{{"/flows/f/steps/0", Missing, "slot", `missing required field "slot" in collect step`, ""}},
		},
		{
			name: "missing step id and type",
			src: `flows:
  f:
    steps:
      - message: hi
`,
			want: []want{
				{"/flows/f/steps/0", Missing, "step", `missing required field "step" in step`, ""},
				{"/flows/f/steps/0", Missing, "type", `missing required field "type" in step`, ""},
			},
		},
		{
			name: "misspelt type key",
			src: `flows:
  f:
    steps:
      - step: a
        typ: say
        message: hi
`,
			want: []want{{"/flows/f/steps/0/typ", UnknownKey, "typ", `unknown key "typ" in step`, `did you mean "type"?`}},
		},
		{
			name: "unknown step type",
			src: `flows:
  f:
    steps:
      - step: a
        type: sya
        message: hi
`,
			want: []want{{"/flows/f/steps/0/type", InvalidValue, "", `"sya" is not one of ` + allStepTypes, `did you mean "say"?`}},
		},
		{
			name: "step type of the wrong type",
			src: `flows:
  f:
    steps:
      - step: a
        type: 3
`,
			want: []want{{"/flows/f/steps/0/type", WrongType, "", `expected a string for "type", got an integer`, ""}},
		},
		{
			name: "step is a string",
			src: `flows:
  f:
    steps:
      - say hello
`,
			want: []want{{"/flows/f/steps/0", WrongType, "", `expected a mapping for an item of "steps", got a string`, ""}},
		},
		{
			name: "flow without steps",
			src: `flows:
  f:
    description: nothing
`,
			want: []want{{"/flows/f", Missing, "steps", `missing required field "steps" in flow "f"`, ""}},
		},
		{
			name: "empty steps",
			src:  "flows:\n  f:\n    steps: []\n",
			want: []want{{"/flows/f/steps", InvalidValue, "", `"steps" must not be empty`, ""}},
		},
		{
			name: "unknown key in a flow",
			src:  "flows:\n  f:\n    stpes: []\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []want{{"/flows/f/stpes", UnknownKey, "stpes", `unknown key "stpes" in flow "f"`, `did you mean "steps"?`}},
		},
		{
			name: "trigger intents of the wrong type",
			src:  "flows:\n  f:\n    trigger: {intents: [1, ok]}\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []want{{"/flows/f/trigger/intents/0", WrongType, "", `expected a string for an item of "intents", got an integer`, ""}},
		},
		{
			name: "unknown key in a trigger",
			src:  "flows:\n  f:\n    trigger: {intent: [hi]}\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []want{{"/flows/f/trigger/intent", UnknownKey, "intent", `unknown key "intent" in the trigger of flow "f"`, `did you mean "intents"?`}},
		},
		{
			name: "initial is for conversation slots only",
			src:  "flows:\n  f:\n    slots: [{name: x, initial: 1}]\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []want{{"/flows/f/slots/0/initial", UnknownKey, "initial", `unknown key "initial" in a slot of flow "f"`, `"initial" is for conversation slots only: declare the slot under the top-level "slots" to give it an initial value`}},
		},
		{
			name: "flow slot without a name",
			src:  "flows:\n  f:\n    slots: [{type: text}]\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []want{{"/flows/f/slots/0", Missing, "name", `missing required field "name" in a slot of flow "f"`, ""}},
		},
		{
			// docs/language.md §6.4: a literal may be a list or a mapping;
			// only a mapping with the key expr is an {expr: ...} value.
			// (The compiler reports a one-key mapping whose key is a
			// misspelt expr.)
			name: "set list and mapping literals",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: set, slots: {x: [1], y: {exp: a + 1}, z: {name: Bob, tags: [a]}}}\n",
			want: []want{},
		},
		{
			name: "expr value with another key",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: set, slots: {x: {expr: a + 1, exp: 2}}}\n",
			want: []want{{"/flows/f/steps/0/slots/x/exp", UnknownKey, "exp", `unknown key "exp" in an {expr: ...} value`, `did you mean "expr"?`}},
		},
		{
			name: "expr value that is not a string",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: set, slots: {x: {expr: [1]}}}\n",
			want: []want{{"/flows/f/steps/0/slots/x/expr", WrongType, "", `expected a string for "expr", got a list`, ""}},
		},
		{
			name: "empty set slots and branch cases",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: set, slots: {}}\n      - {step: b, type: branch, slot: x, cases: {}}\n",
			want: []want{
				{"/flows/f/steps/0/slots", InvalidValue, "", `"slots" must not be empty`, ""},
				{"/flows/f/steps/1/cases", InvalidValue, "", `"cases" must not be empty`, ""},
			},
		},
		{
			name: "set without slots",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: set, condition: x}\n",
			want: []want{{"/flows/f/steps/0", Missing, "slots", `missing required field "slots" in set step`, ""}},
		},
		{
			name: "branch without cases and with a non-string target",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: branch, slot: x}\n      - {step: b, type: branch, slot: x, cases: {default: 3}}\n",
			want: []want{
				{"/flows/f/steps/0", Missing, "cases", `missing required field "cases" in branch step`, ""},
				{"/flows/f/steps/1/cases/default", WrongType, "", `expected a string for "default", got an integer`, ""},
			},
		},
		{
			name: "while body: missing, empty, bad items and inline steps",
			src: `flows:
  f:
    steps:
      - {step: a, type: while, condition: x}
      - {step: b, type: while, do: []}
      - step: c
        type: while
        do:
          - a
          - 7
          - {step: d, type: link}
          - step: e
            type: while
            do: [{step: g, type: say, mesage: hi}]
`,
			want: []want{
				{"/flows/f/steps/0", Missing, "do", `missing required field "do" in while step`, ""},
				{"/flows/f/steps/1/do", InvalidValue, "", `"do" must not be empty`, ""},
				{"/flows/f/steps/2/do/1", WrongType, "", `expected a string or a mapping for an item of "do", got an integer`, ""},
				{"/flows/f/steps/2/do/2", Missing, "target", `missing required field "target" in link step`, ""},
				{"/flows/f/steps/2/do/3/do/0/mesage", UnknownKey, "mesage", `unknown key "mesage" in say step`, `did you mean "message"?`},
			},
		},
		{
			name: "action step",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: action, map_outputs: {x: [y]}, on_eror: b}\n",
			want: []want{
				{"/flows/f/steps/0", Missing, "call", `missing required field "call" in action step`, ""},
				{"/flows/f/steps/0/map_outputs/x", WrongType, "", `expected a string for "x", got a list`, ""},
				{"/flows/f/steps/0/on_eror", UnknownKey, "on_eror", `unknown key "on_eror" in action step`, `did you mean "on_error"?`},
			},
		},
		{
			name: "confirm and collect fields",
			src: `flows:
  f:
    steps:
      - {step: a, type: confirm, message: sure?}
      - {step: b, type: collect, slot: x, message: m, force: "yes", max_attempts: 0}
`,
			want: []want{
				{"/flows/f/steps/0", Missing, "slot", `missing required field "slot" in confirm step`, ""},
				{"/flows/f/steps/1/force", WrongType, "", `expected a boolean for "force", got a string`, "use true or false"},
				{"/flows/f/steps/1/max_attempts", InvalidValue, "", `"max_attempts" must be at least 1, got 0`, ""},
			},
		},
		{
			name: "max_attempts must be an integer",
			src:  "flows:\n  f:\n    steps:\n      - {step: b, type: collect, slot: x, message: m, max_attempts: 1.5}\n",
			want: []want{{"/flows/f/steps/0/max_attempts", WrongType, "", `expected an integer for "max_attempts", got a decimal number`, ""}},
		},
		{
			name: "link and call need a target",
			src:  "flows:\n  f:\n    steps:\n      - {step: a, type: link, to: g}\n      - {step: b, type: call, jump_to: 3, target: g}\n      - {step: c, type: link, flow: g}\n",
			want: []want{
				{"/flows/f/steps/0", Missing, "target", `missing required field "target" in link step`, ""},
				{"/flows/f/steps/0/to", UnknownKey, "to", `unknown key "to" in link step`, ""},
				{"/flows/f/steps/1/jump_to", WrongType, "", `expected a string for "jump_to", got an integer`, ""},
				// With a suggestion, the unknown key stands for the missing one.
				{"/flows/f/steps/2/flow", UnknownKey, "flow", `unknown key "flow" in link step`, `did you mean "target"?`},
			},
		},
		{
			name: "settings",
			src:  "settings: {max_steps_per_turn: 0, history_size: -1, idle_mesage: x, cancel_message: [a]}\n",
			want: []want{
				{"/settings/cancel_message", WrongType, "", `expected a string for "cancel_message", got a list`, ""},
				{"/settings/history_size", InvalidValue, "", `"history_size" must be at least 0, got -1`, ""},
				{"/settings/idle_mesage", UnknownKey, "idle_mesage", `unknown key "idle_mesage" in settings`, `did you mean "idle_message"?`},
				{"/settings/max_steps_per_turn", InvalidValue, "", `"max_steps_per_turn" must be at least 1, got 0`, ""},
			},
		},
		{
			name: "slot definitions",
			src:  "slots:\n  s: {type: 3, values: {a: [x], b: 3}, min: low, typo: 1}\n  t: {values: [1]}\n",
			want: []want{
				{"/slots/s/min", WrongType, "", `expected a number for "min", got a string`, ""},
				{"/slots/s/type", WrongType, "", `expected a string for "type", got an integer`, ""},
				{"/slots/s/typo", UnknownKey, "typo", `unknown key "typo" in slot "s"`, `did you mean "type"?`},
				{"/slots/s/values/b", WrongType, "", `expected a list, null or a mapping for "b", got an integer`, ""},
				{"/slots/t/values/0", WrongType, "", `expected a string for an item of "values", got an integer`, ""},
			},
		},
		{
			name: "action declarations",
			src: `actions:
  a:
    inputs: [x, {name: y, required: "yes"}, {nam: z}, 3]
    outputs: x
    run:
      exec: []
      env: [1]
      http: {timeout: 5, headers: {A: 1}, retry: {attempts: 0, backof: 1}}
      shell: true
`,
			want: []want{
				{"/actions/a/inputs/1/required", WrongType, "", `expected a boolean for "required", got a string`, "use true or false"},
				{"/actions/a/inputs/2/nam", UnknownKey, "nam", `unknown key "nam" in an input of action "a"`, `did you mean "name"?`},
				{"/actions/a/inputs/3", WrongType, "", `expected a string or a mapping for an item of "inputs", got an integer`, ""},
				{"/actions/a/outputs", WrongType, "", `expected a list for "outputs", got a string`, "write a list, even for one item: outputs: [x]"},
				{"/actions/a/run/env/0", WrongType, "", `expected a string for an item of "env", got an integer`, ""},
				{"/actions/a/run/exec", InvalidValue, "", `"exec" must not be empty`, ""},
				{"/actions/a/run/http", Missing, "url", `missing required field "url" in the http section of action "a"`, ""},
				{"/actions/a/run/http/headers/A", WrongType, "", `expected a string for "A", got an integer`, ""},
				{"/actions/a/run/http/retry/attempts", InvalidValue, "", `"attempts" must be at least 1, got 0`, ""},
				{"/actions/a/run/http/retry/backof", UnknownKey, "backof", `unknown key "backof" in the retry section of action "a"`, `did you mean "backoff"?`},
				{"/actions/a/run/shell", UnknownKey, "shell", `unknown key "shell" in the run section of action "a"`, ""},
			},
		},
		{
			name: "keys that need JSON pointer escaping",
			src:  "flows:\n  \"a/b~c d\":\n    stepz: []\n    steps: [{step: a, type: say, message: hi}]\n",
			want: []want{{"/flows/a~1b~0c d/stepz", UnknownKey, "stepz", `unknown key "stepz" in flow "a/b~c d"`, `did you mean "steps"?`}},
		},
		{
			name: "errors sort by location with numeric indexes",
			src: "flows:\n  f:\n    steps:\n" + strings.Repeat("      - {step: a, type: say, message: hi}\n", 2) +
				"      - {step: c, type: link}\n" + strings.Repeat("      - {step: a, type: say, message: hi}\n", 7) +
				"      - {step: b, type: link}\n",
			want: []want{
				{"/flows/f/steps/2", Missing, "target", `missing required field "target" in link step`, ""},
				{"/flows/f/steps/10", Missing, "target", `missing required field "target" in link step`, ""},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Validate(decode(t, tc.src))
			assert.Equal(t, tc.want, summarize(got))
		})
	}
}

func TestViolationDetails(t *testing.T) {
	got := Validate(decode(t, "flows:\n  f:\n    steps:\n      - {step: a, type: say, mesage: hi, message: x}\n      - {step: b, type: sya}\n"))
	require.Len(t, got, 2)

	u := got[0]
	assert.Equal(t, []string{"flows", "f", "steps", "0", "mesage"}, u.Tokens)
	assert.Equal(t, "flows.f.steps.0.mesage", u.Path())
	assert.Equal(t, []string{"jump_to", "message", "rephrase", "replaces", "response", "step", "type"}, u.Allowed)
	assert.Equal(t, diag.CodeUnknownKey, u.Kind.Code())
	assert.True(t, strings.HasSuffix(u.Keyword, "/$defs/sayStep/additionalProperties"), u.Keyword)

	e := got[1]
	assert.Equal(t, []string{"say", "collect", "set", "branch", "while", "action", "link", "call", "confirm"}, e.Allowed)
	assert.Equal(t, diag.CodeInvalidValue, e.Kind.Code())
}

func TestViolationKind(t *testing.T) {
	for _, tc := range []struct {
		kind ViolationKind
		name string
		code string
	}{
		{UnknownKey, "unknown-key", diag.CodeUnknownKey},
		{WrongType, "wrong-type", diag.CodeWrongType},
		{Missing, "missing-field", diag.CodeMissingField},
		{InvalidValue, "invalid-value", diag.CodeInvalidValue},
		{ViolationKind(0), "violation(0)", diag.CodeInvalidValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.name, tc.kind.String())
			assert.Equal(t, tc.code, tc.kind.Code())
		})
	}
}

// TestValidateOddValues feeds values that JSON cannot represent or that
// goccy produces only for explicit tags; none may panic.
func TestValidateOddValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  any
		want []want
	}{
		{"nil document", nil, []want{{"", WrongType, "", "expected a mapping at the top level, got null", ""}}},
		{"string document", "hello", []want{{"", WrongType, "", "expected a mapping at the top level, got a string", ""}}},
		{
			"infinite number", map[string]any{"settings": map[string]any{"history_size": math.Inf(1)}},
			[]want{{"/settings/history_size", InvalidValue, "", `"history_size": .inf is not a finite number`, ""}},
		},
		{
			"nan in a list", map[string]any{"actions": map[string]any{"a": map[string]any{"outputs": []any{"x", math.NaN()}}}},
			[]want{{"/actions/a/outputs/1", InvalidValue, "", `an item of "outputs": .nan is not a finite number`, ""}},
		},
		{
			"timestamp", map[string]any{"version": time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)},
			nil,
		},
		{
			"go int types", map[string]any{"settings": map[string]any{"history_size": int16(3), "max_stack_depth": uint8(0), "max_steps_per_turn": float32(2)}},
			[]want{{"/settings/max_stack_depth", InvalidValue, "", `"max_stack_depth" must be at least 1, got 0`, ""}},
		},
		{
			"struct value", map[string]any{"version": struct{ A int }{1}},
			nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Violation
			require.NotPanics(t, func() { got = Validate(tc.doc) })
			if tc.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tc.want, summarize(got))
		})
	}
}

// TestFastPathMatchesPublishedSchema checks that the fast variant plus the
// step dispatch reports exactly what the published schema reports.
func TestFastPathMatchesPublishedSchema(t *testing.T) {
	type namedSrc struct{ name, src string }
	var srcs []namedSrc
	for _, name := range slices.Sorted(maps.Keys(validCases)) {
		srcs = append(srcs, namedSrc{name, validCases[name]})
	}
	for i, src := range brokenSnippets {
		srcs = append(srcs, namedSrc{fmt.Sprint("broken_", i), src})
	}
	for _, ns := range srcs {
		src := ns.src
		t.Run(ns.name, func(t *testing.T) {
			doc := decode(t, src)
			fast, full := validate(doc, false), validate(doc, true)
			for _, vs := range [][]Violation{fast, full} {
				for i := range vs {
					vs[i].Keyword = ""
				}
			}
			assert.Equal(t, full, fast)
		})
	}
}

// TestQuickAcceptIsSound checks that the quick pass never accepts what the
// validator rejects, and accepts the valid documents.
func TestQuickAcceptIsSound(t *testing.T) {
	c, err := load()
	require.NoError(t, err)
	for name, src := range validCases {
		assert.True(t, quickAccept(c.fast, decode(t, src)), name)
	}
	for i, src := range brokenSnippets {
		doc := decode(t, src)
		if quickAccept(c.fast, doc) {
			assert.NoError(t, c.fast.Validate(doc), "snippet %d", i)
		}
		root, _ := doc.(map[string]any)
		flows, _ := root["flows"].(map[string]any)
		for _, f := range flows {
			fm, _ := f.(map[string]any)
			steps, _ := fm["steps"].([]any)
			for _, st := range steps {
				for _, s := range c.steps {
					if quickAccept(s, st) {
						assert.NoError(t, s.Validate(st), "snippet %d", i)
					} else {
						assert.Error(t, s.Validate(st), "snippet %d", i)
					}
				}
			}
		}
	}
}

// brokenSnippets are the inputs of the table above plus a few more, used
// by the cross-checks.
var brokenSnippets = []string{
	"flws: {}\n",
	"- a\n",
	"version: [1]\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: say, mesage: hi}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: say, message: hi, slot: x}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, typ: say, message: hi}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: sya}\n      - {type: 3}\n      - say hi\n      - {}\n",
	"flows:\n  f:\n    steps: []\n  g: {}\n  h: {steps: [{step: a, type: collect, message: 1, max_attempts: 0}]}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: set, slots: {x: [1], y: {exp: 1}, z: {expr: 2}}}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: branch, cases: {a: 1}, evaluate: [x]}\n      - {step: b, type: confirm, on_deny: 1}\n",
	"flows:\n  f:\n    steps:\n      - {step: c, type: while, do: [a, 7, {step: d, type: link}, {step: e, type: while, do: [{typ: say}]}]}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: action, map_outputs: {x: [y]}, on_eror: b}\n      - {step: b, type: call}\n",
	"settings: {max_steps_per_turn: 0, history_size: -1, idle_mesage: x, cancel_message: [a]}\n",
	"flows:\n  f:\n    steps:\n      - {step: a, type: set, slots: {}}\n      - {step: b, type: branch, slot: x, cases: {}}\n      - {step: c, type: set, slots: {x: {expr: 1, y: 2}, z: {a: {expr: 3}}}}\n",
	"slots:\n  s: {type: 3, values: {a: [x], b: 3}, min: low, typo: 1}\n  t: {values: [1]}\n",
	"actions:\n  a:\n    inputs: [x, {name: y, required: yes}, {nam: z}, 3]\n    run: {exec: [], http: {retry: {attempts: 0}}}\n",
}

func BenchmarkValidate(b *testing.B) {
	doc := decode(b, bigProject(1000, 20))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if vs := Validate(doc); len(vs) != 0 {
			b.Fatal(vs)
		}
	}
}

// TestBigProjectTakesTheQuickPath checks that a large valid project never
// reaches the (slow) library validator: the quick pass accepts it whole.
func TestBigProjectTakesTheQuickPath(t *testing.T) {
	c, err := load()
	require.NoError(t, err)
	doc := decode(t, bigProject(50, 20))
	require.True(t, quickAccept(c.fast, doc))
	assert.Empty(t, Validate(doc))
}

// bigProject generates a valid project of flows × steps steps.
func bigProject(flows, steps int) string {
	var sb strings.Builder
	sb.WriteString("flows:\n")
	for f := 0; f < flows; f++ {
		fmt.Fprintf(&sb, "  flow_%d:\n    trigger: {intents: [\"do %d\"]}\n    steps:\n", f, f)
		for s := 0; s < steps; s++ {
			switch s % 5 {
			case 0:
				fmt.Fprintf(&sb, "      - step: s%d\n        type: say\n        message: hello {x}\n", s)
			case 1:
				fmt.Fprintf(&sb, "      - step: s%d\n        type: collect\n        slot: x\n        message: what?\n        max_attempts: 3\n", s)
			case 2:
				fmt.Fprintf(&sb, "      - step: s%d\n        type: branch\n        slot: x\n        cases: {\">5\": s0, default: __end__}\n", s)
			case 3:
				fmt.Fprintf(&sb, "      - step: s%d\n        type: set\n        slots: {x: 1, y: {expr: \"x + 1\"}, z: null}\n", s)
			case 4:
				fmt.Fprintf(&sb, "      - step: s%d\n        type: while\n        condition: x < 3\n        do: [s0, {step: w%d, type: say, message: hi}]\n", s, s)
			}
		}
	}
	return sb.String()
}
