package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// importedYAML is a bot written the way projects imported from another
// framework are: amounts, dates and yes/no answers kept in text slots
// that a model used to read, example phrases with people's names in
// them, and several flows that share the words of paying.
const importedYAML = `version: "1.0"
slots:
  cake_kind: {type: categorical, values: [lemon, chocolate, carrot]}
flows:
  order_cake:
    description: order a cake
    trigger: {intents: ["order a cake"]}
    steps:
      - {step: fill, type: call, target: fill_cake}
      - {step: done, type: say, message: "ordered"}
  fill_cake:
    description: the details of a cake order
    steps:
      - {step: ask_kind, type: collect, slot: cake_kind, message: "Which cake?"}
  pay_friend:
    description: send money to people you know
    trigger: {intents: ["send money", "transfer money"]}
    slots:
      - {name: payee, type: text, description: the name of a person}
      - {name: pay_amount, type: text, description: the amount of money without any currency sign}
      - {name: pay_ok, type: text, description: accepts True or False}
    steps:
      - {step: ask_payee, type: collect, slot: payee, message: "Who gets the money?"}
      - {step: ask_amount, type: collect, slot: pay_amount, message: "How much?"}
      - {step: ask_ok, type: collect, slot: pay_ok, message: "Shall I send it?"}
  regular_payment:
    description: set up a regular payment from your account
    trigger: {intents: ["set up a standing order", "set up a regular payment"]}
    slots:
      - {name: so_payee, type: text, description: the name of a person}
      - {name: so_amount, type: number}
      - {name: so_first_date, type: any, description: the first date of the payment}
    steps:
      - {step: ask_so_payee, type: collect, slot: so_payee, message: "Who is it for?"}
      - {step: ask_so_amount, type: collect, slot: so_amount, message: "How much each time?"}
      - {step: ask_so_first, type: collect, slot: so_first_date, message: "When should it start?"}
  follow_user:
    description: follow someone on the feed
    trigger: {intents: ["follow someone"]}
    slots:
      - {name: user_handle, type: text, description: a user handle starting with @}
    steps:
      - {step: ask_handle, type: collect, slot: user_handle, message: "Whom?"}
  verify_identity:
    description: verify your identity
    trigger: {intents: ["verify my identity"]}
    slots:
      - {name: id_kind, type: categorical, values: [passport, "driving licence", "national id card"]}
    steps:
      - {step: ask_kind, type: collect, slot: id_kind, message: "Which document?"}
  statement:
    description: list the latest transactions of an account
    trigger: {intents: ["list transactions", "latest transactions"]}
    steps: [{step: s, type: say, message: ok}]
  raise_limit:
    description: raise the daily spending limit
    trigger: {intents: ["raise my limit", "Can my limit go up for bigger transaction amounts?"]}
    steps: [{step: s, type: say, message: ok}]
  add_friend:
    description: add a person to your address book
    trigger: {intents: ["add a friend", "How do I add Lucy to my friends?", "Can you put Omar on my friend list?"]}
    slots:
      - {name: friend_name, type: text, description: the name of a person}
    steps:
      - {step: ask_friend, type: collect, slot: friend_name, message: "Who should I add?"}
  remove_friend:
    description: remove a person from your address book
    trigger: {intents: ["remove a friend", "Please take Lucy off my friends.", "Delete Omar from my friend list."]}
    steps: [{step: s, type: say, message: ok}]
`

