package understand

import "testing"

// TestMessagesAsUsersTypeThem pins the kinds of messages a held-out check
// found the rules missing, each with phrasings of our own: a problem
// described in the words of one flow's categorical values, asking about
// a request's state, help and a person asked for off the lists, cancels
// and requests for another flow at a free-text question, codes with a
// word before them, corrections that name another slot by its carrier,
// and counts said with a noun.
func TestMessagesAsUsersTypeThem(t *testing.T) {
	t.Parallel()
	atDescription := []string{"open a ticket", "technical"}
	runGeneral(t, "support", []gcase{
		{"a problem in a value's words", nil, "the website crashed again", "start_flow open_ticket category=technical description=the website crashed again", false},
		{"another form of a value's word", nil, "you guys billed me twice", "start_flow open_ticket category=billing", false},
		{"the state of a request", nil, "what's the state of my request", "start_flow check_ticket_status", true},
		{"following up on a case", nil, "I'd like to follow up on my case", "start_flow check_ticket_status", true},
		{"put me through", nil, "can you put me through to an agent", "human_handoff", true},
		{"a live human", nil, "get me a live human", "human_handoff", true},
		{"somebody to talk to", nil, "is there somebody I could talk to", "human_handoff", true},
		{"texting", nil, "wat can u do", "help", true},
		{"never mind with the flow's noun", atDescription, "never mind this ticket", "cancel_flow", true},
		{"a filler before a cancel word", atDescription, "nope, forget it", "cancel_flow", true},
		{"a cancel word and why", atDescription, "never mind, I'll sort it out myself", "cancel_flow", true},
		{"a cancel word and what happened", atDescription, "oh never mind, I already found the answer", "cancel_flow", true},
		{"a cancel word and a new request is no plain cancel", atDescription, "never mind, I want to check my ticket", "start_flow check_ticket_status", false},
		{"a request for another flow", atDescription, "by the way, any news on T-10001?", "start_flow check_ticket_status ticket_id=T-10001", false},
		{"a description is still the answer", atDescription, "my screen stays black after the update", "set_slot description=my screen stays black after the update", false},
		{"a code with a word before it", []string{"check my ticket"}, "ref t 10001", "set_slot ticket_id=T-10001", true},
		{"a code after a word that names it", []string{"check my ticket"}, "it's number t10001", "set_slot ticket_id=T-10001", true},
	})
	runGeneral(t, "banking", []gcase{
		{"help is no greeting at a free-text question", []string{"send money"}, "what can u do", "help", true},
	})
	runGeneral(t, "travel", []gcase{
		{"another flow at a free-text question", []string{"book a flight"}, "also I need a room in Rome", "start_flow book_hotel city=Rome", false},
		{"a carrier names the destination at the date", []string{"book a flight", "Madrid", "Paris"}, "sorry, I meant to Oslo", "correct_slot destination=Oslo", false},
		{"a carrier names the origin", []string{"book a flight", "Madrid", "Paris"}, "oops, flying out of Porto", "correct_slot origin=Porto", false},
		{"only myself", []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy"}, "only myself", "set_slot passengers=1", true},
		{"my partner and I", []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy"}, "my partner and I", "set_slot passengers=2", true},
		{"a plural with no number is no count", []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy"}, "me and the kids", "set_slot passengers=me and the kids", false},
		{"weeks of nights", []string{"book a hotel", "Rome", "tomorrow"}, "three weeks", "set_slot nights=21", true},
		{"a fortnight", []string{"book a hotel", "Rome", "tomorrow"}, "a fortnight please", "set_slot nights=14", true},
		{"forget about the flow", []string{"book a hotel"}, "forget about the hotel", "cancel_flow", true},
		{"a week of nights in the opening", nil, "somewhere to stay in Oslo for a week", "start_flow book_hotel city=Oslo nights=7", false},
		{"next week is a date, not nights", nil, "a hotel in Oslo next week", "start_flow book_hotel city=Oslo check_in=2027-03-17", true},
		{"the three of us", nil, "the three of us want to fly to Rome", "start_flow book_flight destination=Rome passengers=3", true},
		{"the weekend", []string{"book a hotel", "Rome", "tomorrow"}, "just the weekend", "set_slot nights=2", true},
		{"and I also need", []string{"book a flight", "Madrid"}, "oh and I also need a hotel", "start_flow book_hotel", false},
	})
}
