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
	const known = "text, integer, number, boolean, categorical, date, any"
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
		`3:19 unknown type "interger" of slot "counter": the slot is treated as text; use one of ` + known + ` (did you mean "integer"?)`,
		`6:18 unknown type "" of slot "blank": the slot is treated as text; use one of ` + known,
		`13:15 unknown type "Money" of slot "local": the slot is treated as text; use one of ` + known,
	}, warnDiags(t, src, diag.CodeUnknownSlotType))

	r := CompileSource("t.yaml", []byte(src), Options{})
	require.NotNil(t, r.Program, "an unknown type is only a warning")
	types := map[string]ir.SlotType{}
	for _, s := range r.Program.Slots {
		types[s.Name] = s.Type
	}
	assert.Equal(t, ir.TypeText, types["origin"])
	assert.Equal(t, ir.TypeInteger, types["fine"])
	assert.Equal(t, ir.TypeBoolean, types["alias"])
}

func TestUnknownSlotTypeHints(t *testing.T) {
	for _, tc := range []struct{ typ, hint string }{
		{"list", `did you mean "any"?`},
		{"Dict", `did you mean "any"?`},
		{"double", `did you mean "number"?`},
		{"datetime", `did you mean "date"?`},
		{"enum", `did you mean "categorical"?`},
		{"phone_number", ""},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			src := "slots:\n  x: {type: " + tc.typ + "}\n" + oneFlow
			got := codeDiags(t, src, diag.CodeUnknownSlotType)
			require.Len(t, got, 1)
			if tc.hint == "" {
				assert.NotContains(t, got[0], "did you mean")
			} else {
				assert.True(t, strings.HasSuffix(got[0], "("+tc.hint+")"), got[0])
			}
		})
	}
}
