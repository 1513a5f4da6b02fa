package understand

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// ruleCase is a message one rule of the table answers, in the state its
// earlier messages reach.
type ruleCase struct {
	rule    string
	project string // an example project, "talk" (talkFlowsYAML), "greet" (greetYAML) or "buttons" (buttonsYAML)
	before  []string
	msg     string
	want    string // the commands, as describeCmds writes them
}

// ruleCases holds, for every rule of the table, a message it answers.
var ruleCases = []ruleCase{
	{"empty", "banking", nil, "   ", "fallback"},
	{"emoji_yes_no", "banking", []string{"I lost my card", "4821"}, "👍", "affirm"},
	{"emoji", "banking", nil, "👍", "chitchat (ack)"},
	{"no_letters", "banking", nil, "?!", "fallback"},
	{"cancel_word", "banking", []string{"send money"}, "never mind", "cancel_flow"},
	{"cancel_named", "travel", []string{"book a flight", "Madrid", "book a hotel"}, "no, cancel the flight", "cancel_flow book_flight"},
	{"negated_wish", "travel", []string{"book a flight", "Madrid"}, "I don't want to book a flight anymore", "cancel_flow"},
	{"cancel_then_start", "banking", []string{"send money"}, "stop that, I want to check my balance", "cancel_flow; start_flow check_balance"},
	{"yes_no", "banking", []string{"I lost my card", "4821", "yes"}, "no", "set_slot wants_replacement=false"},
	{"button_title", "buttons", []string{"restart my device"}, "finished", "set_slot restarted=true"},
	{"option_position", "travel", []string{"book a hotel", "Porto", "tomorrow", "3"}, "the second one", "set_slot room=double"},
	{"option_words", "banking", []string{"I need a replacement card", "4821"}, "the free one is fine", "set_slot delivery=standard"},
	{"talk_flow", "talk", nil, "hi", "start_flow welcome"},
	{"small_talk", "banking", nil, "thanks!", "chitchat (thanks)"},
	{"cancel_top_flow", "travel", []string{"book a flight", "Madrid", "Paris"}, "forget the flight", "cancel_flow"},
	{"asks_other", "banking", []string{"I lost my card", "4821"}, "wait, what is my savings balance?", "start_flow check_balance account_type=savings"},
	{"digression", "banking", []string{"send money", "Ana", "50"}, "hold on, my card was just stolen", "start_flow lost_card"},
	{"request_at_free_text", "travel", []string{"book a flight"}, "also I need a hotel", "start_flow book_hotel"},
	{"answer_over_trigger", "banking", []string{"send money", "Ana", "50", "checking"}, "yes, send the money", "affirm"},
	{"greeting_then_request", "greet", nil, "hello there, find me a hotel in Rome", "start_flow search_hotel city=Rome"},
	{"exact_trigger", "travel", nil, "book a flight", "start_flow book_flight"},
	{"trigger", "travel", nil, "book a flight to Paris", "start_flow book_flight destination=Paris"},
	{"cancel_object", "banking", []string{"send money"}, "cancel the transfer", "cancel_flow"},
	{"value_then_number", "banking", []string{"send money"}, "my landlord, worth 850", "set_slot recipient=my landlord; set_slot amount=850"},
	{"unit_values", "travel", []string{"book a hotel"}, "2 nights in Berlin", "set_slot city=Berlin; set_slot nights=2"},
	{"date_range", "travel", []string{"book a hotel", "Valencia"}, "from may 14th to the 17th", "set_slot check_in=2027-05-14; set_slot nights=3"},
	{"answer", "banking", []string{"send money"}, "Ana", "set_slot recipient=Ana"},
	{"button_words", "buttons", []string{"restart my device"}, "something went a bit wrong", "set_slot restarted=false"},
	{"meaning", "travel", nil, "I need to fly to Paris next friday", "start_flow book_flight destination=Paris departure_date=2027-03-19"},
	{"invalid_answer", "banking", []string{"send money", "Ana"}, "lots", "set_slot amount=lots"},
	{"fallback", "travel", nil, "rent me a car", "fallback"},
}

// greetYAML is a project whose greeting flow has a trigger phrase.
const greetYAML = `version: "1.0"
flows:
  greet:
    description: greet the user
    trigger: {intents: ["hello"]}
    steps: [{step: s, type: say, message: "Hello!"}]
  search_hotel:
    description: search for hotels in a city
    trigger: {intents: ["search hotel"]}
    slots: [{name: city, type: text}]
    steps: [{step: ask, type: collect, slot: city, message: "In which city?"}]
`

