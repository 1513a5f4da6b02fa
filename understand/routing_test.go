package understand

import "testing"

// TestRoutingRule pins the routing rule of issue 18 §1, widened by issue
// 27 §3, case by case: an exact trigger, a message that is exactly the
// answer (a categorical value or synonym, a yes or no word, a typed value
// that converts with nothing else in the message), a cancel word, and
// the plain readings of widen.go (one flow's words with each value named,
// a correction word and exactly a typed value, a short name with only
// carrier words around it) are sure; everything else goes to the model
// in hybrid mode.
func TestRoutingRule(t *testing.T) {
	t.Parallel()
	toConfirm := []string{"send money", "Ana", "50", "checking"}
	atAmount := []string{"send money", "Ana"}
	runGeneral(t, "banking", []gcase{
		// Sure.
		{"an exact trigger", nil, "send money", "start_flow transfer_funds", true},
		{"a trigger with stop words around it", nil, "I'd like to check my balance please", "start_flow check_balance", true},
		{"a categorical value", []string{"send money", "Ana", "50"}, "savings", "set_slot account_type=savings", true},
		{"a categorical synonym", []string{"send money", "Ana", "50"}, "current account", "set_slot account_type=checking", true},
		{"a yes word", toConfirm, "yes", "affirm", true},
		{"a no word", toConfirm, "nope", "deny", true},
		{"a number", atAmount, "50", "set_slot amount=50", true},
		{"a number in words", atAmount, "seventy five", "set_slot amount=75", true},
		{"an amount with its currency", atAmount, "fifty euros", "set_slot amount=50", true},
		{"a code", []string{"block my card"}, "4821", "set_slot card_last4=4821", true},
		{"a cancel word", atAmount, "never mind", "cancel_flow", true},
		// Sure since issue 27: a value of a typed slot in more words, a
		// short yes or no in other words at a confirmation, and small
		// talk with nothing asked.
		{"a number with more words", atAmount, "seventy five please", "set_slot amount=75", true},
		{"a category with more words", []string{"send money", "Ana", "50"}, "savings please", "set_slot account_type=savings", true},
		{"a short yes in other words", toConfirm, "sounds good", "affirm", true},
		{"thanks with nothing asked", nil, "thanks!", "chitchat (thanks)", true},
		// Sure since issue 27 §3 (widen.go).
		{"no and a typed value at a confirm", toConfirm, "no, 80", "correct_slot amount=80", true},
		{"a free-text answer with polite words", []string{"send money"}, "Bob please", "set_slot recipient=Bob", true},
		{"an opening in the flow's words, values named", nil, "send 50 euros to Ana", "start_flow transfer_funds recipient=Ana amount=50", true},
		// The model.
		{"thanks at a question", atAmount, "thanks!", "chitchat (thanks)", false},
		{"a no that names another flow", toConfirm, "oh no, I just lost my card", "start_flow lost_card", false},
		{"a correction of free text at a confirm", toConfirm, "no wait, send it to Maria instead", "correct_slot recipient=Maria", false},
		{"another flow's exact trigger at a question", atAmount, "what's my balance", "start_flow check_balance", false},
		{"another flow's exact trigger at a confirm", toConfirm, "block my card", "start_flow lost_card", false},
		{"another flow in other words at a question", atAmount, "actually I lost my card", "start_flow lost_card", false},
		{"a fallback", nil, "blorp", "fallback", false},
		{"an interjection is no sure name", []string{"send money"}, "ugh", "set_slot recipient=ugh", false},
		{"my bad is no sure name", []string{"send money"}, "my bad", "set_slot recipient=my bad", false},
	})
	atName := []string{"book a hotel", "Rome", "tomorrow", "3", "single", "yes"}
	runGeneral(t, "travel", []gcase{
		{"a date", []string{"book a flight", "Madrid", "Paris"}, "next friday", "set_slot departure_date=2027-03-19", true},
		{"a count said with people", []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy"}, "me and my wife", "set_slot passengers=2", true},
		{"free text with a carrier word", []string{"book a flight"}, "from Manchester", "set_slot origin=Manchester", true},
		{"a trigger and more", nil, "book a hotel for my trip", "start_flow book_hotel", false},
		{"a trigger and values", nil, "book a hotel in Rome for 3 nights", "start_flow book_hotel city=Rome nights=3", true},
		{"a slot named at a question", []string{"book a hotel", "Rome"}, "change the city to Milan", "correct_slot city=Milan", false},
		{"a date at a free-text question", []string{"book a flight"}, "tomorrow", "set_slot origin=tomorrow", false},
		{"a number at a free-text question", []string{"book a flight"}, "two", "set_slot origin=two", false},
		{"a question mark", []string{"book a flight"}, "Paris?", "set_slot origin=Paris?", false},
		{"no place", []string{"book a flight"}, "anywhere", "set_slot origin=anywhere", false},
		{"a city with thanks", []string{"book a flight"}, "Rome thanks", "set_slot origin=Rome", false},
		{"a name is sure", atName, "Ana López", "set_slot traveller_name=Ana López", true},
		{"the speaker names no one", atName, "myself", "set_slot traveller_name=myself", false},
		{"an e-mail address at a name question", atName, "ana@example.com", "set_slot traveller_name=ana@example.com", false},
	})
}

// TestFillersAndWordsOfIssue18: the fillers before a correction ("ugh,",
// "oh,"), the yes and no words, and the cancel in other words that issue
// 18 §2 names and no other test spells out.
func TestFillersAndWordsOfIssue18(t *testing.T) {
	t.Parallel()
	toConfirm := []string{"send money", "Ana", "50", "checking"}
	runGeneral(t, "banking", []gcase{
		{"ugh before make it", toConfirm, "ugh, make it 70", "correct_slot amount=70", true},
		{"oh before instead", toConfirm, "oh, 70 instead", "correct_slot amount=70", true},
		{"oh before no wait", toConfirm, "oh no wait, send it to Bob", "correct_slot recipient=Bob", false},
		{"sounds good", toConfirm, "sounds good", "affirm", true},
		{"not really", toConfirm, "not really", "deny", true},
	})
	runGeneral(t, "travel", []gcase{
		{"forget the flight", []string{"book a flight", "Madrid", "Paris"}, "forget the flight", "cancel_flow", true},
		{"a filler before a correction of another slot", []string{"book a flight", "Madrid", "Paris"}, "ugh, I meant from Lisbon", "correct_slot origin=Lisbon", false},
	})
}

// TestSlotNamedByAWordOfIt: a correction may name its slot by one word of
// its name ("the date" for departure_date) or, for a typed slot, of its
// description ("the class" for a cabin described as "Cabin class"), when
// no other slot of the flow has that word and the value converts; a word
// two slots share names neither.
func TestSlotNamedByAWordOfIt(t *testing.T) {
	t.Parallel()
	toConfirm := []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy", "1"}
	runGeneral(t, "travel", []gcase{
		{"the date", toConfirm, "change the date to the 18th", "correct_slot departure_date=2027-03-18", false},
		{"the class", toConfirm, "change the class to business", "correct_slot cabin=business", false},
		{"the number of passengers", toConfirm, "change the number of passengers to 2", "correct_slot passengers=2", false},
		{"the date at another question", []string{"book a flight", "Madrid", "Paris", "tomorrow"}, "oh, change the date to friday", "correct_slot departure_date=2027-03-12", false},
		{"a word two slots share names neither", toConfirm, "change the flight to friday", "start_flow book_flight departure_date=2027-03-12", false},
		{"a value that does not convert", toConfirm, "change the class to purple", "fallback", false},
	})
	runGeneral(t, "banking", []gcase{
		{"the account", []string{"send money", "Ana", "50", "checking"}, "change the account to savings", "correct_slot account_type=savings", false},
	})
}

// TestCodeInPartsInTheOpening: the message that starts a flow gives a
// code typed in two parts, letters then digits ("ticket t 10001"), as it
// gives one typed whole; digits in groups are no code there ("100 000"
// may be an amount).
func TestCodeInPartsInTheOpening(t *testing.T) {
	t.Parallel()
	runGeneral(t, "support", []gcase{
		{"letters and digits apart", nil, "status of ticket t 10001", "start_flow check_ticket_status ticket_id=T-10001", true},
		{"in capitals", nil, "any news on T 10001?", "start_flow check_ticket_status ticket_id=T-10001", true},
		{"digits alone add nothing", nil, "check ticket number 10001", "start_flow check_ticket_status", false},
	})
	runGeneral(t, "banking", []gcase{
		{"digits in groups are no code", nil, "block my card 48 21", "start_flow lost_card", false},
	})
}

// TestSpanishUnitsOfACount: a count said with its unit in Spanish ("tres
// noches") fills the slot in the opening and is exactly the answer at its
// question, as "three nights" is.
func TestSpanishUnitsOfACount(t *testing.T) {
	t.Parallel()
	runGeneral(t, "travel", []gcase{
		{"nights in the opening", nil, "busco hotel en Valencia para tres noches", "start_flow book_hotel city=Valencia nights=3", false},
		{"nights at the question", []string{"book a hotel", "Rome", "tomorrow"}, "3 noches", "set_slot nights=3", true},
	})
}

// TestHandoffInMoreWords: a request for the support team, its staff or a
// manager, or for a human said in three words, is a request for a
// person; a request for help with something is not.
func TestHandoffInMoreWords(t *testing.T) {
	t.Parallel()
	var cases []gcase
	for _, msg := range []string{"let me talk to your support staff", "can I speak with customer support",
		"I want to talk to the support team", "I want a human", "need to speak with a manager",
		"hablar con soporte", "quiero hablar con alguien de soporte"} {
		cases = append(cases, gcase{msg, nil, msg, "human_handoff", true})
	}
	cases = append(cases,
		gcase{"support with something", nil, "I need support with my bill", "start_flow open_ticket category=billing", false},
		gcase{"the team in a sentence", nil, "the support team never answered my email", "fallback", false})
	runGeneral(t, "support", cases)
}
