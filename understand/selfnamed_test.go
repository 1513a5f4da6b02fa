package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// TestSelfNamedAnswers: at a free-text question, an answer that names
// the slot (or the last word of its name) before its value keeps only
// the value, and a hedge after a
// value is no part of it; a sentence that does not name the slot stays
// the answer.
func TestSelfNamedAnswers(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("parcel.yaml", []byte(`version: "1.0"
flows:
  track_parcel:
    description: track a parcel
    trigger: {intents: ["track my parcel"]}
    slots: [{name: tracking_code, type: text}]
    steps:
      - {step: ask, type: collect, slot: tracking_code, message: "What is the tracking code?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"the slot named", []string{"track my parcel"}, "my tracking code is ZX-4471", "set_slot tracking_code=ZX-4471", true},
		{"the slot named with the", []string{"track my parcel"}, "the tracking code is 88120", "set_slot tracking_code=88120", true},
		{"a hedge after the value", []string{"track my parcel"}, "it's 90311 I think", "set_slot tracking_code=90311", false},
		{"no name, no lead-in", []string{"track my parcel"}, "somewhere in my email", "set_slot tracking_code=somewhere in my email", false},
		{"the last word of the name", []string{"track my parcel"}, "my code is QX-1200", "set_slot tracking_code=QX-1200", true},
		{"another word of the name is no name", []string{"track my parcel"}, "my tracking is fine", "set_slot tracking_code=my tracking is fine", false},
	})
}

// TestQuotedAnswers: a free-text answer that quotes one span, with at
// most four words around it, keeps only the quoted words; two spans, or
// a long sentence around one, stay the answer.
func TestQuotedAnswers(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("errors.yaml", []byte(`version: "1.0"
flows:
  report_error:
    description: report an error
    trigger: {intents: ["report an error"]}
    slots: [{name: error_text, type: text}]
    steps:
      - {step: ask, type: collect, slot: error_text, message: "What does the error say?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"straight quotes", []string{"report an error"}, `it says "Connection timed out"`, "set_slot error_text=Connection timed out", true},
		{"curly quotes", []string{"report an error"}, "it shows “Access denied”", "set_slot error_text=Access denied", true},
		{"two spans", []string{"report an error"}, `"Access denied" then "Retry"`, `set_slot error_text="Access denied" then "Retry"`, false},
	})
}
