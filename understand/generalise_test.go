package understand

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// fakeActions answers every action with a value for each declared output.
type fakeActions struct{ prog *ir.Program }

func (f fakeActions) RunAction(_ context.Context, req vm.ActionRequest) (map[string]any, error) {
	out := map[string]any{}
	for _, a := range f.prog.Actions {
		if a.Name != req.Action {
			continue
		}
		for _, o := range a.Outputs {
			switch {
			case strings.Contains(o, "balance"), strings.Contains(o, "fare"), strings.Contains(o, "price"):
				out[o] = 9000.0
			case strings.Contains(o, "days"), strings.Contains(o, "hours"):
				out[o] = int64(3)
			default:
				out[o] = "X1"
			}
		}
	}
	return out, nil
}

// example compiles an example project and returns a function that
// reaches a state by messages and reads one more message there, on
// Wednesday 2027-03-10.
func example(t *testing.T, name string) func(before []string, msg string) (Reading, vm.View) {
	t.Helper()
	res := compiler.Compile("../flows/"+name, compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	return reader(t, res.Program)
}

// reader reaches a state of a program by messages and reads one more
// message there, on Wednesday 2027-03-10.
func reader(t *testing.T, p *ir.Program) func(before []string, msg string) (Reading, vm.View) {
	t.Helper()
	r := New(p)
	now := time.Date(2027, 3, 10, 12, 0, 0, 0, time.UTC)
	m, err := vm.New(p, vm.Options{Understander: r, Actions: fakeActions{p}, Now: func() time.Time { return now }})
	require.NoError(t, err)
	return func(before []string, msg string) (Reading, vm.View) {
		st := m.NewState("t")
		for _, b := range before {
			res, err := m.Turn(context.Background(), st, vm.Input{Text: b})
			require.NoError(t, err, b)
			st = res.State
		}
		v := m.View(st)
		v.Now = now
		rd, err := r.Read(context.Background(), msg, v)
		require.NoError(t, err)
		return rd, v
	}
}

type gcase struct {
	name   string
	before []string
	msg    string
	want   string // the commands, as describe writes them
	sure   bool
}

func describeCmds(cmds []vm.Command) string {
	var parts []string
	for _, c := range cmds {
		s := string(c.Kind)
		if c.Flow != "" {
			s += " " + c.Flow
		}
		for _, sv := range c.Slots {
			s += " " + sv.Slot + "=" + fmtValue(sv.Value)
		}
		if c.Slot != "" {
			s += " " + c.Slot + "=" + fmtValue(c.Value)
		}
		if len(c.Flows) > 0 {
			s += " " + strings.Join(c.Flows, ",")
		}
		if c.SmallTalk != "" {
			s += " (" + c.SmallTalk + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func fmtValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v)
}

func runGeneral(t *testing.T, project string, cases []gcase) {
	t.Helper()
	runCasesWith(t, example(t, project), cases)
}

// runCasesWith reads each case's message in the state its earlier
// messages reach.
func runCasesWith(t *testing.T, read func(before []string, msg string) (Reading, vm.View), cases []gcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rd, _ := read(tc.before, tc.msg)
			assert.Equal(t, tc.want, describeCmds(rd.Commands), "%q: %s", tc.msg, rd.Reason)
			assert.Equal(t, tc.sure, rd.Sure, "%q: sure? %s", tc.msg, rd.Reason)
		})
	}
}

