package understand

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/values"
	"github.com/soni-dev/soni/vm"
)

func ptr(f float64) *float64 { return &f }
func idx(i int) *int         { return &i }

func collect(id, slot string) *ir.Node {
	return &ir.Node{ID: id, Kind: ir.KindCollect, Slot: slot, Message: &ir.Template{Src: "?"}}
}

// testProgram is a small banking and travel bot.
func testProgram() *ir.Program {
	settings := ir.DefaultSettings()
	// The bank's own words (the rules know no domain's words).
	settings.Understanding = &ir.Understanding{Lexicon: map[string][]string{
		"send":    {"move", "wire"},
		"money":   {"cash", "euros"},
		"balance": {"how much do i have", "cuanto tengo"},
	}}
	return &ir.Program{
		IRVersion: ir.Version,
		Settings:  settings,
		Slots: []*ir.Slot{
			{Name: "account_type", Type: ir.TypeCategorical, Values: []ir.Value{
				{Value: "checking", Synonyms: []string{"corriente"}},
				{Value: "savings", Synonyms: []string{"ahorros"}},
			}},
		},
		Flows: []*ir.Flow{
			{
				Name:     "book_flight",
				Triggers: []string{"book a flight", "reservar un vuelo"},
				Slots: []*ir.Slot{
					{Name: "class", Type: ir.TypeCategorical, Values: []ir.Value{
						{Value: "economy", Synonyms: []string{"turista", "coach"}},
						{Value: "premium_economy", Synonyms: []string{"premium economy", "premium"}},
						{Value: "business", Synonyms: []string{"negocios", "business class", "ejecutiva"}},
					}},
					{Name: "date", Type: ir.TypeDate},
					{Name: "origin", Type: ir.TypeText, Pattern: `[A-Z]{3}`},
					{Name: "passengers", Type: ir.TypeInteger, Min: ptr(1), Max: ptr(9)},
				},
				Nodes: []*ir.Node{
					collect("ask_origin", "origin"),
					collect("ask_date", "date"),
					collect("ask_class", "class"),
					collect("ask_passengers", "passengers"),
					{ID: "confirm_date", Kind: ir.KindConfirm, Slot: "date"},
				},
			},
			{
				Name:     "check_balance",
				Triggers: []string{"check balance", "what is my balance", "consultar saldo"},
				Nodes: []*ir.Node{
					collect("ask_account", "account_type"),
					{ID: "tell", Kind: ir.KindSay, Message: &ir.Template{Src: "ok"}},
				},
			},
			{Name: "greet", Triggers: []string{"hello"}, Nodes: []*ir.Node{{ID: "hi", Kind: ir.KindSay}}},
			{Name: "block_card", Triggers: []string{"cancel my card"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
			{
				Name:     "pay_bill",
				Triggers: []string{"pay a bill", "pagar una factura"},
				Slots:    []*ir.Slot{{Name: "agree", Type: ir.TypeBoolean}, {Name: "memo"}},
				Nodes:    []*ir.Node{collect("ask_agree", "agree")},
			},
			{
				Name:     "plan_trip",
				Triggers: []string{"plan a trip"},
				Slots: []*ir.Slot{
					{Name: "from_city", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "madrid"}, {Value: "paris"}}},
					{Name: "to_city", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "madrid"}, {Value: "paris"}}},
					{Name: "budget", Type: ir.TypeNumber},
				},
				Nodes: []*ir.Node{
					collect("ask_from", "from_city"), collect("ask_to", "to_city"), collect("ask_budget", "budget"),
					{ID: "ok", Kind: ir.KindConfirm, Slot: "budget"},
				},
			},
			{Name: "report_b", Triggers: []string{"problem report"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
			{Name: "report_a", Triggers: []string{"report problem"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
			{
				Name:     "transfer_funds",
				Triggers: []string{"send money", "I want to make a transfer", "enviar dinero", "hacer una transferencia"},
				Slots: []*ir.Slot{
					{Name: "amount", Type: ir.TypeNumber, Min: ptr(1), Max: ptr(10000)},
					{Name: "recipient", Type: ir.TypeText},
				},
				Nodes: []*ir.Node{
					collect("ask_recipient", "recipient"),
					collect("ask_amount", "amount"),
					{ID: "check_recipient", Kind: ir.KindConfirm, Slot: "recipient", OnDeny: idx(0)},
					{ID: "confirm", Kind: ir.KindConfirm, Slot: "amount"},
				},
			},
		},
	}
}

func view(stack []string, p *vm.Pending, slots map[string]any) vm.View {
	return vm.View{
		Stack:   stack,
		Pending: p,
		Slot: func(name string) (any, bool) {
			v, ok := slots[name]
			return v, ok
		},
	}
}

var (
	idle = view(nil, nil, nil)

	transferSlots = map[string]any{"recipient": "Ana", "amount": 50.0}
	askRecipient  = view([]string{"transfer_funds"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "transfer_funds", Step: "ask_recipient", Slot: "recipient"}, nil)
	askAmount     = view([]string{"transfer_funds"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "transfer_funds", Step: "ask_amount", Slot: "amount"}, map[string]any{"recipient": "Ana"})
	confirmAmount = view([]string{"transfer_funds"}, &vm.Pending{Kind: vm.PendingConfirm, Flow: "transfer_funds", Step: "confirm", Slot: "amount"}, transferSlots)
	confirmRecip  = view([]string{"transfer_funds"}, &vm.Pending{Kind: vm.PendingConfirm, Flow: "transfer_funds", Step: "check_recipient", Slot: "recipient"}, transferSlots)

	flightSlots = map[string]any{"origin": "MAD", "date": "2027-03-05", "class": "economy", "passengers": int64(2)}
	askClass    = view([]string{"book_flight"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "book_flight", Step: "ask_class", Slot: "class"}, nil)
	askPax      = view([]string{"book_flight"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "book_flight", Step: "ask_passengers", Slot: "passengers"}, map[string]any{"origin": "MAD", "class": "economy"})
	askDate     = view([]string{"book_flight"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "book_flight", Step: "ask_date", Slot: "date"}, nil)
	askOrigin   = view([]string{"book_flight"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "book_flight", Step: "ask_origin", Slot: "origin"}, nil)
	confirmDate = view([]string{"book_flight"}, &vm.Pending{Kind: vm.PendingConfirm, Flow: "book_flight", Step: "confirm_date", Slot: "date"}, flightSlots)

	confirmTrip = view([]string{"plan_trip"}, &vm.Pending{Kind: vm.PendingConfirm, Flow: "plan_trip", Step: "ok", Slot: "budget"},
		map[string]any{"from_city": "madrid", "to_city": "paris", "budget": 100.0})
	askAgree   = view([]string{"pay_bill"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "pay_bill", Step: "ask_agree", Slot: "agree"}, nil)
	askAccount = view([]string{"transfer_funds", "check_balance"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "check_balance", Step: "ask_account", Slot: "account_type"}, nil)
)

func start(flow string, slots ...vm.SlotValue) vm.Command {
	return vm.Command{Kind: vm.CmdStartFlow, Flow: flow, Slots: slots}
}
func set(slot string, v any) vm.Command { return vm.Command{Kind: vm.CmdSetSlot, Slot: slot, Value: v} }
func correct(slot string, v any) vm.Command {
	return vm.Command{Kind: vm.CmdCorrectSlot, Slot: slot, Value: v}
}

var (
	fallback = vm.Command{Kind: vm.CmdFallback}
	cancel   = vm.Command{Kind: vm.CmdCancelFlow}
	affirm   = vm.Command{Kind: vm.CmdAffirm}
	deny     = vm.Command{Kind: vm.CmdDeny}
)

type ucase struct {
	name string
	msg  string
	view vm.View
	want vm.Command
}

func runCases(t *testing.T, cases []ucase) {
	t.Helper()
	r := New(testProgram())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Understand(context.Background(), tc.msg, tc.view)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, tc.want, got[0])
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"cancel idle", "cancel", idle, cancel},
		{"stop during collect", "Stop!", askAmount, cancel},
		{"never mind", "never mind", askRecipient, cancel},
		{"nevermind", "Nevermind.", askClass, cancel},
		{"forget it", "forget it", askAmount, cancel},
		{"spanish cancelar", "CANCELAR", askAmount, cancel},
		{"spanish para", "para", askClass, cancel},
		{"spanish olvidalo accented", "¡Olvídalo!", askAmount, cancel},
		{"spanish olvidalo plain", "olvidalo", askAmount, cancel},
		{"cancel during confirm denies", "cancel", confirmAmount, deny},
		{"cancelar during confirm denies", "Cancelar", confirmAmount, deny},
		{"stop during confirm cancels the flow", "stop", confirmRecip, cancel},
		{"never mind during confirm cancels the flow", "never mind", confirmAmount, cancel},
		{"olvidalo during confirm cancels the flow", "olvídalo", confirmAmount, cancel},
		{"no alone is not cancel when idle", "no", idle, fallback},
		{"no alone is an answer to a collect", "no", askAmount, set("amount", "no")},
		// Polite words around a cancel word do not hide it.
		{"please cancel", "please cancel", askAmount, cancel},
		{"cancel please", "Cancel, please.", askAmount, cancel},
		{"i want to cancel", "I want to cancel", askAmount, cancel},
		{"i'd like to stop", "I'd like to stop now", askRecipient, cancel},
		{"ok never mind thanks", "ok, never mind, thanks", askClass, cancel},
		{"no, forget it", "no, forget it", askAmount, cancel},
		{"spanish por favor cancela", "por favor, cancela", askAmount, cancel},
		{"spanish quiero cancelar", "Quiero cancelar", askAmount, cancel},
		{"polite cancel at a confirm denies", "please cancel", confirmAmount, deny},
		// A cancel verb with a short object.
		{"cancel the transfer", "cancel the transfer", askAmount, cancel},
		{"stop this booking please", "stop this booking please", askDate, cancel},
		{"cancela la transferencia", "cancela la transferencia", askRecipient, cancel},
		{"cancel the thing at a confirm denies", "cancel the thing", confirmAmount, deny},
		{"cancel the thing with nothing active", "please cancel the thing", idle, cancel},
		// Not a request to cancel.
		{"please alone is no cancel", "please", askRecipient, set("recipient", "please")},
		{"a long sentence with stop is an answer", "stop the car at the corner of the street", askRecipient,
			set("recipient", "stop the car at the corner of the street")},
		{"a trigger that starts with cancel wins", "cancel my card", askAmount, start("block_card")},
		{"cancel followed by no object", "cancel payment 50", askAmount, set("amount", 50.0)},
	})
}

