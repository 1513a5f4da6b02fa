package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// regressionsYAML holds the flows of three rules that once held and
// broke (issue 27): a flow that calls one asking for a three-letter code,
// and a trip that asks for a city and then for a note.
const regressionsYAML = `version: "1.0"
flows:
  twice:
    description: asks for a code twice
    trigger: {intents: ["ask code twice", "collect two codes"]}
    steps:
      - {step: first, type: call, target: get_code}
      - {step: done, type: say, message: "Done."}
  get_code:
    slots:
      - {name: code, type: text, pattern: "^[A-Za-z]{3}$", description: "a three-letter code"}
    steps:
      - {step: ask, type: collect, slot: code, message: "Which code?"}
      - {step: got, type: say, message: "Got {code}."}
  trip:
    description: plan a trip
    trigger: {intents: ["plan a trip"]}
    slots:
      - {name: city, type: text}
      - {name: note, type: text}
    steps:
      - {step: ask_city, type: collect, slot: city, message: "Which city?"}
      - {step: ask_note, type: collect, slot: note, message: "Any note?"}
      - {step: done, type: say, message: "Going to {city} ({note})."}
`

// TestRegressions pins three readings that once held (issue 27): a word
// of the message that matched the trigger is never a slot value; "none"
// at a free-text question is the user's answer; "Nice" at "Which city?"
// is the city, not small talk.
func TestRegressions(t *testing.T) {
	res := compiler.CompileSource("regressions.yaml", []byte(regressionsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	read := reader(t, res.Program)
	atCity := []string{"plan a trip"}
	atNote := []string{"plan a trip", "Basel"}
	runCasesWith(t, read, []gcase{
		{"a trigger word is no code", nil, "ask code twice", "start_flow twice", true},
		{"a trigger word is no code, another phrase", nil, "collect two codes", "start_flow twice", true},
		{"a code that is no trigger word still fills", nil, "ask code twice, it's XYZ", "start_flow twice code=XYZ", false},
		{"none at a free-text question", atNote, "none", "set_slot note=none", false},
		{"nothing at a free-text question", atNote, "nothing", "set_slot note=nothing", false},
		{"not sure is still no answer", atNote, "not sure", "fallback", false},
		{"Nice at which city", atCity, "Nice", "set_slot city=Nice", false},
		{"nice! is small talk", atCity, "nice!", "chitchat (ack)", false},
		{"nice in lower case is small talk", atCity, "nice", "chitchat (ack)", false},
		{"Nice with no question is small talk", nil, "Nice", "chitchat (ack)", false},
	})
}
