package compiler

import (
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValueLabels: a categorical value maps to its synonyms, or to its
// label and synonyms; a misspelt or empty label is an error.
func TestValueLabels(t *testing.T) {
	t.Parallel()
	src := `slots:
  cabin:
    type: categorical
    values:
      economy: [coach]
      premium_economy: {label: "premium economy", synonyms: [premium]}
      business: {label: "business class"}
      first:
` + oneFlow
	r := CompileSource("t.yaml", []byte(src), Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	var cabin *ir.Slot
	for _, s := range r.Program.Slots {
		if s.Name == "cabin" {
			cabin = s
		}
	}
	require.NotNil(t, cabin)
	assert.Equal(t, []ir.Value{
		{Value: "economy", Synonyms: []string{"coach"}},
		{Value: "premium_economy", Label: "premium economy", Synonyms: []string{"premium"}},
		{Value: "business", Label: "business class"},
		{Value: "first"},
	}, cabin.Values)
	assert.Equal(t, "premium economy", cabin.Shown("premium_economy"))
	assert.Equal(t, "economy", cabin.Shown("economy"))

	bad := `slots:
  cabin:
    type: categorical
    values:
      a: {lable: "A a"}
      b: {label: ""}
` + oneFlow
	assert.Equal(t, []string{`5:11 unknown key "lable" (did you mean "label"?)`}, codeDiags(t, bad, diag.CodeUnknownKey))
	assert.Equal(t, []string{`6:18 "label": length must be >= 1, but got 0`}, codeDiags(t, bad, diag.CodeInvalidValue))
}
