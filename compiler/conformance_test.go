package compiler

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// This file holds regression tests for places where soni disagreed with
// the language contract (shared spec, docs/language.md), found by
// reviewing the compiler against it.

// oneFlow is a minimal valid flow appended to the top-level keys under test.
const oneFlow = `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: a, type: say, message: hi}
`

func TestVersionValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version string
		want    []string
	}{
		{`"1.0"`, nil},
		{`'1.0'`, nil},
		{`1.0`, nil},
		{`1`, nil},
		{`1.00`, nil},
		{`"1"`, []string{`1:11 unsupported version "1": this soni supports version "1.0"`}},
		{`"1.0.0"`, []string{`1:11 unsupported version "1.0.0": this soni supports version "1.0"`}},
		{`2.0`, []string{`1:10 unsupported version "2.0": this soni supports version "1.0"`}},
		{`"v1.0"`, []string{`1:11 unsupported version "v1.0": this soni supports version "1.0"`}},
		// Not a scalar: the schema reports the wrong type (E012), and E010
		// does not add a confusing `unsupported version "null"`.
		{`[1.0]`, nil},
		{`{v: 1}`, nil},
		{`null`, nil},
	} {
		t.Run(tc.version, func(t *testing.T) {
			src := "version: " + tc.version + "\n" + oneFlow
			assert.Equal(t, tc.want, codeDiags(t, src, diag.CodeVersion))
		})
	}
}

func TestSlotValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		slots string
		code  string
		want  []string
	}{
		{"typed initial values that fit", `  pin: {type: text, initial: 1234}
  n: {type: integer, initial: "5"}
  x: {type: number, initial: 2.5, min: 1, max: 3}
  tier: {type: categorical, values: {premium: [gold]}, initial: gold}
  b: {type: boolean, initial: "true"}
  d: {type: date, initial: "2026-01-31"}
  code: {type: text, pattern: "[0-9]{4}", initial: "0042"}
  blob: {type: any, initial: {a: [1, 2]}}
  none: {type: integer, initial: null}
`, diag.CodeInvalidValue, nil},
		{"integer initial that is text", `  n: {type: integer, initial: "abc"}
`, diag.CodeInvalidValue, []string{`2:31 initial value "abc" does not fit integer slot "n": write a whole number such as 3`}},
		{"date initial that is not ISO", `  d: {type: date, initial: tomorrow}
`, diag.CodeInvalidValue, []string{`2:28 initial value "tomorrow" does not fit date slot "d": write an ISO date such as "2024-12-31"`}},
		{"categorical initial that is not declared", `  c: {type: categorical, values: [a, b], initial: z}
`, diag.CodeInvalidValue, []string{`2:51 initial value "z" does not fit categorical slot "c": write one of its values "a", "b"`}},
		{"boolean initial that is a list", `  b: {type: boolean, initial: [true]}
`, diag.CodeInvalidValue, []string{`2:31 initial value a list does not fit boolean slot "b": write a single boolean value`}},
		{"initial below min", `  x: {type: number, initial: 3, min: 5}
`, diag.CodeInvalidValue, []string{`2:30 initial value 3 of slot "x" can never be stored: 3 is below the minimum of 5; change the value or the slot's constraints`}},
		{"initial that breaks the pattern", `  code: {type: text, pattern: "[0-9]{4}", initial: "12"}
`, diag.CodeInvalidValue, []string{`2:52 initial value "12" of slot "code" can never be stored: "12" is not in the expected format; change the value or the slot's constraints`}},
		{"bad pattern is E038 only", `  code: {type: text, pattern: "(", initial: "12"}
`, diag.CodeInvalidValue, nil},
		{"min greater than max", `  n: {type: integer, min: 10, max: 1.5}
`, diag.CodeInvalidValue, []string{`2:3 slot "n" has min 10 greater than max 1.5, so no value can ever be stored: swap them or fix one`}},
		{"min equal to max is fine", `  n: {type: integer, min: 3, max: 3}
`, diag.CodeInvalidValue, nil},
		{"categorical without values", `  c: {type: categorical}
`, diag.CodeMissingField, []string{`2:3 categorical slot "c" has no "values", so no value can ever be stored: list its values, or use type text`}},
		{"categorical with empty values", `  c: {type: categorical, values: []}
`, diag.CodeInvalidValue, []string{`2:3 categorical slot "c" has no values, so no value can ever be stored: list its values`}},
		{"values make a slot categorical", `  c: {values: {a: [x]}}
`, diag.CodeMissingField, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "slots:\n" + tc.slots + oneFlow
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
}

func TestFlowSlotMinMax(t *testing.T) {
	t.Parallel()
	src := `flows:
  f:
    trigger: {intents: [go]}
    slots:
      - {name: n, type: integer, min: 5, max: 1}
    steps:
      - {step: a, type: collect, slot: n, message: "n?"}
`
	assert.Equal(t, []string{`5:16 slot "n" has min 5 greater than max 1, so no value can ever be stored: swap them or fix one`},
		codeDiags(t, src, diag.CodeInvalidValue))
}

func TestInitialValuesAreLoweredTyped(t *testing.T) {
	t.Parallel()
	src := `slots:
  pin: {type: text, initial: 1234}
  n: {type: integer, initial: "5"}
  tier: {type: categorical, values: {premium: [gold]}, initial: gold}
  b: {type: boolean, initial: "true"}
  blob: {type: any, initial: " kept "}
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: a, type: say, message: "{pin} {n} {tier} {b} {blob}"}
`
	r := CompileSource("t.yaml", []byte(src), Options{})
	if !assert.False(t, r.Diags.HasErrors(), "%v", r.Diags) {
		return
	}
	got := map[string]any{}
	for _, s := range r.Program.Slots {
		got[s.Name] = s.Initial
	}
	assert.Equal(t, map[string]any{"pin": "1234", "n": int64(5), "tier": "premium", "b": true, "blob": " kept "}, got)
}

func TestNullInitialIsUnset(t *testing.T) {
	t.Parallel()
	src := `slots:
  x: {type: text, initial: null}
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: a, type: say, message: "{x}"}
`
	assert.Equal(t, []string{`7:41 slot "x" may be unset here: no step sets it on every path to step "a" (collect or set it on every path before this step, or give it an "initial" value)`},
		codeDiags(t, src, diag.CodeMaybeUnset))
}

func TestMessageSettingsAreTemplates(t *testing.T) {
	t.Parallel()
	const flows = `flows:
  f:
    trigger: {intents: [go]}
    slots: [{name: account, type: text}]
    steps:
      - {step: a, type: collect, slot: account, message: "Which account?"}
      - {step: b, type: action, call: pay}
`
	for _, tc := range []struct {
		name     string
		settings string
		code     string
		want     []string
	}{
		{"malformed action_error_message", `  action_error_message: "Could not {action"
`, diag.CodeTemplate, []string{`2:36 unclosed '{' in template: write '{{' for a literal brace`}},
		{"malformed cancel_message", `  cancel_message: "Cancelled }"
`, diag.CodeTemplate, []string{`2:30 unmatched '}' in template: write '}}' for a literal brace`}},
		{"unknown slot in idle_message", `  idle_message: "Hi {nmae}"
`, diag.CodeUnknownSlot, []string{`2:22 unknown slot "nmae" in template: declare it in the top-level slots, or fix its name (did you mean "name"?)`}},
		{"action, flow slots and conversation slots are known", `  action_error_message: "Could not {action} for {account}, {name}. {{sorry}}"
  fallback_message: "Sorry {name}?"
`, diag.CodeUnknownSlot, nil},
		{"action is only known in action_error_message", `  cancel_message: "Cancelled {action}"
`, diag.CodeUnknownSlot, []string{`2:31 unknown slot "action" in template: declare it in the top-level slots, or fix its name`}},
		{"slots read by a setting are used", `  action_error_message: "Could not {action} for {account}, {name}."
`, diag.CodeUnusedSlot, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "settings:\n" + tc.settings + "slots:\n  name: {type: text}\n" + flows
			// The slot name is read by no step: only a setting uses it.
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
}

func TestBranchNeedsExactlyOneOfSlotAndEvaluate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		step string
		code string
		want []string
	}{
		{"slot", `{step: s, type: branch, slot: x, cases: {"1": __end__}}`, diag.CodeMissingField, nil},
		{"evaluate", `{step: s, type: branch, evaluate: "x == '1'", cases: {"true": __end__}}`, diag.CodeMissingField, nil},
		{"neither", `{step: s, type: branch, cases: {default: __end__}}`, diag.CodeMissingField,
			[]string{`7:7 missing required field "slot" or "evaluate" in branch step: give the slot whose value the cases test, or an expression`}},
		{"both", `{step: s, type: branch, slot: x, evaluate: "x == '1'", cases: {"true": __end__}}`, diag.CodeInvalidValue,
			[]string{`7:42 branch step has both "slot" and "evaluate": keep exactly one`}},
		{"both in an inline while body", `{step: w, type: while, condition: "x == '2'", do: [{step: s, type: branch, slot: x, evaluate: "true", cases: {"1": __end__}}]}`, diag.CodeInvalidValue,
			[]string{`7:93 branch step has both "slot" and "evaluate": keep exactly one`}},
		{"empty cases", `{step: s, type: branch, slot: x, cases: {}}`, diag.CodeInvalidValue,
			[]string{`7:49 "cases" must not be empty`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    slots: [{name: x, type: text}]
    steps:
      - {step: ask, type: collect, slot: x, message: "x?"}
      - ` + tc.step + "\n"
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
}

func TestSetLiterals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		value string
		code  string
		want  []string
	}{
		{"list literal", `[1, two]`, diag.CodeWrongType, nil},
		{"mapping literal", `{name: Bob, city: {zip: "1000"}}`, diag.CodeUnknownKey, nil},
		{"one-key mapping literal", `{ext: pdf}`, diag.CodeUnknownKey, nil},
		{"misspelt expr", `{exp: "n + 1"}`, diag.CodeUnknownKey,
			[]string{`7:21 unknown key "exp" in an {expr: ...} value (did you mean "expr"?)`}},
		{"expr with a capital", `{Expr: "n + 1"}`, diag.CodeUnknownKey,
			[]string{`7:21 unknown key "Expr" in an {expr: ...} value (did you mean "expr"?)`}},
		{"expr with another key", `{expr: "n + 1", extra: 1}`, diag.CodeUnknownKey,
			[]string{`7:36 unknown key "extra" in an {expr: ...} value (did you mean "expr"?)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - step: s
        type: set
        slots: {v: ` + tc.value + `}
      - {step: t, type: say, message: "{v}"}
`
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
	// A misspelt expr on a typed slot is the unknown key, not also E035.
	src := `slots:
  n: {type: integer}
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: s, type: set, slots: {n: {exp: "1 + 1"}}}
      - {step: t, type: say, message: "{n}"}
`
	assert.Empty(t, codeDiags(t, src, diag.CodeSetType))
}

// TestWhileEnteredOnce: the idiom of docs/language.md §6.6 (set the slot
// the condition reads, then loop) runs the body at least once, so what the
// body collects is set after the loop; reading it there is no W003.
func TestWhileEnteredOnce(t *testing.T) {
	t.Parallel()
	const loop = `      - step: loop
        type: while
        condition: %s
        do:
          - {step: ask_item, type: collect, slot: item, message: "Item?", force: true}
          - {step: ask_more, type: collect, slot: another, message: "Another?", force: true}
      - {step: bye, type: say, message: "Last item: {item}"}
`
	for _, tc := range []struct {
		name   string
		before string
		cond   string
		want   []string
	}{
		{"set true before the loop", `      - {step: start, type: set, slots: {another: true}}
`, `"another == true"`, nil},
		{"capital AND and a counter", `      - {step: start, type: set, slots: {another: "true", n: 0}}
`, `"another AND n < 3"`, nil},
		{"set false before the loop", `      - {step: start, type: set, slots: {another: false}}
`, `"another == true"`, []string{"item"}},
		{"collected before the loop", `      - {step: start, type: collect, slot: another, message: "Start?"}
`, `"another == true"`, []string{"item"}},
		{"conditional set", `      - {step: start, type: set, condition: "n == nil", slots: {another: true}}
`, `"another == true"`, []string{"another", "item"}}, // "n == nil" only tests n
		{"the condition reads a slot the set leaves alone", `      - {step: start, type: set, slots: {another: true}}
`, `"another == true && n < 3"`, []string{"item", "n"}},
		{"a second way into the loop", `      - {step: ask_n, type: collect, slot: n, message: "n?"}
      - {step: pick, type: branch, slot: n, cases: {">5": loop}}
      - {step: start, type: set, slots: {another: true}}
`, `"another == true"`, []string{"another", "item"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    slots:
      - {name: another, type: boolean}
      - {name: item, type: text}
      - {name: n, type: integer}
    steps:
` + tc.before + fmt.Sprintf(loop, tc.cond)
			var got []string
			r := CompileSource("t.yaml", []byte(src), Options{})
			for _, d := range r.Diags {
				if d.Code == diag.CodeMaybeUnset {
					got = append(got, d.Message[len(`slot "`):strings.Index(d.Message, `" may`)])
				} else if d.Severity == diag.Error {
					t.Fatalf("unexpected error: %s", d.String())
				}
			}
			sort.Strings(got)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestNestedWhilesEnteredOnce(t *testing.T) {
	t.Parallel()
	src := `flows:
  f:
    trigger: {intents: [go]}
    slots:
      - {name: more, type: boolean}
      - {name: again, type: boolean}
      - {name: item, type: text}
      - {name: detail, type: text}
    steps:
      - {step: init, type: set, slots: {more: true}}
      - step: outer
        type: while
        condition: "more"
        do:
          - {step: ask_item, type: collect, slot: item, message: "Item?", force: true}
          - {step: init_inner, type: set, slots: {again: true}}
          - step: inner
            type: while
            condition: "again == true"
            do:
              - {step: ask_detail, type: collect, slot: detail, message: "Detail of {item}?", force: true}
              - {step: ask_again, type: collect, slot: again, message: "Again?", force: true}
          - {step: ask_more, type: collect, slot: more, message: "More? Last detail {detail}", force: true}
      - {step: done, type: say, message: "Done with {item} ({detail})"}
`
	assert.Empty(t, codeDiags(t, src, diag.CodeMaybeUnset))
}

func TestEndTargetSuggestion(t *testing.T) {
	t.Parallel()
	for _, target := range []string{"END", "end", "__END__", "_end"} {
		t.Run(target, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: d, type: say, message: hi, jump_to: ` + target + `}
`
			want := fmt.Sprintf(`5:52 unknown jump target %q in jump_to: flow "f" has no step with this id (use one of its step ids, or "__end__" to end the flow) (did you mean "__end__"?)`, target)
			assert.Equal(t, []string{want}, codeDiags(t, src, diag.CodeUnknownTarget))
		})
	}
}

func TestTriggerPhrases(t *testing.T) {
	t.Parallel()
	a := `flows:
  f:
    trigger: {intents: ["Send money!"]}
    steps:
      - {step: a, type: say, message: hi}
`
	b := `flows:
  f:
    trigger: {intents: ["send money"]}
    steps:
      - {step: a, type: say, message: hi}
  g:
    trigger: {intents: ["SEND MONEY", "", "?!"]}
    steps:
      - {step: a, type: say, message: hi}
`
	two := []input{{name: "a.yaml", src: []byte(a)}, {name: "b.yaml", src: []byte(b)}}
	// f twice is E020 only; g shares the phrase with the first f.
	assert.Equal(t, []string{
		`b.yaml:7:26 trigger phrase "SEND MONEY" of flow "g" is already a trigger of flow "f" at a.yaml:3:26: keep each phrase in one flow only`,
	}, inputsDiags(t, two, diag.CodeDuplicateTrigger))
	assert.Equal(t, []string{
		`b.yaml:7:40 trigger phrase "" of flow "g" has no words, so no message can match it: write an example of what users say, or remove it`,
		`b.yaml:7:44 trigger phrase "?!" of flow "g" has no words, so no message can match it: write an example of what users say, or remove it`,
	}, inputsDiags(t, two, diag.CodeInvalidValue))
}

func TestExpressionHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		eval string
		code string
		want []string
	}{
		{"= for ==", `x = 'a'`, diag.CodeExpression,
			[]string{`10:22 invalid evaluate expression: unexpected token Operator("=") (compare with "==", not "=")`}},
		{"template braces", `{ok} == true`, diag.CodeExpression,
			[]string{`10:23 invalid evaluate expression: unexpected token Bracket("}") (in an expression a slot is a variable: write ok, not {ok})`}},
		// The Python framework's literals are read as they were meant
		// (language.md §14): True, False, None, none, null, is, is not.
		{"Python True and None", `ok == True and x != None`, diag.CodeUnknownSlot, nil},
		{"Python null and is not", `x is not null and x != none`, diag.CodeExpression, nil},
		{"a map literal is fine", `{"a": 1}.a == 1 and ok`, diag.CodeExpression, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    slots: [{name: ok, type: boolean}, {name: x, type: text}]
    steps:
      - {step: a, type: collect, slot: ok, message: "ok?"}
      - {step: b, type: collect, slot: x, message: "x?"}
      - step: c
        type: branch
        evaluate: "` + tc.eval + `"
        cases: {"true": __end__}
`
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
}

// locate returns the 1-based line and rune column of the n-th (1-based)
// occurrence of needle in src.
func locate(t *testing.T, src, needle string, n int) (int, int) {
	t.Helper()
	off := -1
	for i := 0; i < n; i++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q not found %d times", needle, n)
		}
		off += 1 + j
	}
	before := src[:off]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndexByte(before, '\n')+1:])) + 1
	return line, col
}