func importedProgram(t *testing.T) *ir.Program {
	t.Helper()
	res := compiler.CompileSource("imported.yaml", []byte(importedYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	return res.Program
}

// readImported reads a message in a state of importedProgram reached by
// earlier messages.
func readImported(t *testing.T) func(before []string, msg string) (Reading, vm.View) {
	t.Helper()
	return reader(t, importedProgram(t))
}

// TestTextSlotsThatHoldValues: a text slot whose name or description says
// it holds an amount, a date or a yes/no is read as one, and given its
// value as text.
func TestTextSlotsThatHoldValues(t *testing.T) {
	t.Parallel()
	read := readImported(t)
	atAmount := []string{"send money", "Tomasz"}
	atOK := []string{"send money", "Tomasz", "75"}
	atFirst := []string{"set up a standing order", "Tomasz", "20"}
	runCasesWith(t, read, []gcase{
		{"an amount with its symbol", atAmount, "75€", `set_slot pay_amount=75`, true},
		{"an amount in words", atAmount, "eighty dollars", `set_slot pay_amount=80`, true},
		{"an amount in a sentence", atAmount, "ah ok, I owe him $60", `set_slot pay_amount=60`, true},
		{"no number is no amount", atAmount, "no idea", "fallback", false},
		{"a date in an any slot", atFirst, "March 3rd, 2031", `set_slot so_first_date=2031-03-03`, true},
		{"yes to a text slot that takes true or false", atOK, "yes please", "set_slot pay_ok=true", true},
		{"no to it", atOK, "nope", "set_slot pay_ok=false", true},
	})
	// The values of a text slot are text: "75", never 75.
	rd, _ := read(atAmount, "eighty dollars")
	require.Len(t, rd.Commands, 1)
	assert.Equal(t, "80", rd.Commands[0].Value)
	// An opening message's amount, as text.
	rd, _ = read(nil, "I'd like to send 40 dollars")
	assert.Equal(t, "start_flow pay_friend pay_amount=40", describeCmds(rd.Commands), rd.Reason)
	require.Len(t, rd.Commands[0].Slots, 1)
	assert.Equal(t, "40", rd.Commands[0].Slots[0].Value)
}

// TestReadAs: which free-text slots hold a number, a date or a yes/no.
func TestReadAs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		slot ir.Slot
		want ir.SlotType
	}{
		{ir.Slot{Name: "amount_of_money", Type: ir.TypeText}, ir.TypeNumber},
		{ir.Slot{Name: "x", Type: ir.TypeText, Description: "the price of the item"}, ir.TypeNumber},
		{ir.Slot{Name: "guests", Type: ir.TypeAny, Description: "the number of people"}, ir.TypeNumber},
		{ir.Slot{Name: "start_date", Type: ir.TypeAny}, ir.TypeDate},
		{ir.Slot{Name: "ok", Type: ir.TypeText, Description: "accepts yes or no"}, ir.TypeBoolean},
		{ir.Slot{Name: "remove_friend_confirmation", Type: ir.TypeText}, ir.TypeBoolean},
		{ir.Slot{Name: "confirmation_code", Type: ir.TypeText}, ""},
		{ir.Slot{Name: "order_confirmation", Type: ir.TypeText, Description: "the text of the order confirmation"}, ""},
		{ir.Slot{Name: "phone_number", Type: ir.TypeText}, ""},
		{ir.Slot{Name: "price_comment", Type: ir.TypeText}, ""},
		{ir.Slot{Name: "amount_currency", Type: ir.TypeText}, ""},
		{ir.Slot{Name: "update_reason", Type: ir.TypeText}, ""},
		{ir.Slot{Name: "appointment_time", Type: ir.TypeText}, ""},
		{ir.Slot{Name: "code", Type: ir.TypeText, Pattern: "[0-9]+", Description: "the amount"}, ""},
		{ir.Slot{Name: "amount", Type: ir.TypeNumber}, ""},
	} {
		got := readAs(&tc.slot)
		if tc.want == "" {
			assert.Nil(t, got, tc.slot.Name)
			continue
		}
		if assert.NotNil(t, got, tc.slot.Name) {
			assert.Equal(t, tc.want, got.Type, tc.slot.Name)
		}
	}
}