// TestOpeningsByMeaning: flows start by the meaning of their words
// (lexicon, stems, typos), with the values of the opening message; a tie
// is a clarify; the rules are sure of an exact trigger, and of one
// flow's words with each value named (widen.go).
func TestOpeningsByMeaning(t *testing.T) {
	t.Parallel()
	runGeneral(t, "travel", []gcase{
		{"exact trigger is sure", nil, "book a flight", "start_flow book_flight", true},
		{"trigger with polite words is sure", nil, "I'd like to book a flight please", "start_flow book_flight", true},
		{"fly is a flight, with values", nil, "I need to fly to Paris next friday", "start_flow book_flight destination=Paris departure_date=2027-03-19", true},
		{"from and to", nil, "book a flight from Madrid to London next Friday", "start_flow book_flight origin=Madrid destination=London departure_date=2027-03-19", true},
		{"hotel with nights", nil, "a hotel in Paris for 3 nights", "start_flow book_hotel city=Paris nights=3", true},
		{"room is a hotel", nil, "can I get a room in Rome", "start_flow book_hotel city=Rome", true},
		{"typo", nil, "i want to bok a flihgt", "start_flow book_flight", false},
		{"spanish", nil, "quiero un vuelo a Lisboa", "start_flow book_flight destination=Lisboa", true},
		{"book alone is a tie", nil, "I want to book", "clarify book_flight,book_hotel", false},
		{"out of scope", nil, "rent me a car", "fallback", false},
		{"a number that counts something else", nil, "we need 2 rooms in Florence", "start_flow book_hotel city=Florence", false},
		{"spanish with a date after the name", nil, "necesito volar a Roma el lunes", "start_flow book_flight destination=Roma departure_date=2027-03-15", true},
		{"a train is not a flight", nil, "book a train to Lyon", "fallback", false},
	})
	runGeneral(t, "banking", []gcase{
		{"send with amount and name", nil, "send 50 euros to Ana", "start_flow transfer_funds recipient=Ana amount=50", true},
		{"wire is a transfer", nil, "wire 200 to my mom", "start_flow transfer_funds recipient=my mom amount=200", true},
		{"freeze is a block", nil, "please freeze my card", "start_flow lost_card", true},
		{"stolen", nil, "someone stole my credit card", "start_flow lost_card", false},
		{"balance in words", nil, "how much do I have in savings?", "start_flow check_balance account_type=savings", true},
		{"typos in an opening", nil, "I wnat to send mony to Bob", "start_flow transfer_funds recipient=Bob", false},
	})
	runGeneral(t, "support", []gcase{
		{"problem", nil, "my internet isn't working", "start_flow open_ticket description=my internet isn't working", false},
		{"status with a ticket", nil, "any update on T-44556?", "start_flow check_ticket_status ticket_id=T-44556", true},
		{"a word of a categorical value says what a flow is about", nil, "my laptop keeps crashing", "start_flow open_ticket category=technical description=my laptop keeps crashing", false},
		{"a word of a longer synonym does not", nil, "no", "fallback", false},
	})
}