// At a free-text question, "cancel my subscription" may well be the answer
// (a support desk asking "What is the problem?"). The short-object form
// cancels there only when its object is a pronoun or names a flow on the
// stack; a plain cancel word always cancels.
func TestCancelObjectAtFreeText(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"an object that names no flow is the answer", "cancel my subscription", askRecipient,
			set("recipient", "cancel my subscription")},
		{"with polite words around it too", "I want to cancel my subscription", askRecipient,
			set("recipient", "I want to cancel my subscription")},
		{"stop the charges", "stop the charges", askRecipient, set("recipient", "stop the charges")},
		{"an object that names the flow cancels", "cancel the transfer", askRecipient, cancel},
		{"its stem too", "stop the transfers please", askRecipient, cancel},
		{"a pronoun cancels", "stop this", askRecipient, cancel},
		{"everything cancels", "cancel everything", askRecipient, cancel},
		{"a typed question still cancels", "cancel my subscription", askAmount, cancel},
		{"a plain cancel word still cancels", "please cancel", askRecipient, cancel},
		{"nothing pending still cancels", "cancel my subscription", idle, cancel},
	})
}

func TestNothingToRead(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"empty", "", askRecipient, fallback},
		{"spaces", "   ", askAmount, fallback},
		{"a question mark is no name", "?", askRecipient, fallback},
		{"dots at a confirm", "...", confirmAmount, fallback},
		{"punctuation when idle", "?!", idle, fallback},
		{"one letter is an answer", "A", askRecipient, set("recipient", "A")},
	})
}