// ruleReaders reads messages in the projects ruleCases name.
func ruleReaders(t *testing.T) map[string]func(before []string, msg string) (Reading, vm.View) {
	t.Helper()
	res := compiler.CompileSource("talk.yaml", []byte(talkFlowsYAML), compiler.Options{})
	require.NotNil(t, res.Program, "%v", res.Diags)
	greet := compiler.CompileSource("greet.yaml", []byte(greetYAML), compiler.Options{})
	require.NotNil(t, greet.Program, "%v", greet.Diags)
	buttons := compiler.CompileSource("buttons.yaml", []byte(buttonsYAML), compiler.Options{})
	require.NotNil(t, buttons.Program, "%v", buttons.Diags)
	return map[string]func(before []string, msg string) (Reading, vm.View){
		"buttons": reader(t, buttons.Program),
		"greet":   reader(t, greet.Program),
		"banking": example(t, "banking"),
		"travel":  example(t, "travel"),
		"talk":    reader(t, res.Program),
	}
}

// TestEveryRuleAnswers: each rule of the table answers a message, and
// the reading carries the rule's name; no rule of the table goes
// without a case.
func TestEveryRuleAnswers(t *testing.T) {
	t.Parallel()
	read := ruleReaders(t)
	covered := map[string]bool{}
	for _, tc := range ruleCases {
		covered[tc.rule] = true
		t.Run(tc.rule, func(t *testing.T) {
			rd, _ := read[tc.project](tc.before, tc.msg)
			assert.Equal(t, tc.rule, rd.Rule, "%q: %s", tc.msg, rd.Reason)
			assert.Equal(t, tc.want, describeCmds(rd.Commands), "%q: %s", tc.msg, rd.Reason)
		})
	}
	for _, ru := range rules {
		assert.True(t, covered[ru.name], "rule %s has no case in ruleCases", ru.name)
	}
}

// TestRuleNamedInTrace: the turn's trace names the rule that read each
// message (soni chat --trace, the turn log).
func TestRuleNamedInTrace(t *testing.T) {
	t.Parallel()
	progs := map[string]*ir.Program{}
	for _, name := range []string{"banking", "travel"} {
		res := compiler.Compile("../flows/"+name, compiler.Options{})
		require.NotNil(t, res.Program, "%v", res.Diags)
		progs[name] = res.Program
	}
	for name, src := range map[string]string{"talk": talkFlowsYAML, "greet": greetYAML, "buttons": buttonsYAML} {
		res := compiler.CompileSource(name+".yaml", []byte(src), compiler.Options{})
		require.NotNil(t, res.Program, "%v", res.Diags)
		progs[name] = res.Program
	}
	now := time.Date(2027, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tc := range ruleCases {
		t.Run(tc.rule, func(t *testing.T) {
			p := progs[tc.project]
			m, err := vm.New(p, vm.Options{Understander: New(p), Actions: fakeActions{p}, Now: func() time.Time { return now }})
			require.NoError(t, err)
			st := m.NewState("t")
			for _, b := range tc.before {
				res, err := m.Turn(context.Background(), st, vm.Input{Text: b})
				require.NoError(t, err, b)
				st = res.State
			}
			res, err := m.Turn(context.Background(), st, vm.Input{Text: tc.msg})
			require.NoError(t, err)
			require.NotNil(t, res.Understood)
			assert.Equal(t, tc.rule, res.Understood.Rule)
			var line string
			for _, l := range res.Trace {
				if strings.HasPrefix(l, "understood by ") {
					line = l
				}
			}
			assert.Regexp(t, `^understood by rules( \(sure\))?, rule `+tc.rule+`: `, line)
		})
	}
}

// TestRuleTable: the names are distinct snake_case words, each rule has
// a one-line description, and the last rule, fallback, answers every
// message.
func TestRuleTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, ru := range rules {
		assert.Regexp(t, `^[a-z]+(_[a-z]+)*$`, ru.name)
		assert.False(t, seen[ru.name], "rule %s is listed twice", ru.name)
		seen[ru.name] = true
		assert.NotEmpty(t, ru.doc, ru.name)
		assert.NotContains(t, ru.doc, "\n", ru.name)
		assert.NotNil(t, ru.read, ru.name)
	}
	last := rules[len(rules)-1]
	require.Equal(t, "fallback", last.name)
	_, ok := last.read(New(nil), &message{})
	assert.True(t, ok, "the last rule answers every message")
}