// TestAnswersAsPeopleSayThem: free text without its carrier words,
// numbers and dates in words, corrections in free words, small talk,
// more yes/no words, cancel in other words, codes normalised, and no
// question that traps a digression.
func TestAnswersAsPeopleSayThem(t *testing.T) {
	t.Parallel()
	toConfirm := []string{"send money", "Ana", "50", "checking"}
	runGeneral(t, "banking", []gcase{
		{"a bare name is sure", []string{"send money"}, "Maria", "set_slot recipient=Maria", true},
		{"to Maria", []string{"send money"}, "to Maria", "set_slot recipient=Maria", true},
		{"to my mom", []string{"send money"}, "to my mom", "set_slot recipient=my mom", true},
		{"fifty euros", []string{"send money", "Ana"}, "fifty euros", "set_slot amount=50", true},
		{"seventy five please", []string{"send money", "Ana"}, "seventy five please", "set_slot amount=75", true},
		{"a digit amount is sure", []string{"send money", "Ana"}, "50", "set_slot amount=50", true},
		{"one moment is no amount", []string{"send money", "Ana"}, "one moment", "chitchat (wait)", false},
		{"no wait, send it to Maria instead", toConfirm, "no wait, send it to Maria instead", "correct_slot recipient=Maria", false},
		{"oops I meant 60", toConfirm, "oops, I meant 60", "correct_slot amount=60", true},
		{"make it 60", toConfirm, "hmm, make it 60", "correct_slot amount=60", true},
		{"60 instead", toConfirm, "60 instead", "correct_slot amount=60", true},
		{"that works", toConfirm, "that works", "affirm", true},
		{"go ahead", toConfirm, "go ahead", "affirm", true},
		{"thumbs up", toConfirm, "👍", "affirm", true},
		{"thumbs down", toConfirm, "👎", "deny", true},
		{"nah", toConfirm, "nah", "deny", true},
		{"scrap that", toConfirm, "scrap that", "cancel_flow", true},
		{"stop stop stop", []string{"send money"}, "stop stop stop", "cancel_flow", true},
		{"forget the transfer", []string{"send money", "Ana"}, "forget the transfer", "cancel_flow", true},
		{"hi is a greeting", nil, "hi", "chitchat (greet)", true},
		{"thanks!", []string{"send money"}, "thanks!", "chitchat (thanks)", false},
		{"bye", nil, "bye", "chitchat (goodbye)", true},
		{"thanks, bye is a goodbye", nil, "thanks, bye", "chitchat (goodbye)", true},
		{"hang on", []string{"send money"}, "hang on", "chitchat (wait)", false},
		{"un momento", []string{"send money", "Ana"}, "un momento", "chitchat (wait)", false},
		{"gracias", nil, "muchas gracias", "chitchat (thanks)", true},
		{"adios", nil, "¡adiós!", "chitchat (goodbye)", true},
		{"a thumbs up with nothing pending", nil, "👍", "chitchat (ack)", false},
		{"a thumbs down with nothing pending", nil, "👎", "chitchat", false},
		{"cool", nil, "ok cool", "chitchat (ack)", true},
		{"small talk of no kind", nil, "tell me a joke", "chitchat", true},
		{"a person", []string{"send money", "Ana"}, "let me talk to a person", "human_handoff", true},
		{"spanish person", nil, "quiero hablar con una persona", "human_handoff", true},
		{"help at a question", []string{"send money", "Ana"}, "what are my options?", "help", true},
		{"say that again", []string{"send money"}, "sorry, say that again?", "repeat_bot_messages", false},
		{"what?", []string{"send money", "Ana"}, "what?", "repeat_bot_messages", false},
		{"skip this question", []string{"send money"}, "skip this question please", "skip_question", false},
		{"no trapping after the greeting", []string{"hello"}, "I wnat to send mony to Bob", "start_flow transfer_funds recipient=Bob", false},
		{"a flow's trigger after the greeting", []string{"hello"}, "balance", "start_flow check_balance", true},
		{"a digression at a number question", []string{"send money", "Ana"}, "actually I lost my card", "start_flow lost_card", false},
		{"card digits normalised", []string{"block my card"}, "48 21", "set_slot card_last4=4821", true},
		{"a greeting before a request", nil, "hola, quiero mandar dinero a mi padre", "start_flow transfer_funds recipient=mi padre", true},
		{"not sure is no name", []string{"send money"}, "not sure yet", "fallback", false},
	})
	runGeneral(t, "travel", []gcase{
		{"from Manchester", []string{"book a flight"}, "from Manchester", "set_slot origin=Manchester", true},
		{"leaving from", []string{"book a flight"}, "I'm leaving from Barcelona", "set_slot origin=Barcelona", true},
		{"departing from", []string{"book a flight"}, "we're departing from Chicago", "set_slot origin=Chicago", true},
		{"going to", []string{"book a flight", "Madrid"}, "going to New York", "set_slot destination=New York", true},
		{"next friday", []string{"book a flight", "Madrid", "Paris"}, "next friday", "set_slot departure_date=2027-03-19", true},
		{"el viernes", []string{"book a flight", "Madrid", "Paris"}, "el viernes", "set_slot departure_date=2027-03-12", true},
		{"a numeric date that reads both ways", []string{"book a flight", "Madrid", "Paris"}, "12/04/2027", "set_slot departure_date=12/04/2027", false},
		{"change the city", []string{"book a hotel", "Rome"}, "change the city to Milan", "correct_slot city=Milan", false},
		{"two passengers in words", []string{"book a flight", "Madrid", "Paris", "tomorrow", "economy"}, "two", "set_slot passengers=2", true},
	})
	runGeneral(t, "support", []gcase{
		{"ticket code normalised", []string{"check my ticket"}, "t 44556", "set_slot ticket_id=T-44556", true},
	})
}

// TestProjectLexicon: a project's settings extend the built-in lexicon.
func TestProjectLexicon(t *testing.T) {
	t.Parallel()
	p := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		{Name: "refill", Triggers: []string{"refill my prescription"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
	}}
	before, err := New(p).Read(context.Background(), "renew my meds", vm.View{})
	require.NoError(t, err)
	assert.Equal(t, "fallback", describeCmds(before.Commands))
	p.Settings.Understanding = &ir.Understanding{Lexicon: map[string][]string{"refill": {"renew", "top up"}, "prescription": {"meds", "medicine"}}}
	after, err := New(p).Read(context.Background(), "renew my meds", vm.View{})
	require.NoError(t, err)
	assert.Equal(t, "start_flow refill", describeCmds(after.Commands), after.Reason)
}