func TestTriggers(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"exact", "send money", idle, start("transfer_funds")},
		{"exact with case and punctuation", "Send money!", idle, start("transfer_funds")},
		{"all trigger words in a longer message", "I want to send money to Ana", idle, start("transfer_funds", vm.SlotValue{Slot: "recipient", Value: "Ana"})},
		{"stop words ignored", "make a transfer", idle, start("transfer_funds")},
		{"spanish", "Quiero enviar dinero", idle, start("transfer_funds")},
		{"spanish accents", "quiero hacer una transferéncia", idle, start("transfer_funds")},
		{"spanish balance", "Consultar mi saldo, por favor", idle, start("check_balance")},
		{"one-word trigger", "hello there", idle, start("greet")},
		// Inflected forms of a trigger's words match.
		{"ing form", "booking a flight", idle, start("book_flight")},
		{"plural", "I want to book flights", idle, start("book_flight")},
		{"ing and plural", "sending some money", idle, start("transfer_funds")},
		{"spanish plural", "reservar unos vuelos", idle, start("book_flight")},
		{"inflected stop words are stop words", "Ana needs to send money", idle, start("transfer_funds")},
		{"inflected stop words do not dilute a strong match", "needs to check balances", askRecipient, start("check_balance")},
		{"yes triggers nothing", "yes", idle, fallback},
		{"si triggers nothing", "sí", idle, fallback},
		{"half the words is not enough", "money", idle, fallback},
		{"unrelated", "what's the weather like", idle, fallback},
		{"best score wins", "what is my balance", idle, start("check_balance")},
		{"tie goes to the first name", "report a problem", idle, start("report_a")},
		// The flow on top: start_flow, which the VM ignores, so the
		// question is asked again instead of storing the phrase as the
		// answer or counting it as an invalid one.
		{"same flow on top, exact phrase at a number question", "send money", askAmount, start("transfer_funds")},
		{"same flow on top, exact phrase at a text question", "Send money!", askRecipient, start("transfer_funds")},
		{"same flow on top, strong match at a text question", "I want to send money", askRecipient, start("transfer_funds")},
		{"same flow on top, no valid answer", "I want to send the money", askAmount, start("transfer_funds")},
		{"same flow on top, weak match with a valid answer", "send money, 50", askAmount, set("amount", 50.0)},
		{"same flow on top at a confirm", "send money", confirmAmount, start("transfer_funds")},
	})
}

