package understand

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
)

// widenYAML is a small library of our own: borrowing a book (a title in
// free text, a format to pick, a number of copies and of weeks), renewing
// a loan by its code, and a member's details with a birthday kept as
// text.
const widenYAML = `version: "1.0"
flows:
  borrow_book:
    description: borrow a book from the library
    trigger: {intents: ["borrow a book"]}
    slots:
      - {name: title, type: text, description: the book's title}
      - name: format
        type: categorical
        description: the kind of copy
        values:
          ebook: [e-book, digital]
          paperback: [paper copy, printed]
          audiobook: [audio]
      - {name: copies, type: integer, description: how many copies, min: 1, max: 5}
      - {name: weeks, type: integer, description: how many weeks to keep them, min: 1, max: 8}
    steps:
      - {step: ask_title, type: collect, slot: title, message: "Which book?"}
      - {step: ask_format, type: collect, slot: format, message: "Which format?"}
      - {step: ask_copies, type: collect, slot: copies, message: "How many copies?"}
      - {step: ask_weeks, type: collect, slot: weeks, message: "For how many weeks?"}
      - {step: ok, type: confirm, slot: weeks, message: "Borrow {copies} {format} of {title} for {weeks} weeks?"}
      - {step: done, type: say, message: "Done."}
  renew_loan:
    description: renew a loan
    trigger: {intents: ["renew my loan"]}
    slots:
      - {name: loan_code, type: text, pattern: "^L-[0-9]{4}$", description: the loan's code}
    steps:
      - {step: ask_code, type: collect, slot: loan_code, message: "What is the loan code?"}
      - {step: done, type: say, message: "Renewed {loan_code}."}
  join_library:
    description: become a member
    trigger: {intents: ["join the library"]}
    slots:
      - {name: member_name, type: text, description: the member's full name}
      - {name: birth_date, type: text, description: the member's date of birth}
    steps:
      - {step: ask_name, type: collect, slot: member_name, message: "What is your name?"}
      - {step: ask_birth, type: collect, slot: birth_date, message: "When were you born?"}
      - {step: done, type: say, message: "Welcome, {member_name}."}
`