// TestFreeTextCarriers: at a free-text question the carrier words of the
// slot's role, and lead-in words, are not part of the value.
func TestFreeTextCarriers(t *testing.T) {
	t.Parallel()
	p := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{{
		Name: "reserve_table", Triggers: []string{"reserve a table"},
		Slots: []*ir.Slot{{Name: "guest_name", Type: ir.TypeText, Description: "Name of the guest"}},
		Nodes: []*ir.Node{{ID: "ask", Kind: ir.KindCollect, Slot: "guest_name", Message: &ir.Template{Src: "What name is the booking under?"}}},
	}}}
	r := New(p)
	v := vm.View{Stack: []string{"reserve_table"}, Pending: &vm.Pending{Kind: vm.PendingCollect, Flow: "reserve_table", Step: "ask", Slot: "guest_name"}}
	for msg, want := range map[string]string{
		"it's under John Carter":   "set_slot guest_name=John Carter",
		"put it under John Carter": "set_slot guest_name=John Carter",
		"it's John Carter":         "set_slot guest_name=John Carter",
		"my name is Ana":           "set_slot guest_name=Ana",
		"John Carter":              "set_slot guest_name=John Carter",
	} {
		rd, err := r.Read(context.Background(), msg, v)
		require.NoError(t, err)
		assert.Equal(t, want, describeCmds(rd.Commands), msg)
		// The name, bare or with only carrier words around it (issue 27
		// §3: the rest of the message means no flow).
		assert.True(t, rd.Sure, "%q: %s", msg, rd.Reason)
	}
}

// TestCancelsAndCorrectionsInPassing: a correction after an
// exclamation, a cancel word followed by a cancel request, and a cancel
// followed by a new request (which cancels the flow on top and starts
// the other; never sure).
func TestCancelsAndCorrectionsInPassing(t *testing.T) {
	t.Parallel()
	toConfirm := []string{"send money", "Ana", "50", "checking"}
	runGeneral(t, "banking", []gcase{
		{"an exclamation before should be", toConfirm, "damn, should be Maria", "correct_slot recipient=Maria", false},
		{"shoot before should be, a number", toConfirm, "shoot, should be 60", "correct_slot amount=60", true},
		{"darn before make it", toConfirm, "darn, make it Maria", "correct_slot recipient=Maria", false},
		{"an exclamation at a collect", []string{"send money", "Ana"}, "dang, I meant Maria", "correct_slot recipient=Maria", false},
		{"an exclamation alone is no correction", toConfirm, "damn", "fallback", false},
		{"a cancel word then a cancel verb", []string{"send money", "Ana"}, "never mind, cancel the transfer", "cancel_flow", true},
		{"forget it then cancel this", []string{"send money"}, "oh forget it, cancel this", "cancel_flow", false},
		{"stop that then a request", toConfirm, "ah, one moment stop that. I want to check my balance", "cancel_flow; start_flow check_balance", false},
		{"cancel that then a question for a flow", []string{"send money"}, "hold on, cancel that, what's my balance in savings?", "cancel_flow; start_flow check_balance account_type=savings", false},
		{"forget it then a request", []string{"send money", "Ana"}, "forget it, my card was stolen", "cancel_flow; start_flow lost_card", false},
		{"stop that then the same flow is no request", []string{"send money", "Ana"}, "stop that, I want to send money", "start_flow transfer_funds", false},
		{"stop that then words of no flow", []string{"send money", "Ana"}, "stop that, it is annoying me", "set_slot amount=stop that, it is annoying me", false},
		{"never mind then a request is the request", []string{"send money", "Ana"}, "never mind, I want to check my balance", "start_flow check_balance", false},
		{"with nothing to cancel, only the request", nil, "stop that, I want to check my balance", "start_flow check_balance", false},
		{"use a name as the slot", toConfirm, "please use Maria as the recipient", "correct_slot recipient=Maria", false},
		{"put a number for the slot, after a filler", toConfirm, "oh, put 60 for the amount", "correct_slot amount=60", false},
		{"go with a category for a slot named by one word", toConfirm, "go with savings for the account", "correct_slot account_type=savings", false},
		{"use as the asked slot, polite words after", []string{"send money", "Ana"}, "can you use 75 as the amount please", "set_slot amount=75", true},
		{"a pronoun is no value", []string{"send money", "Ana"}, "use it for the amount", "set_slot amount=use it for the amount", false},
		{"for what is no slot", toConfirm, "use the money for rent", "fallback", false},
	})
}