func TestSlotFilling(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"categorical and pattern", "book a business class flight from MAD", idle,
			start("book_flight", vm.SlotValue{Slot: "origin", Value: "MAD"}, vm.SlotValue{Slot: "class", Value: "business"})},
		{"spanish synonym", "Reservar un vuelo en clase NEGOCIOS", idle,
			start("book_flight", vm.SlotValue{Slot: "class", Value: "business"})},
		{"accented synonym", "reservar un vuelo turista", idle,
			start("book_flight", vm.SlotValue{Slot: "class", Value: "economy"})},
		{"ambiguous categorical fills nothing", "book a flight, business or economy", idle, start("book_flight")},
		{"two pattern words fill nothing", "book a flight MAD to BCN", idle, start("book_flight")},
		{"pattern word with punctuation", "book a flight from (LHR).", idle,
			start("book_flight", vm.SlotValue{Slot: "origin", Value: "LHR"})},
		{"same value for two slots fills neither", "plan a trip to Paris", idle, start("plan_trip")},
		{"conversation slot collected by the flow", "check balance on my savings account", idle,
			start("check_balance", vm.SlotValue{Slot: "account_type", Value: "savings"})},
		{"spanish conversation slot", "consultar saldo de ahorros", idle,
			start("check_balance", vm.SlotValue{Slot: "account_type", Value: "savings"})},
		{"numbers and names are filled", "send money 50 to Ana", idle, start("transfer_funds", vm.SlotValue{Slot: "recipient", Value: "Ana"}, vm.SlotValue{Slot: "amount", Value: 50.0})},
	})
}

func TestDigression(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"exact trigger interrupts a text collect", "check balance", askRecipient, start("check_balance")},
		{"strong trigger interrupts a text collect", "I'd like to check my balance please", askRecipient, start("check_balance")},
		{"weak trigger is a valid text answer", "Ana wants to check the balance", askRecipient, set("recipient", "Ana wants to check the balance")},
		{"weak trigger is a valid number answer", "check my balance for 50", askAmount, set("amount", 50.0)},
		{"weak trigger that is no valid answer interrupts", "can you check the balance of my account", askAmount, start("check_balance")},
		{"exact trigger interrupts a number collect", "what is my balance", askAmount, start("check_balance")},
		{"exact trigger interrupts a confirm", "book a flight", confirmAmount, start("book_flight")},
		{"spanish digression with slot filling", "consultar saldo ahorros", askAmount,
			start("check_balance", vm.SlotValue{Slot: "account_type", Value: "savings"})},
		{"digression from a categorical collect", "send money", askClass, start("transfer_funds")},
	})
}

func TestConfirm(t *testing.T) {
	t.Parallel()
	cases := []ucase{}
	for _, s := range []string{"yes", "Yes please", "y", "yeah", "yep", "sure", "OK", "okay", "correct", "confirm",
		"sí", "SI", "Sí, claro", "claro", "vale", "de acuerdo"} {
		cases = append(cases, ucase{"yes " + s, s, confirmAmount, affirm})
	}
	for _, s := range []string{"no", "No.", "n", "nope", "nah", "no thanks", "No, gracias", "negativo"} {
		cases = append(cases, ucase{"no " + s, s, confirmAmount, deny})
	}
	cases = append(cases, []ucase{
		{"actually", "actually 75", confirmAmount, correct("amount", 75.0)},
		{"no comma", "no, 80", confirmAmount, correct("amount", 80.0)},
		{"make it", "make it $1,200.50", confirmAmount, correct("amount", 1200.5)},
		{"change it to", "Change it to 20 euros", confirmAmount, correct("amount", 20.0)},
		{"en realidad", "En realidad 30", confirmAmount, correct("amount", 30.0)},
		{"mejor", "mejor 40", confirmAmount, correct("amount", 40.0)},
		{"no, mejor", "No, mejor 45", confirmAmount, correct("amount", 45.0)},
		// §11: a value of the slot's type that fails its limits is still a
		// correction of the confirmed slot; the VM answers with the slot's
		// invalid message and asks the confirm again, never the fallback.
		{"correction out of range corrects the confirmed slot", "actually 50000", confirmAmount, correct("amount", "50000")},
		{"no with a bad value is a deny", "no, lots", confirmAmount, deny},
		{"nope, X corrects like no, X", "nope, 4 euros", confirmAmount, correct("amount", 4.0)},
		{"nah, X corrects", "Nah, 60", confirmAmount, correct("amount", 60.0)},
		{"nope, thanks is a deny", "nope, thanks", confirmAmount, deny},
		{"text slot nope, X corrects", "nope, Bob", confirmRecip, correct("recipient", "Bob")},
		{"text slot nope X is a deny", "nope Bob", confirmRecip, deny},
		{"anything else", "purple monkey", confirmAmount, fallback},
		{"text slot actually", "actually Bob", confirmRecip, correct("recipient", "Bob")},
		{"text slot no comma corrects (spec: no, X)", "no, Bob", confirmRecip, correct("recipient", "Bob")},
		{"text slot no without comma is a deny", "no Bob", confirmRecip, deny},
		{"text slot no, thanks is a deny", "no, thanks", confirmRecip, deny},
		{"text slot no thanks", "no thanks", confirmRecip, deny},
		{"strong prefix corrects the text slot itself", "actually 99", confirmRecip, correct("recipient", "99")},
		{"other slot of the flow", "no, 99", confirmRecip, correct("amount", 99.0)},
		{"date correction", "actually 2027-05-01", confirmDate, correct("date", "2027-05-01")},
		{"spanish date correction", "no, el 1 de mayo de 2027", confirmDate, correct("date", "2027-05-01")},
		{"invalid date correction", "actually 2027-02-30", confirmDate, correct("date", "2027-02-30")},
		{"other categorical slot", "actually business", confirmDate, correct("class", "business")},
		{"other categorical slot spanish", "no, negócios", confirmDate, correct("class", "business")},
		{"a number goes to the one numeric slot", "actually 3", confirmDate, correct("passengers", int64(3))},
		{"a value of two other slots is ambiguous", "actually paris", confirmTrip, fallback},
		{"the confirmed number slot", "actually 300", confirmTrip, correct("budget", 300.0)},
	}...)
	runCases(t, cases)
}

