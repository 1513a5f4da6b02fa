package understand

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
)

// library reads messages in states of testdata/library, a library's
// assistant written as an imported one.
func library(t *testing.T) func(before []string, msg string) (Reading, vm.View) {
	t.Helper()
	res := compiler.Compile("testdata/library", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	return reader(t, res.Program)
}

// TestOpeningNamesTheFlowsThing: a message whose one word of a flow is
// the thing the flow is about, named as a thing (after a determiner or
// "about"), starts the flow though its other words are no flow's: they
// say what the user wants of it. So does one whose words no flow knows
// name no thing (no determiner before them). A flow's word used as a
// verb, with a thing no flow knows, starts nothing.
func TestOpeningNamesTheFlowsThing(t *testing.T) {
	t.Parallel()
	runCasesWith(t, library(t), []gcase{
		{"a question about it", nil, "I have a question about my fees", "start_flow understand_fee", false},
		{"why so high", nil, "why is my fee so high?", "start_flow understand_fee", false},
		{"the thing named with a value", nil, "can you explain my March fee", "start_flow understand_fee fee_month=March", true},
		{"a verb of the flow and another thing", nil, "reserve me a pizza", "fallback", false},
		{"another thing after its adjective", nil, "can you reserve a nice table", "fallback", false},
		{"words around the flow's own that name nothing", nil, "I still can't reserve, it keeps failing", "start_flow reserve_room", false},
		{"its object", nil, "reserve me pizza", "fallback", false},
	})
}

// TestHelpInOtherWords: a whole message that asks what the assistant
// can do, in other words than the help phrases (a question word, the
// assistant, a verb of being able or helping), is a request for help;
// one that names a subject is not.
func TestHelpInOtherWords(t *testing.T) {
	t.Parallel()
	runCasesWith(t, library(t), []gcase{
		{"what else", nil, "what else can you help me with?", "help", true},
		{"capable", nil, "so what are you capable of", "help", true},
		{"assist", nil, "how could you assist us", "help", true},
		{"what it is for", nil, "no idea what this assistant is for", "help", true},
		{"kinds of things", nil, "which kinds of things could I ask?", "help", true},
		{"a subject is no help", nil, "how can you help me with my fees", "start_flow understand_fee", false},
	})
}

// TestDescriptionsSpeakOfWhatFlowsDo: a description that starts by
// speaking of the flow and the people it serves ("This flow lets members
// donate books...", and the phrases an import makes of it) is read from
// what the flow does: "donate" is its first word, which starts it alone.
func TestDescriptionsSpeakOfWhatFlowsDo(t *testing.T) {
	t.Parallel()
	runCasesWith(t, library(t), []gcase{
		{"the description's verb", nil, "I'd like to donate", "start_flow spare_copies", true},
		{"its verb and its thing", nil, "can I donate some old books?", "start_flow spare_copies", true},
	})
	for in, want := range map[string]string{
		"this flow lets members donate books":        "donate books",
		"this flow allows users":                     "",
		"help the customer to choose a room":         "choose a room",
		"flow for handling questions":                "handling questions",
		"reserve a study room in the library":        "reserve a study room in the library",
		"this flow collects feedback":                "collects feedback",
		"facilitates the process of renewing a loan": "renewing a loan",
	} {
		assert.Equal(t, want, aboutText(in), in)
	}
}

// TestOpeningValueAsItsQuestionAsks: an opening gives a place, person,
// origin or recipient slot its value after the words its own question
// starts with ("In which town do you live?", an imported response, is
// answered "in Northfield"), though the slot's name makes it a
// recipient's and another slot shares that role.
func TestOpeningValueAsItsQuestionAsks(t *testing.T) {
	t.Parallel()
	runCasesWith(t, library(t), []gcase{
		{"the question's carrier", nil, "please deliver my books in Northfield", "start_flow deliver_books delivery_destination=Northfield", true},
		{"no carrier, no value", nil, "please deliver my books", "start_flow deliver_books", true},
	})
}

// TestOpeningIdentifierAfterItsSlotsWord: an opening gives a free-text
// slot the identifier it names after a word of the slot's name ("loan
// 88412" for loan_number); a short number or a word with no digit is no
// identifier.
func TestOpeningIdentifierAfterItsSlotsWord(t *testing.T) {
	t.Parallel()
	runCasesWith(t, library(t), []gcase{
		{"after the slot's word", nil, "please renew loan 88412", "start_flow renew_loan loan_number=88412", true},
		{"letters and digits", nil, "renew my loan number LN-2231", "start_flow renew_loan loan_number=LN-2231", true},
		{"a count is no identifier", nil, "renew my loan for 3 weeks", "start_flow renew_loan loan_weeks=3", true},
	})
}

// TestPraiseIsSmallTalk: praise of what the assistant said ("that was
// really useful"), alone or after thanks, is an acknowledgement, not a
// request for the flow whose words ("help") it shares; thanks for
// something ("thank you for your time") is thanks.
func TestPraiseIsSmallTalk(t *testing.T) {
	t.Parallel()
	res := compiler.Compile("testdata/printing", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	runCasesWith(t, reader(t, res.Program), []gcase{
		{"thanks and it helped", nil, "thanks so much, that helped a lot", "chitchat (thanks)", true},
		{"thanks and helpful", nil, "thank you, that's very helpful", "chitchat (thanks)", true},
		{"praise alone", nil, "that was really useful", "chitchat (ack)", true},
		{"thanks for something", nil, "thank you for your time", "chitchat (thanks)", true},
		{"many thanks for it", nil, "many thanks for the quick answer", "chitchat (thanks)", true},
		{"the flow's phrase", nil, "help", "start_flow printer_help", true},
		{"the flow's words", nil, "the printer needs help", "start_flow printer_help", true},
	})
}

// TestTriggerWordsMeaningAnotherFlow: a message that matches a flow's
// short phrase weakly ("help you") but whose other words mean another
// flow starts that other flow.
func TestTriggerWordsMeaningAnotherFlow(t *testing.T) {
	t.Parallel()
	res := compiler.Compile("testdata/scanroom", compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	read := reader(t, res.Program)
	rd, _ := read(nil, "help, I need to send a scan by email")
	assert.Equal(t, "start_flow scan_document", describeCmds(rd.Commands), rd.Reason)
	assert.Equal(t, "trigger", rd.Rule)
	rd, _ = read(nil, "help you with what?")
	assert.Equal(t, "start_flow scan_room_help", describeCmds(rd.Commands), rd.Reason)
}