// TestTiesByWhatFlowsAreAbout: flows that share a concept are told apart
// by their name and description, then by their own words, never by an
// example phrase's name.
func TestTiesByWhatFlowsAreAbout(t *testing.T) {
	t.Parallel()
	read := readImported(t)
	runCasesWith(t, read, []gcase{
		{"the flow about transactions", nil, "show the transactions please", "start_flow statement", false},
		{"small talk before the request", []string{"send money", "Tomasz"}, "ah, one moment, show the latest transactions", "start_flow statement", false},
		{"send is the flow that sends, not a payment", nil, "I'd like to send 75€ to Priya", "start_flow pay_friend payee=Priya pay_amount=75", true},
		{"a name in an example phrase is no word of the flow", nil, "add Bruno to my friends", "start_flow add_friend friend_name=Bruno", true},
		{"the object of the flow's verb", nil, "send Priya 40", "start_flow pay_friend payee=Priya pay_amount=40", true},
		{"a possessive object", nil, "send my cousin 40", "start_flow pay_friend payee=my cousin pay_amount=40", true},
	})
}

// TestCorrectionsOfAnotherSlotAtACollect: at a question that takes a
// number, a name corrects the flow's free-text slot, and the old value
// said before or after the new one is not part of it.
func TestCorrectionsOfAnotherSlotAtACollect(t *testing.T) {
	t.Parallel()
	read := readImported(t)
	atAmount := []string{"send money", "Tomasz"}
	atOK := []string{"send money", "Tomasz", "75"}
	runCasesWith(t, read, []gcase{
		{"I meant a name at the amount", atAmount, "oh sorry, I meant Tomas", "correct_slot payee=Tomas", false},
		{"meant to say", atAmount, "sorry, I meant to say Tomas", "correct_slot payee=Tomas", false},
		{"the old value last", atAmount, "I meant to say Tomas, not Tomasz", "correct_slot payee=Tomas", false},
		{"the old value first", atOK, "hmm, not 75, I meant 85", "correct_slot pay_amount=85", true},
	})
}

// TestLexiconWordsBeforeStems: a word of a project's lexicon is its own
// group's, not another group's stem ("new" is not "news").
func TestLexiconWordsBeforeStems(t *testing.T) {
	t.Parallel()
	l := newLex(map[string][]string{"replacement": {"new"}, "status": {"news"}})
	assert.Equal(t, l.concept("replacement"), l.concept("new"))
	assert.Equal(t, l.concept("status"), l.concept("news"))
}

// TestWithoutNames: the names of example phrases stand for any value.
func TestWithoutNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"How do I add Lucy to my friends?": "How do I add  to my friends?",
		"Delete Omar from my list.":        "Delete  from my list.",
		"I'm moving. Ana is my sister":     "I'm moving. Ana is my sister",
		"Check My Balance":                 "Check My Balance",
		"block my PIN now":                 "block my PIN now",
		"send it":                          "send it",
	} {
		assert.Equal(t, want, withoutNames(in), in)
	}
}

// TestMarkedWordsAndPartsOfValues: a free-text slot whose description
// says its values start with a symbol takes the word that does; a
// categorical value of several words is named by part of them; a name
// after "just" is the name.
func TestMarkedWordsAndPartsOfValues(t *testing.T) {
	t.Parallel()
	read := readImported(t)
	atKind := []string{"verify my identity"}
	runCasesWith(t, read, []gcase{
		{"a handle in a sentence", []string{"follow someone"}, "oh she told me, it's @lina_k", "set_slot user_handle=@lina_k", false},
		{"a handle in the opening", nil, "follow @lina_k", "start_flow follow_user user_handle=@lina_k", true},
		{"part of a value", atKind, "the licence", "set_slot id_kind=driving licence", true},
		{"another part", atKind, "d licence", "set_slot id_kind=driving licence", true},
		{"the start of a value's word", atKind, "my pass", "set_slot id_kind=passport", true},
		{"starts too short to name a value", atKind, "nat lic", "set_slot id_kind=nat lic", false},
		{"words of two values name neither", atKind, "national licence", "set_slot id_kind=national licence", false},
		{"a word of no value names none", atKind, "my student card", "set_slot id_kind=my student card", false},
		{"just a name", []string{"send money"}, "just Tomasz", "set_slot payee=Tomasz", true},
		{"a conversation slot a called flow collects", nil, "I'd like to order a lemon cake", "start_flow order_cake cake_kind=lemon", true},
	})
}