func TestCollect(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"number", "50", askAmount, set("amount", 50.0)},
		{"number in text", "about 25 euros", askAmount, set("amount", 25.0)},
		{"number grouped", "$1,200.50", askAmount, set("amount", 1200.5)},
		{"european number", "1.200,50 €", askAmount, set("amount", 1200.5)},
		{"ambiguous number is raw", "between 3 and 5", askAmount, set("amount", "between 3 and 5")},
		{"not a number is raw", "abc", askAmount, set("amount", "abc")},
		{"above max is raw", "50000", askAmount, set("amount", "50000")},
		{"below min is raw", " 0.5 ", askAmount, set("amount", "0.5")},
		{"empty", "", askAmount, fallback},
		{"whitespace", " \t\n ", askAmount, fallback},
		{"integer", "3 people", askPax, set("passengers", int64(3))},
		{"integer not whole is raw", "2.5", askPax, set("passengers", "2.5")},
		{"integer word", "tres", askPax, set("passengers", int64(3))},
		{"not a number word is raw", "lots", askPax, set("passengers", "lots")},
		{"categorical synonym capitalised", "Negocios", askClass, set("class", "business")},
		{"categorical upper", "NEGOCIOS", askClass, set("class", "business")},
		{"categorical accented", "negócios", askClass, set("class", "business")},
		{"categorical in sentence", "I'd like business class please", askClass, set("class", "business")},
		{"categorical spanish sentence", "clase turista, por favor", askClass, set("class", "economy")},
		{"categorical longer phrase", "premium economy", askClass, set("class", "premium_economy")},
		{"categorical ambiguous is raw", "business or economy", askClass, set("class", "business or economy")},
		{"categorical unknown is raw", "first class", askClass, set("class", "first class")},
		{"conversation slot", "ahorros", askAccount, set("account_type", "savings")},
		{"date iso", "2027-03-05", askDate, set("date", "2027-03-05")},
		{"date english", "March 5, 2027", askDate, set("date", "2027-03-05")},
		{"date spanish", "el 5 de marzo de 2027", askDate, set("date", "2027-03-05")},
		{"date invalid is raw", "2027-02-30", askDate, set("date", "2027-02-30")},
		{"date none is raw", "some week", askDate, set("date", "some week")},
		{"pattern", "LHR", askOrigin, set("origin", "LHR")},
		{"pattern failure is raw", "London", askOrigin, set("origin", "London")},
		{"boolean yes", "sí, claro", askAgree, set("agree", true)},
		{"boolean no", "nope", askAgree, set("agree", false)},
		{"boolean no thanks", "no thanks", askAgree, set("agree", false)},
		{"boolean unknown is raw", "maybe", askAgree, set("agree", "maybe")},
		{"text trimmed", "  Ana María ", askRecipient, set("recipient", "Ana María")},
		{"text actually", "actually Bob", askRecipient, set("recipient", "Bob")},
		{"actually for the pending slot", "actually 3", askPax, set("passengers", int64(3))},
		{"actually for another set slot", "actually business", askPax, correct("class", "business")},
		{"spanish correction of another set slot", "en realidad negocios", askPax, correct("class", "business")},
		{"correction of an unset slot is raw", "actually 2027-03-05", askPax, set("passengers", "actually 2027-03-05")},
	})
}

func TestFallbackAndOddViews(t *testing.T) {
	t.Parallel()
	unknown := view([]string{"ghost"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "ghost", Slot: "thing"}, nil)
	odd := view([]string{"transfer_funds"}, &vm.Pending{Kind: "other", Flow: "transfer_funds", Slot: "amount"}, nil)
	noSlotFunc := vm.View{Stack: []string{"book_flight"}, Pending: askPax.Pending}
	runCases(t, []ucase{
		{"nothing pending", "blah blah", idle, fallback},
		{"a number with nothing pending", "50", idle, fallback},
		{"empty with nothing pending", "", idle, fallback},
		{"unknown flow and slot takes the text", " stuff ", unknown, set("thing", "stuff")},
		{"unknown pending kind", "50", odd, fallback},
		{"no slot function", "actually business", noSlotFunc, set("passengers", "actually business")},
	})
}

func TestNilProgram(t *testing.T) {
	t.Parallel()
	r := New(nil)
	got, err := r.Understand(context.Background(), "cancel", idle)
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{cancel}, got)
	got, err = r.Understand(context.Background(), "send money", idle)
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{fallback}, got)
	got, err = r.Understand(context.Background(), "50", askAmount)
	require.NoError(t, err)
	assert.Equal(t, []vm.Command{set("amount", "50")}, got)
}

