package compiler

import (
	"strings"
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnknownSlotTypes(t *testing.T) {
	t.Parallel()
	const known = "text, integer, number, boolean, categorical, date, list, any"
	src := `slots:
  origin: {type: city}
  counter: {type: interger}
  fine: {type: Integer}
  alias: {type: bool}
  blank: {type: ""}
flows:
  f:
    trigger:
      intents: [go]
    slots:
      - name: local
        type: Money
      - name: ok
        type: float
    steps:
      - step: a
        type: say
        message: "{origin} {counter} {fine} {alias} {blank} {local} {ok}"
`
	assert.Equal(t, []string{
		`2:18 unknown type "city" of slot "origin": the slot is treated as text; use one of ` + known,
		`6:18 unknown type "" of slot "blank": the slot is treated as text; use one of ` + known,
		`13:15 unknown type "Money" of slot "local": the slot is treated as text; use one of ` + known,
	}, warnDiags(t, src, diag.CodeUnknownSlotType))

	assert.Equal(t, []string{
		`3:19 unknown type "interger" of slot "counter": use one of ` + known + ` (did you mean "integer"?)`,
	}, codeDiags(t, src, diag.CodeMisspeltSlotType))

	src = strings.Replace(src, "  counter: {type: interger}\n", "", 1)
	src = strings.Replace(src, "{counter} ", "", 1)
	r := CompileSource("t.yaml", []byte(src), Options{})
	require.NotNil(t, r.Program, "an unknown type far from every known one is only a warning")
	types := map[string]ir.SlotType{}
	for _, s := range r.Program.Slots {
		types[s.Name] = s.Type
	}
	assert.Equal(t, ir.TypeText, types["origin"])
	assert.Equal(t, ir.TypeInteger, types["fine"])
	assert.Equal(t, ir.TypeBoolean, types["alias"])
}

// TestUnknownSlotTypeHints: a type close to a known one, or with a known
// equivalent, is an error with the suggestion (E040), and so is an unknown
// type with min or max, which treating the slot as text would drop. A
// free-form hint with nothing to lose stays a warning (W010).
func TestUnknownSlotTypeHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ typ, extra, code, hint string }{
		{"numbr", "", diag.CodeMisspeltSlotType, `did you mean "number"?`},
		{"numbr", ", min: 1, max: 5", diag.CodeMisspeltSlotType, `did you mean "number"?`},
		{"Integr", "", diag.CodeMisspeltSlotType, `did you mean "integer"?`},
		{"array", "", diag.CodeMisspeltSlotType, `did you mean "list"?`},
		{"Dict", "", diag.CodeMisspeltSlotType, `did you mean "any"?`},
		{"double", "", diag.CodeMisspeltSlotType, `did you mean "number"?`},
		{"datetime", "", diag.CodeMisspeltSlotType, `did you mean "date"?`},
		{"enum", "", diag.CodeMisspeltSlotType, `did you mean "categorical"?`},
		{"nubmer", "", diag.CodeMisspeltSlotType, `did you mean "number"?`},
		{"city", ", min: 18", diag.CodeMisspeltSlotType, ""},
		{"name", "", diag.CodeUnknownSlotType, `did you mean "date"?`},
		{"phone_number", "", diag.CodeUnknownSlotType, ""},
	} {
		t.Run(tc.typ+tc.extra, func(t *testing.T) {
			src := "slots:\n  x: {type: " + tc.typ + tc.extra + "}\n" + oneFlow
			got := codeDiags(t, src, tc.code)
			require.Len(t, got, 1)
			other := diag.CodeUnknownSlotType
			if tc.code == other {
				other = diag.CodeMisspeltSlotType
			}
			assert.Empty(t, codeDiags(t, src, other))
			if tc.hint == "" {
				assert.NotContains(t, got[0], "did you mean")
			} else {
				assert.True(t, strings.HasSuffix(got[0], "("+tc.hint+")"), got[0])
			}
			if tc.code == diag.CodeMisspeltSlotType {
				assert.Nil(t, CompileSource("t.yaml", []byte(src), Options{}).Program, "an error stops the project")
			}
		})
	}
}