// TestWidenedSureness: issue 27 §3. Each general condition of widen.go
// makes sure a reading the rules made unsure before (the first cases,
// which failed before it), and each of its guards keeps unsure what a
// model should still read (which held before too).
func TestWidenedSureness(t *testing.T) {
	t.Parallel()
	res := compiler.CompileSource("library.yaml", []byte(widenYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	atTitle := []string{"borrow a book"}
	atFormat := []string{"borrow a book", "Dune"}
	atConfirm := []string{"borrow a book", "Dune", "ebook", "2", "3"}
	atBirth := []string{"join the library", "Ana Ruiz"}
	runCasesWith(t, reader(t, res.Program), []gcase{
		// An opening in one flow's words, each value named.
		{"an opening with a category named", nil, "I'd like to borrow a paperback", "start_flow borrow_book format=paperback", true},
		{"an opening with a code", nil, "please renew loan L-1234", "start_flow renew_loan loan_code=L-1234", true},
		// A correction word and exactly a value only one slot takes.
		{"a category corrected", atConfirm, "actually paperback", "correct_slot format=paperback", true},
		{"a category corrected after no", atConfirm, "no, audio instead", "correct_slot format=audiobook", true},
		// A short name with only carrier words around it.
		{"a name after carrier words", []string{"join the library"}, "it's Ana Ruiz", "set_slot member_name=Ana Ruiz", true},

		// Guards: a typo, a negation, a word the flow does not know
		// while a free-text slot is open, a category not named as the
		// project writes it, more numbers than typed values.
		{"a typo", nil, "I'd like to borow a paperback", "start_flow borrow_book format=paperback", false},
		{"an unknown word with the title open", nil, "borrowing books for grandma", "start_flow borrow_book", false},
		{"a negation", nil, "I'd like to borrow a paperback, not an ebook", "start_flow borrow_book", false},
		{"two numbers, one value", nil, "borrow 2 books for 3 weeks", "start_flow borrow_book weeks=3", false},
		// A number two slots take is no plain correction.
		{"a number two slots take", atConfirm, "actually 4", "correct_slot weeks=4", false},
		// A question that names a category is no answer.
		{"a question naming a value", atFormat, "wait, where is my ebook?", "fallback", false},
		// A date in figures for a text slot the rules read as a date.
		{"a date in figures in a text slot", atBirth, "03/14/1988", "set_slot birth_date=1988-03-14", false},
		{"a carrier and a number", atTitle, "the one from 1984", "set_slot title=the one from 1984", false},
		// A cancel verb with only words of the flow on top.
		{"a cancel of the flow named by its words", atTitle, "forget the book", "cancel_flow", true},
		{"a cancel with a word the flow on top does not say", atTitle, "stop the book loan", "cancel_flow", false},
		{"a cancel asked", atTitle, "can we stop the book?", "cancel_flow", false},

		// A request for a person or for help while a question waits; not
		// a thanks, nor two words at a free-text question.
		{"a request for a person at a free-text question", atTitle, "let me talk to a person", "human_handoff", true},
		{"a request for help at a number question", []string{"borrow a book", "Dune", "ebook"}, "wait, what can you do?", "help", true},
		{"a request for help at a question with options", atFormat, "what are my options?", "help", false},
		{"two words at a free-text question", atTitle, "agent please", "human_handoff", false},
		{"a thanks at a question", atFormat, "thanks", "chitchat (thanks)", false},

		// Words the flow does not know, while no free-text slot is open,
		// say how, not what: the opening stays sure. Not a number or a
		// date in words that no typed slot took.
		{"an unknown word with no free-text slot", nil, "could you renew my loan quickly", "start_flow renew_loan", true},
		{"a number word no typed slot took", nil, "renew my loan for two weeks", "start_flow renew_loan", false},
		{"a weekday no typed slot took", nil, "renew my loan until friday", "start_flow renew_loan", false},
	})
	// A free-text slot of a called flow is open too.
	res = compiler.CompileSource("calls.yaml", []byte(widenCallsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"an unknown word with a called flow's free-text slot open", nil, "reserve a book for grandma", "start_flow reserve_book", false},
		{"an unknown word with no free-text slot anywhere", nil, "extend my membership quickly", "start_flow extend_membership", true},
		{"a cancel word the flow does not know", nil, "stop that, I want to extend my membership", "start_flow extend_membership", false},
		// A category open may be named in other words.
		{"unknown words with a category open", nil, "report a problem with a book, the cover fell off", "start_flow report_problem", false},
		{"the category named", nil, "report a problem with a book, it is torn", "start_flow report_problem problem=torn", true},

		// One word in figures at a free-text question, which no other
		// open slot takes; a date in the layout the question names.
		{"a number in figures", []string{"register a card"}, "48213", "set_slot card_number=48213", true},
		{"a code in figures", []string{"register a card"}, "LIB-2093", "set_slot card_number=LIB-2093", true},
		{"a date in the layout asked", []string{"register a card", "48213"}, "03/02/2027", "set_slot issue_date=03/02/2027", true},
		{"figures after the slot's own name", []string{"register a card"}, "my card number is 48213", "set_slot card_number=48213", true},
		{"figures with a hedge", []string{"register a card"}, "it is 48213 I think", "set_slot card_number=48213", false},
		{"a short number may pick an option", []string{"register a card"}, "12", "set_slot card_number=12", false},
		{"a date in another layout", []string{"register a card", "48213"}, "2027-03-02", "set_slot issue_date=03/02/2027", false},
		{"figures another free-text slot may take", []string{"donate a book"}, "48213", "set_slot donor=48213", false},
		// The project's own flow for a person.
		{"the project's flow for a person", []string{"report a problem with a book"}, "can I talk to a human instead?", "start_flow speak_with_human", true},
		// The words of the typed values taken (a number and its unit, a
		// date), which another flow says, are no unknown words while a
		// category is open.
		{"a number, its unit and a date in words", nil, "reserve a study room for two hours on friday", "start_flow book_room hours=2 day=2027-03-12", true},
		// A figure of a value a text slot took is that value's.
		{"an identifier a text slot took", nil, "register the card 48213", "start_flow register_card card_number=48213", true},
		// A flow about cancelling may ask about what a cancel names.
		{"a cancel at a flow that cancels", []string{"cancel a hold"}, "cancel the hold", "cancel_flow", false},
	})
}

// widenCallsYAML: reserving a book calls a flow that asks for the
// title in free text; reporting a problem asks for a category;
// registering a card asks for its number and, in a layout, the date it
// was issued, both in text slots; donating asks for two free-text
// slots; a study room takes a number of hours, a day and a kind, and
// the opening times say some of those words; extending a membership
// asks for nothing.
const widenCallsYAML = `version: "1.0"
flows:
  reserve_book:
    description: reserve a book at the library
    trigger: {intents: ["reserve a book"]}
    steps:
      - {step: which, type: call, target: ask_title}
      - {step: done, type: say, message: "Reserved."}
  ask_title:
    description: ask which book
    slots:
      - {name: title, type: text, description: the book's title}
    steps:
      - {step: ask_title, type: collect, slot: title, message: "Which book?"}
  report_problem:
    description: report a problem with a book
    trigger: {intents: ["report a problem with a book"]}
    slots:
      - name: problem
        type: categorical
        description: what is wrong with the book
        values: [torn, wet, missing_pages]
    steps:
      - {step: ask_problem, type: collect, slot: problem, message: "What is wrong with it?"}
      - {step: done, type: say, message: "Thanks."}
  register_card:
    description: register a library card
    trigger: {intents: ["register a card"]}
    slots:
      - {name: card_number, type: text, description: the card's number}
      - {name: issue_date, type: text, description: the date the card was issued}
    steps:
      - {step: ask_number, type: collect, slot: card_number, message: "What is the card's number?"}
      - {step: ask_issued, type: collect, slot: issue_date, message: "When was it issued? Please use mm/dd/yyyy format."}
      - {step: done, type: say, message: "Registered."}
  donate_book:
    description: donate a book to the library
    trigger: {intents: ["donate a book"]}
    slots:
      - {name: donor, type: text, description: who donates}
      - {name: donor_phone, type: text, description: how to reach them}
    steps:
      - {step: ask_donor, type: collect, slot: donor, message: "Who is donating?"}
      - {step: ask_phone, type: collect, slot: donor_phone, message: "How can we reach you?"}
      - {step: done, type: say, message: "Thank you."}
  cancel_hold:
    description: cancel a hold on a book
    trigger: {intents: ["cancel a hold"]}
    slots:
      - {name: held_title, type: text, description: the book on hold}
    steps:
      - {step: ask_held, type: collect, slot: held_title, message: "Which hold?"}
      - {step: done, type: say, message: "Cancelled."}
  speak_with_human:
    description: hand the conversation to a librarian
    trigger: {intents: ["talk to a human"]}
    steps:
      - {step: done, type: say, message: "A librarian will answer."}
  book_room:
    description: reserve a study room
    trigger: {intents: ["reserve a study room"]}
    slots:
      - {name: hours, type: integer, description: the length of the booking, min: 1, max: 8}
      - {name: day, type: date, description: the day}
      - {name: kind, type: categorical, description: the kind of room, values: [quiet, group]}
    steps:
      - {step: ask_hours, type: collect, slot: hours, message: "For how many hours?"}
      - {step: ask_day, type: collect, slot: day, message: "Which day?"}
      - {step: ask_kind, type: collect, slot: kind, message: "Quiet or group?"}
      - {step: done, type: say, message: "Reserved."}
  opening_times:
    description: say when the library opens, three hours on a friday
    trigger: {intents: ["when do you open"]}
    steps:
      - {step: done, type: say, message: "From nine."}
  extend_membership:
    description: extend a library membership
    trigger: {intents: ["extend my membership"]}
    steps:
      - {step: done, type: say, message: "Extended."}
`
