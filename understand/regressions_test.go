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
	t.Parallel()
	res := compiler.CompileSource("regressions.yaml", []byte(regressionsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	read := reader(t, res.Program)
	atCity := []string{"plan a trip"}
	atNote := []string{"plan a trip", "Basel"}
	runCasesWith(t, read, []gcase{
		{"a trigger word is no code", nil, "ask code twice", "start_flow twice", true},
		{"a trigger word is no code, another phrase", nil, "collect two codes", "start_flow twice", true},
		{"a code that is no trigger word still fills", nil, "ask code twice, it's XYZ", "start_flow twice code=XYZ", true},
		{"none at a free-text question", atNote, "none", "set_slot note=none", false},
		{"nothing at a free-text question", atNote, "nothing", "set_slot note=nothing", false},
		{"not sure is still no answer", atNote, "not sure", "fallback", false},
		{"Nice at which city", atCity, "Nice", "set_slot city=Nice", false},
		{"nice! is small talk", atCity, "nice!", "chitchat (ack)", false},
		{"nice in lower case is small talk", atCity, "nice", "chitchat (ack)", false},
		{"Nice with no question is small talk", nil, "Nice", "chitchat (ack)", true},
	})
}

// TestDescriptionWordsKeepTheSlotType: a description's words never
// change what a slot's name says it holds: "cost" in the description of
// a date slot leaves it a date, and "may 17th" is the 17th of May, not
// an amount of 17.
func TestDescriptionWordsKeepTheSlotType(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("dates.yaml", []byte(`version: "1.0"
flows:
  search_hotel:
    description: search for hotels
    trigger: {intents: ["search hotel"]}
    slots:
      - {name: hotel_end_date, type: text, description: "check out date for the hotel. DO NOT misinterpret the date at any cost."}
      - {name: budget_note, type: text, description: "the price range the user has in mind, as a date-free remark"}
    steps:
      - {step: ask_end, type: collect, slot: hotel_end_date, message: "When do you want to leave?"}
      - {step: ask_note, type: collect, slot: budget_note, message: "Anything about the price?"}
`), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	f := res.Program.Flow("search_hotel")
	got := readAs(f.Slot("hotel_end_date"))
	require.NotNil(t, got)
	require.Equal(t, "date", string(got.Type))
	require.Nil(t, readAs(f.Slot("budget_note")), "a note is no value, whatever its description says")
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"a date, not an amount", []string{"search hotel"}, "may 17th", "set_slot hotel_end_date=2027-05-17", true},
	})
}