// TestFreeTextThenANumber: at a free-text question, a short answer
// followed by a carrier and a number for the flow's number slot sets
// both; the words after the number must say that slot (or a currency),
// and two number slots that could take it take nothing. Never sure.
func TestFreeTextThenANumber(t *testing.T) {
	t.Parallel()
	runGeneral(t, "banking", []gcase{
		{"a name, then an amount with its currency", []string{"send money"}, "Ana for 50 euros", "set_slot recipient=Ana; set_slot amount=50", false},
		{"worth after a comma", []string{"send money"}, "my landlord, worth 850", "set_slot recipient=my landlord; set_slot amount=850", false},
		{"a time is no amount", []string{"send money"}, "Bob at 5 pm", "set_slot recipient=Bob at 5 pm", false},
		{"a count of something else", []string{"send money"}, "Bob for 3 people", "set_slot recipient=Bob for 3 people", false},
		{"for and no number", []string{"send money"}, "Bob for his birthday", "set_slot recipient=Bob for his birthday", false},
	})
	runGeneral(t, "travel", []gcase{
		{"a city, then nights", []string{"book a hotel"}, "Rome for 3 nights", "set_slot city=Rome; set_slot nights=3", false},
		{"a city, then people where nights are counted", []string{"book a hotel"}, "Oslo for 2 people", "set_slot city=Oslo for 2 people", false},
		{"a number word", []string{"book a hotel"}, "Porto, for two nights please", "set_slot city=Porto; set_slot nights=2", false},
		{"the only number slot of the flow", []string{"book a flight"}, "from Madrid for 2", "set_slot origin=Madrid; set_slot passengers=2", false},
	})
}

// TestOneWordOfThreeFlows: a message of one word that three flows share
// as much (through the project's lexicon), and none is about more than the others, offers the three
// (clarify); four are too many to offer, and a word with others no flow
// knows is no choice.
func TestOneWordOfThreeFlows(t *testing.T) {
	t.Parallel()
	say := []*ir.Node{{ID: "s", Kind: ir.KindSay, Message: &ir.Template{Src: "ok"}}}
	settings := ir.DefaultSettings()
	settings.Understanding = &ir.Understanding{Lexicon: map[string][]string{"money": {"cash", "funds", "dinero"}}}
	p := &ir.Program{IRVersion: ir.Version, Settings: settings, Flows: []*ir.Flow{
		{Name: "send_payment", Triggers: []string{"send money to a friend"}, Nodes: say},
		{Name: "show_savings", Triggers: []string{"save money every month"}, Nodes: say},
		{Name: "invest", Triggers: []string{"invest my money in stocks"}, Nodes: say},
		{Name: "book_trip", Triggers: []string{"book a trip"}, Nodes: say},
	}}
	r := New(p)
	for _, tc := range []struct{ msg, want string }{
		{"cash", "clarify invest,send_payment,show_savings"},
		{"funds?", "clarify invest,send_payment,show_savings"},
		{"dinero", "clarify invest,send_payment,show_savings"},
		{"cash for the parking meter", "fallback"},
	} {
		rd, err := r.Read(context.Background(), tc.msg, vm.View{})
		require.NoError(t, err)
		assert.Equal(t, tc.want, describeCmds(rd.Commands), "%q: %s", tc.msg, rd.Reason)
		assert.False(t, rd.Sure, tc.msg)
	}
	p.Flows = append(p.Flows, &ir.Flow{Name: "budget", Triggers: []string{"plan my money"}, Nodes: say})
	rd, err := New(p).Read(context.Background(), "cash", vm.View{})
	require.NoError(t, err)
	assert.Equal(t, "fallback", describeCmds(rd.Commands), "four flows are too many to offer: %s", rd.Reason)
}
