package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// positionsYAML asks for options in an order four ways: a categorical
// question that names its values ("Single, double or suite?"), one with
// buttons, one whose values include a position word (first class), and
// a free-text question that lists its items after a colon.
const positionsYAML = `version: "1.0"
slots:
  speed: {type: categorical, values: [slow, fast]}
responses:
  utter_ask_speed:
    - text: "How fast should it go?"
      buttons:
        - {title: "Take your time", payload: "/SetSlots(speed=slow)"}
        - {title: "As quick as you can", payload: "/SetSlots(speed=fast)"}
flows:
  book_room:
    description: book a room
    trigger: {intents: ["book a room"]}
    slots:
      - {name: room, type: categorical, values: {single: [one bed], double: [two beds], suite: []}}
    steps:
      - {step: ask, type: collect, slot: room, message: "Single, double or suite?"}
  ship:
    description: ship a parcel
    trigger: {intents: ["ship a parcel"]}
    steps:
      - {step: ask, type: collect, slot: speed, response: utter_ask_speed}
  fly:
    description: pick a cabin
    trigger: {intents: ["pick a cabin"]}
    slots:
      - {name: cabin, type: categorical, values: [economy, business, first]}
    steps:
      - {step: ask, type: collect, slot: cabin, message: "Economy, business or first?"}
  send_card:
    description: send a card
    trigger: {intents: ["send my card"]}
    slots:
      - {name: delivery, type: categorical, values: [standard, express]}
    steps:
      - {step: ask, type: collect, slot: delivery, message: "Standard delivery is free and takes a week; express costs 5 EUR and takes two days. Which do you prefer?"}
  subscribe:
    description: choose a plan
    trigger: {intents: ["choose a plan"]}
    slots:
      - {name: plan, type: text}
    steps:
      - {step: ask, type: collect, slot: plan, message: "Which plan would you like: Basic, Plus or Premium?"}
`

// TestOptionPositions: a position picks the option at that place of
// the question's buttons, of the values it names in its order, or of
// the items it lists; a value that is itself a position word stays that
// value; a position past the last option, or with other words, is no
// pick.
func TestOptionPositions(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("positions.yaml", []byte(positionsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"the second of the values named", []string{"book a room"}, "the second one", "set_slot room=double", true},
		{"the last", []string{"book a room"}, "the last one please", "set_slot room=suite", true},
		{"with a verb around it", []string{"book a room"}, "I'll take the first one", "set_slot room=single", true},
		{"a button by its place", []string{"ship a parcel"}, "second", "set_slot speed=fast", true},
		{"a listed item of free text", []string{"choose a plan"}, "the second option", "set_slot plan=Plus", true},
		{"a value that is a position word", []string{"pick a cabin"}, "first", "set_slot cabin=first", true},
		{"past the last option", []string{"ship a parcel"}, "the third one", "set_slot speed=the third one", false},
		{"other words are no position", []string{"choose a plan"}, "the second cheapest", "set_slot plan=the second cheapest", false},
	})
}

// TestOptionWords: a pick ("the free one") with a word the question says
// of one categorical value only, in the clause that names it, answers
// with that value; a word both clauses have, a negation, or no pick word
// picks nothing.
func TestOptionWords(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("positions.yaml", []byte(positionsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"a word of one clause", []string{"send my card"}, "the free one is fine", "set_slot delivery=standard", false},
		{"another clause's word", []string{"send my card"}, "I'll take the one for 5 EUR", "set_slot delivery=express", false},
		{"a word of both clauses", []string{"send my card"}, "the one that takes time", "set_slot delivery=the one that takes time", false},
		{"a negation", []string{"send my card"}, "not the free one", "set_slot delivery=not the free one", false},
		{"no pick word", []string{"send my card"}, "free please", "set_slot delivery=free please", false},
	})
}