func TestContextCancelled(t *testing.T) {
	t.Parallel()
	ctx, stop := context.WithCancel(context.Background())
	stop()
	got, err := New(testProgram()).Understand(ctx, "send money", idle)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, got)
}

// TestHugeMessage understands messages of about 1 MiB. Their speed is
// measured by BenchmarkHugeMessage, not here; this test holds the results
// and a budget on the bytes allocated per message, which does not depend on
// the machine: understanding that went quadratic would allocate far beyond it.
func TestHugeMessage(t *testing.T) {
	// Not parallel: it measures the process's heap, which other tests
	// running at the same time would change.
	r := New(testProgram())
	for _, tc := range hugeCases() {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := r.Understand(context.Background(), tc.msg, tc.view)
			runtime.ReadMemStats(&after)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, tc.want, got[0])
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64*len(tc.msg)), "bytes allocated")
		})
	}
}

func BenchmarkHugeMessage(b *testing.B) {
	r := New(testProgram())
	for _, tc := range hugeCases() {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = r.Understand(context.Background(), tc.msg, tc.view)
			}
		})
	}
}

func hugeCases() []ucase {
	junk := strings.Repeat("lorem ipsum dolor ", 1<<16) // about 1.1 MiB
	cases := []ucase{
		{"idle junk", junk, idle, fallback},
		{"trigger at the start", "send money " + junk, idle, start("transfer_funds")},
		{"cancel word then junk is not a cancel", "cancel " + junk, idle, fallback},
		{"trigger after the scanned head is ignored", junk + " send money", idle, fallback},
		{"text answer keeps everything", junk + "end", askRecipient, set("recipient", strings.TrimSpace(junk+"end"))},
		{"number answer", junk, askAmount, set("amount", strings.TrimSpace(junk))},
		{"confirm", junk, confirmAmount, fallback},
		{"categorical", strings.Repeat("business ", 1<<17), askClass, set("class", "business")},
	}
	return cases
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	r := New(testProgram())
	msgs := []string{"book a business class flight from MAD", "report a problem", "actually 3", "no, negócios"}
	for _, m := range msgs {
		first, err := r.Understand(context.Background(), m, confirmDate)
		require.NoError(t, err)
		for range 20 {
			again, err := r.Understand(context.Background(), m, confirmDate)
			require.NoError(t, err)
			assert.Equal(t, first, again)
		}
	}
}

func TestCorrectionPrefixes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, rest string
		weak, ok bool
	}{
		{"actually 5", "5", false, true},
		{"Actually, 5", "5", false, true},
		{"no, 5", "5", true, true},
		{"No", "", true, true},
		{"nothing", "nothing", false, false},
		{"no, actually make it 5", "5", false, true},
		{"En realidad: mañana", "mañana", false, true},
		{"mejor dicho 4", "4", false, true},
		{"make 5", "make 5", false, false},
		{"¡No! 7", "7", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			rest, weak, ok := correction(tc.in)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.weak, weak)
			assert.Equal(t, tc.rest, rest)
		})
	}
}

func BenchmarkUnderstand(b *testing.B) {
	r := New(testProgram())
	ctx := context.Background()
	benches := []struct {
		name string
		msg  string
		view vm.View
	}{
		{"collect_number", "about 1,200.50 euros", askAmount},
		{"collect_categorical", "I'd like business class please", askClass},
		{"collect_text", "Madrid", askRecipient},
		{"collect_text_date", "2027-03-05", askRecipient},
		{"trigger", "I want to send money to Ana", idle},
		{"trigger_with_slots", "book a business class flight from MAD", idle},
	}
	for _, bc := range benches {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Understand(ctx, bc.msg, bc.view); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func FuzzUnderstand(f *testing.F) {
	for _, s := range []string{"send money", "actually 5", "no, negócios", "¡Olvídalo!", "book a flight from MAD", "1,2.3"} {
		f.Add(s)
	}
	r := New(testProgram())
	views := []vm.View{idle, askAmount, askClass, askRecipient, confirmAmount, confirmDate, askPax}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, v := range views {
			got, err := r.Understand(context.Background(), msg, v)
			require.NoError(t, err)
			require.Len(t, got, 1)
			if got[0].Kind == vm.CmdStartFlow {
				assert.NotNil(t, testProgram().Flow(got[0].Flow))
			}
		}
	})
}

