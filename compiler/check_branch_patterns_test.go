package compiler

import (
	"fmt"
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBranchPatterns(t *testing.T) {
	t.Parallel()
	const slots = `slots:
  t: {type: text}
  i: {type: integer}
  n: {type: number}
  b: {type: boolean}
  c: {type: categorical, values: {gold: [premium], silver: []}}
  open: {type: categorical}
  d: {type: date}
  a: {type: any}
  odd: {type: city}
`
	for _, tc := range []struct {
		on      string // a slot name, or "evaluate"
		pattern string
		why     string // "" when the pattern may match
		sugg    string
	}{
		{"t", ">5", `slot "t" is text and ">" compares numbers`, ""},
		{"c", "<=1", `slot "c" is categorical and "<=" compares numbers`, ""},
		{"b", ">=0", `slot "b" is boolean and ">=" compares numbers`, ""},
		{"d", "<2024", `slot "d" is date and "<" compares numbers`, ""},
		{"odd", ">1", `slot "odd" is text and ">" compares numbers`, ""},
		{"i", ">five", `"five" after ">" is not a number`, ""},
		{"i", "> 5", "", ""},
		{"n", "<=-1.5", "", ""},
		{"t", "true", `slot "t" is text, not boolean`, ""},
		{"d", "false", `slot "d" holds dates written YYYY-MM-DD`, ""},
		{"i", "true", `slot "i" is integer and "true" is not a number`, ""},
		{"b", "true", "", ""},
		{"b", "==false", "", ""},
		{"b", "yes", `slot "b" is boolean, so only "true" and "false" can match`, "true"},
		{"b", "off", `slot "b" is boolean, so only "true" and "false" can match`, "false"},
		{"b", "maybe", `slot "b" is boolean, so only "true" and "false" can match`, ""},
		{"c", "gold", "", ""},
		{"c", "==silver", "", ""},
		{"c", "bronze", `"bronze" is not a value of categorical slot "c" (values: "gold", "silver")`, ""},
		{"c", "Gold", `"Gold" is not a value of categorical slot "c" (values: "gold", "silver")`, "gold"},
		{"c", "==silvr", `"silvr" is not a value of categorical slot "c" (values: "gold", "silver")`, "silver"},
		{"c", "premium", `"premium" is a synonym of "gold" and slot "c" holds the canonical value`, "gold"},
		{"c", "!=bronze", "", ""},
		{"open", "anything", "", ""},
		{"i", "12", "", ""},
		{"n", "==1e3", "", ""},
		{"n", "lots", `slot "n" is number and "lots" is not a number`, ""},
		{"d", "2024-02-29", "", ""},
		{"d", "tomorrow", `slot "d" holds dates written YYYY-MM-DD`, ""},
		{"t", "hello", "", ""},
		{"a", ">5", "", ""},
		{"a", "true", "", ""},
		{"t", "default", "", ""},
		{"evaluate", "true", "", ""},
		{"evaluate", "==false", "", ""},
		{"evaluate", "!=maybe", "", ""},
		{"evaluate", "yes", `evaluate gives a boolean, so only "true", "false" and "default" can match`, "true"},
		{"evaluate", "No", `evaluate gives a boolean, so only "true", "false" and "default" can match`, "false"},
		{"evaluate", ">1", `evaluate gives a boolean, so only "true", "false" and "default" can match`, ""},
	} {
		t.Run(tc.on+" "+tc.pattern, func(t *testing.T) {
			test := "slot: " + tc.on
			if tc.on == "evaluate" {
				test = `evaluate: "i > 1"`
			}
			src := slots + fmt.Sprintf(`flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: s
        type: branch
        %s
        cases:
          '%s': __end__
`, test, tc.pattern)
			var want []string
			if tc.why != "" {
				w := fmt.Sprintf(`20:12 case %q of step "s" of flow "f" can never match: %s`, tc.pattern, tc.why)
				if tc.sugg != "" {
					w += ` (did you mean "` + tc.sugg + `"?)`
				}
				want = append(want, w)
			}
			assert.Equal(t, want, warnDiags(t, src, diag.CodeNeverMatches))
		})
	}
}

func TestBranchPatternsSkipUnknownSlots(t *testing.T) {
	t.Parallel()
	src := `flows:
  f:
    trigger:
      intents: [go]
    steps:
      - step: s
        type: branch
        slot: nowhere
        cases:
          ">1": __end__
`
	assert.Empty(t, warnDiags(t, src, diag.CodeNeverMatches))
}

// TestBooleanCaseKeys: an unquoted True: or FALSE: is a YAML boolean and
// means the pattern true or false, as it did for the Python framework; a
// quoted "True" is text, which a boolean never prints as.
func TestBooleanCaseKeys(t *testing.T) {
	t.Parallel()
	src := `slots:
  b: {type: boolean}
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: ask, type: collect, slot: b, message: "b?"}
      - step: s
        type: branch
        slot: b
        cases:
          True: yes_step
          FALSE: __end__
      - step: quoted
        type: branch
        slot: b
        cases:
          "True": yes_step
      - {step: yes_step, type: say, message: "yes"}
`
	assert.Equal(t, []string{`18:12 case "True" of step "quoted" of flow "f" can never match: slot "b" is boolean, so only "true" and "false" can match (did you mean "true"?)`},
		warnDiags(t, src, diag.CodeNeverMatches))
	r := CompileSource("t.yaml", []byte(src), Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	var patterns []string
	for _, c := range r.Program.Flows[0].Nodes[1].Cases {
		patterns = append(patterns, c.Pattern)
	}
	assert.Equal(t, []string{"true", "false"}, patterns)
}
