package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// sentencesYAML asks for an excursion's name and a rental car from a
// list the question shows, as the imported travel assistant does.
const sentencesYAML = `version: "1.0"
flows:
  book_excursion:
    description: search and book an excursion
    trigger: {intents: ["book excursion"]}
    slots:
      - {name: excursion_name, type: text, description: "use the official name as stated by the assistant"}
      - {name: note, type: text}
    steps:
      - {step: ask_name, type: collect, slot: excursion_name, message: "Basel has some wonderful attractions: the Basel Zoo, the Kunstmuseum and the Rhine cruise. Which one?"}
      - {step: ask_note, type: collect, slot: note, message: "Any note for the guide?"}
      - {step: done, type: say, message: "Booked {excursion_name}."}
  search_rental_car:
    description: search for rental cars
    trigger: {intents: ["search rental car"]}
    slots:
      - {name: car_rental_selection, type: text}
    steps:
      - {step: pick, type: collect, slot: car_rental_selection, message: "I've found several options for you:\n- Hertz Economy, 40 CHF a day\n- Avis Luxury, 120 CHF a day\n- Sixt Midsize, 70 CHF a day"}
      - {step: done, type: say, message: "Booked {car_rental_selection}."}
`

// TestAnswersInSentencesAndOptionPicks: an answer in a sentence keeps
// only the name it says ("I'll go to the Basel Zoo please" is "Basel
// Zoo") at a question whose answer is a name, and "the luxury one" picks
// the option of the question whose words it names.
func TestAnswersInSentencesAndOptionPicks(t *testing.T) {
	res := compiler.CompileSource("sentences.yaml", []byte(sentencesYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	atName := []string{"book excursion"}
	atNote := []string{"book excursion", "Basel Zoo"}
	atCar := []string{"search rental car"}
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"the name in a sentence", atName, "I'll go to the Basel Zoo please", "set_slot excursion_name=Basel Zoo", true},
		{"the name alone", atName, "Basel Zoo", "set_slot excursion_name=Basel Zoo", true},
		{"a note keeps its words", atNote, "We will meet Anna at the gate", "set_slot note=We will meet Anna at the gate", false},
		{"the luxury one", atCar, "I'll take the luxury one", "set_slot car_rental_selection=Avis Luxury, 120 CHF a day", false},
		{"an option by its brand", atCar, "sixt please", "set_slot car_rental_selection=Sixt Midsize, 70 CHF a day", false},
	})
	opts := questionOptions("Pick one: economy, midsize or luxury?")
	assert.Equal(t, []string{"economy", "midsize", "luxury"}, opts)
	_, ok := pickOption("Pick one: economy, midsize or luxury?", "whatever you think")
	assert.False(t, ok, "no option named")
}
