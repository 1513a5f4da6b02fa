package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// projectTextYAML is a travel assistant imported from Rasa: its phrases
// are its flows' names and descriptions, as the importer writes them.
const projectTextYAML = `version: "1.0"
flows:
  search_rental_car:
    description: "search for rental cars"
    trigger: {intents: ["search rental car", "search for rental cars"]}
    steps: [{step: s, type: say, message: "Cars."}]
  search_hotel:
    description: "search for hotels"
    trigger: {intents: ["search hotel", "search for hotels"]}
    steps: [{step: s, type: say, message: "Hotels."}]
  book_excursion:
    description: "search and book an excursion"
    trigger: {intents: ["book excursion", "search and book an excursion"]}
    steps: [{step: s, type: say, message: "Excursions."}]
  list_bookings:
    description: "list flight bookings - booked flights"
    trigger: {intents: ["list bookings", "list flight bookings - booked flights"]}
    steps: [{step: s, type: say, message: "Your flights."}]
  change_flight:
    description: "change an existing booking to a new flight"
    trigger: {intents: ["change flight", "change an existing booking to a new flight"]}
    steps: [{step: s, type: say, message: "Changing."}]
  confirm_address:
    description: "This flow is called from any other flow to confirm that the user's address is correct."
    trigger: {intents: ["confirm address"]}
    steps: [{step: s, type: say, message: "Address."}]
`

// TestOpeningsFromTheProjectsText: a flow starts from what the project
// says it does, not only from its phrases: the words its name and its
// description share ("car" of search_rental_car, "search for rental
// cars") start it alone when no other flow has them, and the usual
// variants of its words are its words ("rent" of "rental"). A
// description written to a model names nothing.
func TestOpeningsFromTheProjectsText(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("travel.yaml", []byte(projectTextYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"book a car", nil, "I'd like to book a car", "start_flow search_rental_car", true},
		{"rent a car", nil, "i need to rent a car", "start_flow search_rental_car", true},
		{"book a hotel", nil, "book a hotel", "start_flow search_hotel", true},
		{"a word no flow knows starts nothing", nil, "book a pizza", "fallback", false},
		{"the phrase still starts", nil, "search hotel", "start_flow search_hotel", true},
	})
	r := New(res.Program)
	assert.Empty(t, namedConcepts(r.mean.lex, res.Program.Flow("confirm_address")), "an instruction to a model names nothing")
	assert.NotEmpty(t, namedConcepts(r.mean.lex, res.Program.Flow("search_rental_car")))
}

// TestListingFlowByItsWordsForm: two flows speak of journeys and only one
// lists those booked (testdata/journeys). "show my journeys" names no
// verb of either, and both have "journey" in their name, description and
// phrases; the flow whose own text writes "journeys" as the message does
// is the one it means, not a clarification between the two. Openings
// named by a description ("book a car", "book a hotel") still start
// their flow.
func TestListingFlowByItsWordsForm(t *testing.T) {
	t.Parallel()
	res := compiler.Compile("../testdata/journeys", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"show the list", nil, "show my journeys", "start_flow list_journeys", false},
		{"which are booked", nil, "what journeys do I have?", "start_flow list_journeys", false},
		{"change one", nil, "change my journey", "start_flow change_journey", true},
		{"book a car", nil, "I'd like to book a car", "start_flow rent_car", true},
		{"book a hotel", nil, "book a hotel", "start_flow find_hotel", true},
	})
}