// TestPositionsInsideEscapedAndFoldedScalars: a diagnostic inside a
// template or expression points at the name in the file also when the
// value's characters do not sit one for one in the file: escapes in
// double-quoted strings, ” in single-quoted ones, folded blocks, plain
// and quoted scalars continued on the next line.
func TestPositionsInsideEscapedAndFoldedScalars(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		value  string // the message, as written after "message:"
		needle string // where the unknown slot is written
		nth    int
	}{
		{"escape before", `"Hello\tthere\n{nme}"`, "nme", 1},
		{"unicode escape before", `"Caf\u00e9 {nme}"`, "nme", 1},
		{"escaped quote before", `"Say \"hi\" to {nme}"`, "nme", 1},
		{"doubled quote before", `'It''s {nme}'`, "nme", 1},
		{"second line of a double-quoted string", "\"first line\n          second {nme}\"", "nme", 1},
		{"plain scalar on two lines", "first line\n          second {nme}", "nme", 1},
		{"folded block", ">\n          Your balance\n          is {nme}.\n", "nme", 1},
		{"folded block with a paragraph", ">-\n          One.\n\n          Two {nme}.\n", "nme", 1},
		{"literal block with an indentation indicator", "|2\n            Indented {nme}", "nme", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - step: a
        type: say
        message: ` + tc.value + "\n"
			got := codeDiags(t, src, diag.CodeUnknownSlot)
			if !assert.Len(t, got, 1) {
				return
			}
			line, col := locate(t, src, tc.needle, tc.nth)
			assert.True(t, strings.HasPrefix(got[0], fmt.Sprintf("%d:%d ", line, col)), "want %d:%d, got %s", line, col, got[0])
		})
	}
	t.Run("expression on the second line of a folded block", func(t *testing.T) {
		src := `flows:
  f:
    trigger: {intents: [go]}
    slots: [{name: n, type: integer}]
    steps:
      - {step: a, type: collect, slot: n, message: "n?"}
      - step: b
        type: branch
        evaluate: >
          n > 1 and
          n < "ten"
        cases: {"true": __end__}
`
		got := codeDiags(t, src, diag.CodeExpression)
		require.Len(t, got, 1)
		line, col := locate(t, src, `< "ten"`, 1)
		assert.True(t, strings.HasPrefix(got[0], fmt.Sprintf("%d:%d ", line, col)), "want %d:%d, got %s", line, col, got[0])
	})
}

func TestPositionsInLiteralBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, value string }{
		{"blank first line", "|\n\n          Second {nme}"},
		{"indentation indicator", "|2\n            Indented {nme}"},
		{"more indented second line", "|\n          One\n            Two {nme}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - step: a
        type: say
        message: ` + tc.value + "\n"
			got := codeDiags(t, src, diag.CodeUnknownSlot)
			require.Len(t, got, 1)
			line, col := locate(t, src, "nme", 1)
			assert.True(t, strings.HasPrefix(got[0], fmt.Sprintf("%d:%d ", line, col)), "want %d:%d, got %s", line, col, got[0])
		})
	}
}

func TestUnquotedTemplateHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		message string
		code    string
		want    []string
	}{
		{"template that is a YAML mapping", `{name}`, diag.CodeWrongType,
			[]string{`7:19 expected a string for "message", got a mapping (a value that starts with '{' is a YAML mapping: put the template in quotes, as in "{name}")`}},
		{"template that starts with a brace", `{name} is here`, diag.CodeYAMLSyntax,
			[]string{`7:25 invalid YAML: value is not allowed in this context (a value that starts with '{' is a YAML mapping: put the whole template in quotes, as in "{name} is here")`}},
		{"colon inside a plain value", `Note: this is it`, diag.CodeYAMLSyntax,
			[]string{`7:18 invalid YAML: mapping value is not allowed in this context (a value that holds ": " must be quoted, as in "Note: this is it")`}},
		{"text after the closing quote", `"{name}" is here`, diag.CodeYAMLSyntax,
			[]string{`7:27 invalid YAML: value is not allowed in this context. map key-value is pre-defined (text follows the closing quote: put the whole value in quotes)`}},
		{"no closing double quote", `"Hello {name}`, diag.CodeYAMLSyntax,
			[]string{`7:18 invalid YAML: could not find end character of double-quoted text (the quote that opens the value is never closed: end the value with " and write \" for a quote inside it)`}},
		{"no closing single quote", `'It''s {name}`, diag.CodeYAMLSyntax,
			[]string{`7:18 invalid YAML: could not find end character of single-quoted text (the quote that opens the value is never closed: end the value with ' and write '' for a quote inside it)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `flows:
  f:
    trigger: {intents: [go]}
    steps:
      - step: a
        type: say
        message: ` + tc.message + "\n"
			assert.Equal(t, tc.want, codeDiags(t, src, tc.code))
		})
	}
	t.Run("inside a flow mapping", func(t *testing.T) {
		src := "flows:\n  f:\n    trigger: {intents: [go]}\n    steps:\n      - {step: a, type: say, message: {name}}\n"
		assert.Equal(t, []string{`5:40 expected a string for "message", got a mapping (a value that starts with '{' is a YAML mapping: put the template in quotes, as in "{name}")`},
			codeDiags(t, src, diag.CodeWrongType))
	})
}

func TestLoopWithSkippedCollectSaysHowToFix(t *testing.T) {
	t.Parallel()
	src := `slots:
  choice: {type: categorical, values: [balance, quit]}
flows:
  menu:
    trigger: {intents: [menu]}
    steps:
      - {step: ask, type: collect, slot: choice, message: "balance or quit?"}
      - {step: route, type: branch, slot: choice, cases: {quit: bye, balance: show}}
      - {step: show, type: say, message: "Your balance is 5.", jump_to: ask}
      - {step: bye, type: say, message: "Bye"}
`
	assert.Equal(t, []string{`7:7 steps "ask", "route", "show" of flow "menu" form a loop that never waits for the user, so a turn may loop forever: add a collect or confirm to the loop, or make a condition in it depend on a slot the loop changes (collect "ask" asks only while "choice" is unset: give it force: true, or clear the slot with a set of choice: null in the loop)`},
		codeDiags(t, src, diag.CodeInputlessLoop))
}
