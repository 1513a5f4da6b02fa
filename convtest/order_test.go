package convtest

import (
	"regexp"
	"testing"

	"github.com/soni-dev/soni/diag"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
)

// TestOrderConsecutiveReplies pins the fix of assertion_order_enabled with
// two bot_uttered assertions in a row: two replies with no event between
// them are two places on the turn's timeline, not one.
func TestOrderConsecutiveReplies(t *testing.T) {
	uttered := func(re string) *Step {
		return &Step{Kind: StepBotUttered, Text: re, Regexp: regexp.MustCompile(re)}
	}
	started := &Step{Kind: StepFlowStarted, Text: "order"}
	res := &vm.Result{
		Replies:     []string{"Done.", "What else?", "Bye."},
		ReplyEvents: []int{1, 1, 2},
		Events:      []vm.Event{{Type: vm.EventFlowStarted, Flow: "order"}, {Type: vm.EventFlowCompleted, Flow: "order"}},
	}
	for _, tc := range []struct {
		name    string
		asserts []*Step
		ok      bool
	}{
		{"two replies in order", []*Step{uttered("Done"), uttered("What else")}, true},
		{"three replies in order", []*Step{uttered("Done"), uttered("What else"), uttered("Bye")}, true},
		{"event then two replies", []*Step{started, uttered("Done"), uttered("What else")}, true},
		{"two replies out of order", []*Step{uttered("What else"), uttered("Done")}, false},
		{"the same reply twice", []*Step{uttered("Done"), uttered("Done")}, false},
		{"reply before its event", []*Step{uttered("Done"), started}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, why := checkOrder(nil, tc.asserts, res)
			if tc.ok {
				assert.Empty(t, why)
				assert.Nil(t, st)
			} else {
				assert.NotEmpty(t, why)
			}
		})
	}
}

// TestBotLineMatchesAnyVariation: a bot line passes when it equals the
// reply or any other variation of the response said, and fails otherwise;
// bot_response checks the response's name.
func TestBotLineMatchesAnyVariation(t *testing.T) {
	res := &vm.Result{
		Replies:  []string{"How much?"},
		Messages: []vm.Utterance{{Text: "How much?", Response: "utter_ask_amount", Variations: []string{"How much?", "What amount?"}}},
	}
	for _, tc := range []struct {
		step *Step
		ok   bool
	}{
		{&Step{Kind: StepBot, Text: "How much?"}, true},
		{&Step{Kind: StepBot, Text: "What amount?"}, true},
		{&Step{Kind: StepBot, Text: "How many?"}, false},
		{&Step{Kind: StepBotResponse, Text: "utter_ask_amount"}, true},
		{&Step{Kind: StepBotResponse, Text: "utter_ask_recipient"}, false},
	} {
		tc.step.Pos = diag.Pos{File: "t.yaml", Line: 2, Col: 3}
		turn := &Turn{User: &Step{Kind: StepUser, Text: "50", Pos: diag.Pos{File: "t.yaml", Line: 1, Col: 3}}, Checks: []*Step{tc.step}}
		f := checkTurn(nil, turn, res, nil)
		assert.Equal(t, tc.ok, f == nil, "%s %q", tc.step.Kind, tc.step.Text)
	}
}
