package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/values"
)

// TestAskedDateLayout: a question's dd/mm/yyyy-like layout gives the Go
// layout and the order of an all-numeric date; anything else is none.
func TestAskedDateLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		prompt string
		layout string
		order  values.DateOrder
		ok     bool
	}{
		{"What was the date? Please use mm/dd/yyyy format.", "01/02/2006", values.DateMDY, true},
		{"Date of birth (DD.MM.YYYY)?", "02.01.2006", values.DateDMY, true},
		{"Which day? yyyy-mm-dd", "2006-01-02", values.DateMDY, true},
		{"Which day?", "", values.DateAsk, false},
		{"mm/mm/yyyy", "", values.DateAsk, false},
		{"dd/mm-yyyy", "", values.DateAsk, false},
	} {
		l, ok := askedDateLayout(tc.prompt)
		assert.Equal(t, tc.ok, ok, tc.prompt)
		assert.Equal(t, tc.layout, l.layout, tc.prompt)
		assert.Equal(t, tc.order, l.order, tc.prompt)
	}
}

// TestDateInTheAskedLayout: a text slot read as a date whose question
// names a layout reads an all-numeric answer in that layout's order and
// stores the date in it, an answer, a date in words and a correction
// alike, at a later question too; a question that names none stores the ISO date. An answer
// written in the layout is sure (widen.go).
func TestDateInTheAskedLayout(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("claim.yaml", []byte(`version: "1.0"
flows:
  report_damage:
    description: report damage
    trigger: {intents: ["report damage"]}
    slots: [{name: incident_date, type: text}, {name: incident_place, type: text}, {name: visit_date, type: text}]
    steps:
      - {step: when, type: collect, slot: incident_date, message: "What was the date of the incident? Please use mm/dd/yyyy format."}
      - {step: where, type: collect, slot: incident_place, message: "Where did it happen?"}
      - {step: visit, type: collect, slot: visit_date, message: "Which day should we visit?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"month first, read both ways", []string{"report damage"}, "03/02/2027", "set_slot incident_date=03/02/2027", true},
		{"month first, one way", []string{"report damage"}, "02/27/2027", "set_slot incident_date=02/27/2027", true},
		{"in words", []string{"report damage"}, "5 March 2027", "set_slot incident_date=03/05/2027", true},
		{"a correction", []string{"report damage"}, "sorry, the date was 03/03/2027", "set_slot incident_date=03/03/2027", true},
		{"no layout asked", []string{"report damage", "02/27/2027", "the garage"}, "5 March 2027", "set_slot visit_date=2027-03-05", true},
		{"a correction at a later question", []string{"report damage", "03/02/2027"}, "sorry, the incident date was 03/03/2027", "correct_slot incident_date=03/03/2027", false},
		{"a correction in words at a later question", []string{"report damage", "03/02/2027"}, "sorry, the incident date was March 4 2027", "correct_slot incident_date=03/04/2027", false},
	})
}