// TestTypedAnswerBeatsLooseTrigger: at a menu (a categorical question), a
// valid value that also matches another flow's trigger phrase loosely
// answers the question; only the exact phrase digresses. Found in the
// banking greeting menu, where "balance" started check_balance.
func TestTypedAnswerBeatsLooseTrigger(t *testing.T) {
	t.Parallel()
	p := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		{Name: "menu", Triggers: []string{"hello"},
			Slots: []*ir.Slot{{Name: "service", Type: ir.TypeCategorical, Values: []ir.Value{{Value: "balance"}, {Value: "transfer"}}}},
			Nodes: []*ir.Node{collect("ask_service", "service")}},
		{Name: "check_balance", Triggers: []string{"what's my balance"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
	}}
	r := New(p)
	menu := view([]string{"menu"}, &vm.Pending{Kind: vm.PendingCollect, Flow: "menu", Step: "ask_service", Slot: "service"}, nil)
	for _, tc := range []struct {
		msg  string
		want vm.Command
	}{
		{"balance", set("service", "balance")},
		{"what's my balance", start("check_balance")},
		{"transfer", set("service", "transfer")},
	} {
		got, err := r.Understand(context.Background(), tc.msg, menu)
		require.NoError(t, err)
		assert.Equal(t, []vm.Command{tc.want}, got, tc.msg)
	}
}

// TestStem: the forms of one word share a stem (Snowball's English
// stemmer), different words keep different ones, and short words stay
// as they are.
func TestStem(t *testing.T) {
	t.Parallel()
	same := [][]string{
		{"booking", "booked", "books", "book"},
		{"stopping", "stop", "stops"},
		{"calling", "call", "calls"},
		{"flights", "flight"},
		{"vuelos", "vuelo"},
		{"transferencias", "transferencia"},
		{"charge", "charged", "charges", "charging"},
		{"invoiced", "invoice", "invoices"},
		{"crashes", "crash", "crashed"},
		{"passengers", "passenger"},
	}
	for _, forms := range same {
		for _, f := range forms[1:] {
			assert.Equal(t, stem(forms[0]), stem(f), "%s and %s", forms[0], f)
		}
	}
	for _, pair := range [][2]string{{"address", "add"}, {"status", "stat"}, {"news", "new"}, {"free", "fre"}, {"speed", "spee"}, {"like", "lik"}} {
		assert.NotEqual(t, stem(pair[0]), pair[1], pair[0])
	}
	for _, w := range []string{"yes", "bus", "red", "new"} {
		assert.Equal(t, w, stem(w))
	}
	assert.Equal(t, "book", stem("booking"))
	assert.Equal(t, "charg", stem("charges"))
}

// A correction that names its slot changes that slot, whatever its type,
// at a confirm or a collect.
func TestNamedCorrection(t *testing.T) {
	t.Parallel()
	runCases(t, []ucase{
		{"change the amount at a confirm", "change the amount to 60", confirmAmount, correct("amount", 60.0)},
		{"another slot, free text", "Change the recipient to Bob García", confirmAmount, correct("recipient", "Bob García")},
		{"actually ... is", "actually the recipient is Bob", confirmAmount, correct("recipient", "Bob")},
		{"no, ... should be", "no, the amount should be 75", confirmRecip, correct("amount", 75.0)},
		{"no, set ... to", "No, set the amount to 20", confirmRecip, correct("amount", 20.0)},
		{"the pending collect's own slot", "set the amount to 30", askAmount, set("amount", 30.0)},
		{"another slot while collecting", "change the recipient to Eva", askAmount, correct("recipient", "Eva")},
		{"slot name with two words", "change my account type to savings", askAccount, set("account_type", "savings")},
		{"spanish", "cambia el amount a 40", confirmAmount, correct("amount", 40.0)},
		{"a value that does not convert is given as written", "change the amount to lots", confirmAmount, correct("amount", "lots")},
		{"a value above the maximum is given as written", "set the amount to 50000", confirmAmount, correct("amount", "50000")},
		{"a date slot", "actually the date is 2027-04-01", confirmDate, correct("date", "2027-04-01")},
		// Not a named correction.
		{"make it still works", "make it 60", confirmAmount, correct("amount", 60.0)},
		{"no slot name", "change it to 70", confirmAmount, correct("amount", 70.0)},
		{"no value", "change the amount", confirmAmount, fallback},
		{"a no word is no value", "no, the amount is wrong", confirmAmount, deny},
		{"an unknown slot", "change the colour to red", confirmAmount, fallback},
	})
}

