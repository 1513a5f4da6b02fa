package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// confidenceYAML: change_flight asks for confidence 0.8 to start (Rasa's
// nlu_trigger confidence_threshold, imported), book_excursion for none.
const confidenceYAML = `version: "1.0"
flows:
  change_flight:
    description: change the date of a booked flight
    trigger: {intents: ["change my flight", "i want to take another flight"], min_confidence: 0.8}
    slots:
      - {name: new_date, type: date}
    steps:
      - {step: ask_date, type: collect, slot: new_date, message: "Which date?"}
      - {step: done, type: say, message: "Moved to {new_date}."}
  book_excursion:
    description: book an excursion
    trigger: {intents: ["book an excursion"]}
    slots:
      - {name: excursion, type: text}
    steps:
      - {step: ask, type: collect, slot: excursion, message: "Which excursion?"}
      - {step: done, type: say, message: "Booked {excursion}."}
`

// TestMinConfidence: a flow whose trigger asks for more confidence than
// an unsure reading has starts only from a sure one (its exact phrase);
// a flow that asks for none starts from an unsure reading as before.
func TestMinConfidence(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("confidence.yaml", []byte(confidenceYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	read := reader(t, res.Program)

	rd, _ := read(nil, "change my flight")
	assert.True(t, rd.Sure)
	assert.Equal(t, "start_flow change_flight", describeCmds(rd.Commands))

	rd, _ = read(nil, "hmm i guess i'll take another flight then, the later one")
	assert.Equal(t, "fallback", describeCmds(rd.Commands), rd.Reason)
	assert.Contains(t, rd.Reason, "not confident enough to start change_flight (it asks for 0.8, the rules have 0.5)")

	rd, _ = read(nil, "hmm i guess i'd like to book an excursion then, the later one")
	assert.Contains(t, describeCmds(rd.Commands), "start_flow book_excursion", rd.Reason)
}
