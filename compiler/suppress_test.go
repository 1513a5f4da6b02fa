package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/stretchr/testify/assert"
)

func TestSuppressComments(t *testing.T) {
	t.Parallel()
	src := `version: "1.0"
slots:
  a: {type: city}   # soni:ignore W010
  b: {type: town}   # soni:ignore W004
  c: {type: text}   # soni:ignore W004, W010
flows:
  f:
    trigger: {intents: [go]}
    steps:
      - {step: s, type: say, message: "{a} {b}"}
      - {step: t, type: action, call: nowhere}  # soni:ignore W006
      - {step: u, type: say, message: "{nope}"} # soni:ignore E032
`
	r := CompileSource("t.yaml", []byte(src), Options{})
	var got []string
	for _, d := range r.Diags {
		got = append(got, d.Code+" "+d.Pos.String())
	}
	assert.Equal(t, []string{
		diag.CodeUnknownSlotType + " t.yaml:4:13",
		diag.CodeMaybeUnset + " t.yaml:10:41",
		diag.CodeMaybeUnset + " t.yaml:10:45",
		diag.CodeUnknownSlot + " t.yaml:12:41",
	}, got, "only the named warnings on their own line are silenced; errors never are")
}