// TestTriggerPlaceholders: example phrases written the Python framework's
// way, with {slot} placeholders, match messages that fill them.
func TestTriggerPlaceholders(t *testing.T) {
	t.Parallel()
	p := &ir.Program{IRVersion: ir.Version, Settings: ir.DefaultSettings(), Flows: []*ir.Flow{
		{Name: "transfer", Triggers: []string{"Send {amount} to {beneficiary_name}"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
		{Name: "greet", Triggers: []string{"hello"}, Nodes: []*ir.Node{{ID: "s", Kind: ir.KindSay}}},
	}}
	r := New(p)
	for _, tc := range []struct{ msg, flow string }{
		{"Send 50 to Ana", "transfer"},
		{"send 20 euros to my brother", "transfer"},
		{"hello", "greet"},
	} {
		got, err := r.Understand(context.Background(), tc.msg, idle)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, tc.flow, got[0].Flow, tc.msg)
	}
	assert.Equal(t, "Send   to   now", withoutPlaceholders("Send {amount} to {x} now"))
}

// TestNoCommaSentenceIsNotAValue pins language.md §11: at a confirm, "no, X"
// corrects a free-text slot only when X could be the value itself; "no, the
// name should be Maria" must not become the value of an untyped slot.
func TestNoCommaSentenceIsNotAValue(t *testing.T) {
	t.Parallel()
	r := New(testProgram())
	cases := []struct {
		msg  string
		want vm.Command
	}{
		{"no, the name should be Maria", deny},
		{"no, it is for Maria", deny},
		{"no, el nombre es Maria", deny},
		{"no, Bob", correct("recipient", "Bob")},
		{"no, Maria López", correct("recipient", "Maria López")},
	}
	for _, tc := range cases {
		got, err := r.Understand(context.Background(), tc.msg, confirmRecip)
		require.NoError(t, err)
		require.Len(t, got, 1, tc.msg)
		assert.Equal(t, tc.want, got[0], tc.msg)
	}
}

// TestConfirmLabelSlot: a confirm whose slot nothing declares (the Python
// framework's transfer_confirmed) is a label: yes and no answer it, and it
// is never a correction target (W014).
func TestConfirmLabelSlot(t *testing.T) {
	t.Parallel()
	r := New(testProgram())
	label := view([]string{"transfer_funds"}, &vm.Pending{Kind: vm.PendingConfirm, Flow: "transfer_funds", Step: "confirm", Slot: "transfer_confirmed"}, transferSlots)
	cases := []struct {
		msg  string
		want vm.Command
	}{
		{"yes", vm.Command{Kind: vm.CmdAffirm}},
		{"no", deny},
		{"actually Bob", fallback},
		{"no, Bob", deny},
	}
	for _, tc := range cases {
		got, err := r.Understand(context.Background(), tc.msg, label)
		require.NoError(t, err, tc.msg)
		require.Len(t, got, 1, tc.msg)
		assert.NotEqual(t, "transfer_confirmed", got[0].Slot, tc.msg)
		assert.Equal(t, tc.want.Kind, got[0].Kind, tc.msg)
	}
}

// With no trigger phrase matched, a trigger's verb and a value for its
// flow start it: an amount with a currency, a capitalised name after "to"
// (values.go). A free-text question is not answered by a question.
func TestValuesInTheFirstMessage(t *testing.T) {
	t.Parallel()
	amt := func(v float64) vm.SlotValue { return vm.SlotValue{Slot: "amount", Value: v} }
	to := func(v string) vm.SlotValue { return vm.SlotValue{Slot: "recipient", Value: v} }
	runCases(t, []ucase{
		{"amount and name", "Send 100 euros to John", idle, start("transfer_funds", to("John"), amt(100))},
		{"currency sign", "send €50 to Ana García", idle, start("transfer_funds", to("Ana García"), amt(50))},
		{"decimal comma", "send 12,50 EUR", idle, start("transfer_funds", amt(12.5))},
		{"spanish", "envía 50 euros a Pedro", idle, start("transfer_funds", to("Pedro"), amt(50))},
		{"name only", "send it to Maria please", idle, start("transfer_funds", to("Maria"))},
		{"a bare number is the one amount", "send 100 please", idle, start("transfer_funds", amt(100))},
		{"a lower-case name with a possessive", "send cash to my sister", idle, start("transfer_funds", to("my sister"))},
		{"an amount out of range is left to ask", "send 50000 euros to Bob", idle, start("transfer_funds", to("Bob"))},
		{"another verb of the project's lexicon", "move 100 euros to John", idle, start("transfer_funds", to("John"), amt(100))},
		{"a trigger match fills values too", "send money 50 euros to Ana", idle, start("transfer_funds", to("Ana"), amt(50))},
		{"a valid answer comes first", "send 20 euros", askAmount, set("amount", 20.0)},
		{"a question about another flow digresses", "wait, how much do I have?", askRecipient, start("check_balance")},
		{"spanish question", "¿cuánto tengo?", askRecipient, start("check_balance")},
		{"a question about nothing is not a name: a request to repeat", "wait, what?", askRecipient, vm.Command{Kind: vm.CmdRepeat}},
		{"a question mark alone is an answer", "Ana?", askRecipient, set("recipient", "Ana?")},
		{"a statement ending in a question mark", "my brother, I think?", askRecipient, set("recipient", "my brother, I think?")},
	})
}

// TestWordIs checks the in-place comparison of a word with a normalized
// one against normalizing the word.
func TestWordIs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		word, want string
	}{
		{"Actually", "actually"}, {"actually", "actual"}, {"actual", "actually"},
		{"don't", "dont"}, {"DON'T", "dont"}, {"I", "i"}, {"no", "nope"},
		{"Señor", "senor"}, {"noñ", "no"}, {"no\u0301", "no"}, {"Ñ", "n"},
		{"50", "50"}, {"x", ""}, {"'", ""},
	}
	for _, tc := range cases {
		t.Run(tc.word+"/"+tc.want, func(t *testing.T) {
			assert.Equal(t, values.Normalize(tc.word) == tc.want, wordIs(tc.word, tc.want))
		})
	}
}
