package main

import (
	"testing"

	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/rasaimport"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
)

// TestFailureFacts: what a failing turn touched, read from its events,
// its expected replies and its failed checks; and when the understanding
// may have read the message another way.
func TestFailureFacts(t *testing.T) {
	for name, tc := range map[string]struct {
		f    convtest.Failure
		want rasaimport.Facts
	}{
		"an action failed": {convtest.Failure{User: "A123", Expected: []string{"(response utter_order_status)"}, Events: []vm.Event{
			{Type: vm.EventSlotSet, Flow: "track_order", Slot: "order_id", New: "A123"},
			{Type: vm.EventActionFailed, Flow: "track_order", Action: "action_fetch_order"},
		}}, rasaimport.Facts{Flows: []string{"track_order"}, Actions: []string{"action_fetch_order"}, FailedActions: []string{"action_fetch_order"},
			Responses: []string{"utter_order_status"}, Slots: []string{"order_id"}}},
		"nothing but a pattern ran": {convtest.Failure{User: "show my flights", Events: []vm.Event{{Type: vm.EventFlowStarted, Flow: "pattern_cannot_handle"}}},
			rasaimport.Facts{Flows: []string{"pattern_cannot_handle"}, Misread: true}},
		"an expected flow did not start": {convtest.Failure{User: "hi", Problems: []string{`flow_started: flow "car_research" was not started during the turn`},
			Events: []vm.Event{{Type: vm.EventFlowStarted, Flow: "check_balance"}}},
			rasaimport.Facts{Flows: []string{"check_balance"}, Checked: []string{"car_research"}, Misread: true}},
		"the whole message in a slot": {convtest.Failure{User: "not the former", Events: []vm.Event{{Type: vm.EventSlotSet, Flow: "add_contact", Slot: "handle", New: "not the former"}}},
			rasaimport.Facts{Flows: []string{"add_contact"}, Slots: []string{"handle"}, Misread: true}},
		"a slot the message should have filled in the flow it started": {convtest.Failure{User: "send Steven 50", Problems: []string{`slot_was_set: slot "recipient" was not set during the turn`},
			Events: []vm.Event{{Type: vm.EventFlowStarted, Flow: "transfer_money"}}},
			rasaimport.Facts{Flows: []string{"transfer_money"}, Checked: []string{"recipient"}, Misread: true}},
		"a slot not reset at a flow's end": {convtest.Failure{User: "yes", Problems: []string{`slot_was_set: slot "income" was not set during the turn`},
			Events: []vm.Event{{Type: vm.EventSlotSet, Flow: "verify", Slot: "ok", New: true}, {Type: vm.EventFlowCompleted, Flow: "verify"}}},
			rasaimport.Facts{Flows: []string{"verify"}, Slots: []string{"ok"}, Checked: []string{"income"}, Ended: []string{"verify"}}},
		"a one-word answer in a slot": {convtest.Failure{User: "Ana", Events: []vm.Event{{Type: vm.EventSlotSet, Flow: "greet", Slot: "name", New: "Ana"}}},
			rasaimport.Facts{Flows: []string{"greet"}, Slots: []string{"name"}}},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, failureFacts(&tc.f))
		})
	}
}
