package convtest

import (
	"regexp"
	"testing"

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
