package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
)

// citydesk reads messages in testdata/citydesk, a project that shares
// no word with the examples.
func citydesk(t *testing.T) func(before []string, msg string) (Reading, vm.View) {
	t.Helper()
	res := compiler.Compile("../testdata/citydesk", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	return reader(t, res.Program)
}

// TestCancelNamesItsFlow: a cancel verb whose object names a flow below
// the one on top cancels that flow; a negated wish cancels the flow it
// names, or starts nothing.
func TestCancelNamesItsFlow(t *testing.T) {
	t.Parallel()
	runGeneral(t, "travel", []gcase{
		{"the flight under a hotel", []string{"book a flight", "Madrid", "book a hotel"}, "no, cancel the flight", "cancel_flow book_flight", false},
		{"the hotel under a flight", []string{"book a hotel", "Rome", "actually I need a flight first"}, "forget the hotel", "cancel_flow book_hotel", false},
		{"the flight on top is the plain cancel", []string{"book a hotel", "Rome", "actually I need a flight first"}, "cancel the flight", "cancel_flow", true},
		{"a negated wish for the flow on top", []string{"book a flight", "Madrid"}, "I don't want to book a flight anymore", "cancel_flow", false},
		{"a negated wish by a pronoun", []string{"book a flight", "Madrid"}, "I don't want to do this anymore", "cancel_flow", false},
		{"a negated wish for a flow not running starts nothing", nil, "I don't want to book a hotel", "fallback", false},
		{"a flow not running is no answer", []string{"book a hotel"}, "no, cancel the flight", "fallback", false},
		{"nor a new flow", []string{"book a hotel"}, "I want to cancel my flight", "fallback", false},
	})
	runGeneral(t, "support", []gcase{
		{"an object of no flow is a free-text answer", []string{"open a ticket", "billing"}, "I want to cancel my subscription", "set_slot description=I want to cancel my subscription", false},
	})
	runGeneral(t, "banking", []gcase{
		{"a negated wish with what to do instead is no cancel", []string{"send money", "Ana"}, "I don't want to send it to Ana, send it to Bob", "set_slot amount=I don't want to send it to Ana, send it to Bob", false},
		{"a negated detail is no cancel", []string{"send money", "Ana", "50"}, "I don't want to send it to Ana", "set_slot account_type=I don't want to send it to Ana", false},
		{"a negated wish at a yes/no question is a no", []string{"I lost my card", "4821", "yes"}, "I don't need a replacement card", "set_slot wants_replacement=false", false},
	})
	runCasesWith(t, citydesk(t), []gcase{
		{"a report under a rental", []string{"report a fault", "rent a bike"}, "no, cancel the fault report", "cancel_flow report_fault", false},
		{"a negated wish", []string{"rent a bike", "Riverside"}, "I don't want to rent a bike anymore", "cancel_flow", false},
	})
}

// TestNegatedValues: a negated value is never the answer; values and
// synonyms that start with a negation, and negated verbs of doing, are
// read as before.
func TestNegatedValues(t *testing.T) {
	t.Parallel()
	ticket := []string{"open a ticket", "technical", "my screen flickers all day"}
	runGeneral(t, "support", []gcase{
		{"not urgent", ticket, "not urgent", "fallback", false},
		{"it is not important", ticket, "it is not important", "fallback", false},
		{"no es urgente", ticket, "no es urgente", "fallback", false},
		{"what is left is the answer", ticket, "it's not urgent, but soon please", "set_slot priority=high", true},
		{"a synonym with a negation word", ticket, "no rush", "set_slot priority=low", true},
		{"a negated verb of doing says what is wrong", []string{"open a ticket"}, "I can't log in", "set_slot category=account", true},
		{"a value that starts with a negation", []string{"open a ticket"}, "it's not working", "set_slot category=technical", true},
		{"an opening negates its value", nil, "my laptop is not charging", "start_flow open_ticket", false},
	})
	runGeneral(t, "banking", []gcase{
		{"one value left of two", []string{"send money", "Ana", "50"}, "not from savings", "set_slot account_type=checking", true},
		{"a negated comparison bounds the value", []string{"send money", "Ana"}, "not more than 50", "set_slot amount=50", true},
		{"a suggestion answers", []string{"send money", "Ana", "50"}, "how about savings", "set_slot account_type=savings", true},
	})
	runCasesWith(t, citydesk(t), []gcase{
		{"not critical", []string{"report a fault", "the door squeaks"}, "not critical", "fallback", false},
		{"negated, then a value", []string{"report a fault", "the door squeaks"}, "not critical, just cosmetic", "set_slot severity=minor", true},
	})
}

// TestQuestionAsksForAnotherFlow: a question at a confirmation or a
// collect that asks for another flow starts it; one about the flow
// asking is read as before.
func TestQuestionAsksForAnotherFlow(t *testing.T) {
	t.Parallel()
	runGeneral(t, "banking", []gcase{
		{"at a confirmation", []string{"I lost my card", "4821"}, "wait, what is my savings balance?", "start_flow check_balance account_type=savings", false},
		{"without a question mark", []string{"I lost my card", "4821"}, "what is my savings balance", "start_flow check_balance account_type=savings", false},
		{"a correction is still one", []string{"I lost my card", "4821"}, "wait, 4822", "correct_slot card_last4=4822", true},
	})
	runCasesWith(t, citydesk(t), []gcase{
		{"at a pattern slot's confirmation", []string{"renew my pass", "482913"}, "wait, is the office open on saturday?", "start_flow opening_hours", false},
	})
}

// TestSeveralValuesInOneAnswer: a number with a unit of another slot and
// the free-text answer; a start and an end.
func TestSeveralValuesInOneAnswer(t *testing.T) {
	t.Parallel()
	runGeneral(t, "travel", []gcase{
		{"nights, then the city", []string{"book a hotel"}, "2 nights in Berlin", "set_slot city=Berlin; set_slot nights=2", false},
		{"a question is no city", []string{"book a hotel"}, "what about 3 nights?", "fallback", false},
		{"the city, then nights", []string{"book a hotel"}, "Hotel Central 3 nights", "set_slot city=Hotel Central; set_slot nights=3", false},
		{"a start and an end day", []string{"book a hotel", "Valencia"}, "from may 14th to the 17th", "set_slot check_in=2027-05-14; set_slot nights=3", false},
		{"an end in the next month", []string{"book a hotel", "Valencia"}, "may 30th to june 2nd", "set_slot check_in=2027-05-30; set_slot nights=3", false},
		{"one date is one date", []string{"book a hotel", "Valencia"}, "may 14th", "set_slot check_in=2027-05-14", true},
		{"a date, then nights", []string{"book a hotel", "Valencia"}, "May 14th for 3 nights", "set_slot check_in=2027-05-14; set_slot nights=3", false},
		{"nights, then a room", []string{"book a hotel", "Valencia", "5 March 2027"}, "3 nights, a double room", "set_slot nights=3; set_slot room=double", false},
		{"a date, then people", []string{"book a flight", "Madrid", "Rome"}, "next friday for 2 people", "set_slot departure_date=2027-03-19; set_slot passengers=2", false},
		{"a value in a sentence is no value", []string{"book a flight", "Madrid", "Rome"}, "april 2nd, first thing in the morning", "set_slot departure_date=2027-04-02", true},
	})
	runCasesWith(t, citydesk(t), []gcase{
		{"hours at a station", []string{"rent a bike"}, "3 hours at Riverside", "set_slot station=Riverside; set_slot hours=3", false},
		{"two date slots", []string{"rent a bike", "Riverside", "3"}, "between june 3 and june 5", "set_slot start_day=2027-06-03; set_slot return_day=2027-06-05", false},
		{"a station alone", []string{"rent a bike"}, "Old Mill", "set_slot station=Old Mill", true},
	})
}

// TestCorrectionsInsideTheCorrectionQuestion: at pattern_correction's
// question, a named correction, a slot said to be wrong and a "no" with
// the value the slot holds.
func TestCorrectionsInsideTheCorrectionQuestion(t *testing.T) {
	t.Parallel()
	asked := []string{"book a hotel", "Berlin", "5 March 2027", "3", "single", "actually 4 nights"}
	runGeneral(t, "travel", []gcase{
		{"a named correction", asked, "change the city to Munich", "correct_slot city=Munich", false},
		{"a slot said to be wrong", asked, "the city is wrong, it's Paris", "correct_slot city=Paris", false},
		{"no, with the value it holds", asked, "no, 3 nights", "set_slot confirm_slot_correction=false", true},
		{"no, with another value", asked, "no, 5", "correct_slot nights=5", false},
		{"a slot said to be wrong at a confirmation", asked[:5], "the city is wrong, it's Paris", "correct_slot city=Paris", false},
		{"wrong with no value is a no", asked[:5], "no, the city is wrong", "deny", false},
	})
	runGeneral(t, "banking", []gcase{
		{"no, from the account it holds", []string{"send money", "Frank", "30", "checking", "actually savings"}, "no, from checking", "set_slot confirm_slot_correction=false", true},
	})
}

// TestOpeningKeepsItsWords: an opening that describes what the flow's
// first free-text slot asks for fills it; a request asks for it.
func TestOpeningKeepsItsWords(t *testing.T) {
	t.Parallel()
	runGeneral(t, "support", []gcase{
		{"a negated verb", nil, "my laptop won't turn on", "start_flow open_ticket description=my laptop won't turn on", false},
		{"a broken thing", nil, "my laptop is broken", "start_flow open_ticket category=technical description=my laptop is broken", false},
		{"a request", nil, "I found a bug", "start_flow open_ticket category=technical", false},
		{"a trigger phrase", nil, "open a ticket", "start_flow open_ticket", true},
	})
	runCasesWith(t, citydesk(t), []gcase{
		{"a negated verb", nil, "the heating won't come on", "start_flow report_fault fault=the heating won't come on", false},
	})
}

// TestStemIsNoValue: a form in -ing that the lexicon does not list
// shares only a stem with a value ("charging", "charge"); the plural and
// the past keep the value's sense.
func TestStemIsNoValue(t *testing.T) {
	t.Parallel()
	runGeneral(t, "support", []gcase{
		{"charging is no charge", nil, "I tried charging it", "start_flow open_ticket", false},
		{"charged is a charge", nil, "you charged me twice this month", "start_flow open_ticket category=billing", false},
		{"the lexicon lists crashing", nil, "the app keeps crashing", "start_flow open_ticket category=technical description=the app keeps crashing", false},
	})
}
