package actions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/internal/actionservertest"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rasaProject is a transfer flow whose two actions run on a Rasa action
// server at %s (the run block's url); check_funds has an on_error step,
// execute_transfer has none.
const rasaProject = `version: "1.0"
settings:
  action_error_message: "Sorry, I could not {action}."
slots:
  recipient: {type: text}
  amount: {type: number}
  has_funds: {type: boolean}
  reference: {type: text}
  customer: {type: text, initial: "Ana"}
responses:
  utter_thanks:
    - text: "Thanks, {customer}: {recipient} gets it today."
      buttons:
        - {title: "Receipt", payload: "/SetSlots(reference=R)"}
actions:
  check_funds:
    outputs: [has_funds]
    run:
      rasa: {url: "%[1]s"}
  execute_transfer:
    description: Send the money
    outputs: [reference, has_funds]
    run:
      rasa: {url: "%[1]s", retry: {attempts: 2, backoff: 1ms}}
flows:
  transfer:
    trigger:
      intents: ["send money"]
    steps:
      - {step: ask_recipient, type: collect, slot: recipient, message: "To whom?"}
      - {step: ask_amount, type: collect, slot: amount, message: "How much?"}
      - step: check
        type: action
        call: check_funds
        map_outputs: {has_funds: has_funds}
        on_error: unavailable
      - step: enough
        type: branch
        slot: has_funds
        cases: {"false": poor}
      - step: execute
        type: action
        call: execute_transfer
        map_outputs: {reference: reference}
      - {step: done, type: say, message: "Sent {amount} to {recipient}, reference {reference}.", jump_to: __end__}
      - {step: poor, type: say, message: "Not enough money.", jump_to: __end__}
      - {step: unavailable, type: say, message: "The bank is unavailable."}
`

// loadRasa loads rasaProject with its actions at url.
func loadRasa(t *testing.T, url string) *soni.Engine {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bot.yaml"), []byte(fmt.Sprintf(rasaProject, url)), 0o644))
	eng, err := soni.Load(dir, soni.Options{})
	require.NoError(t, err)
	return eng
}

// converse sends the messages and returns the last turn's result.
func converse(t *testing.T, eng *soni.Engine, msgs ...string) *soni.Reply {
	t.Helper()
	var rep *soni.Reply
	for _, m := range msgs {
		var err error
		rep, err = eng.Handle(context.Background(), "customer-7", vm.Input{Text: m})
		require.NoError(t, err, m)
	}
	return rep
}

func eventsOf(rep *soni.Reply, typ vm.EventType) []vm.Event {
	var out []vm.Event
	for _, e := range rep.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestRasaActionServer(t *testing.T) {
	var crashes atomic.Int32
	fake := actionservertest.New(map[string]actionservertest.Action{
		"check_funds": func(req actionservertest.Request) (actionservertest.Answer, error) {
			amount, _ := req.Tracker.Slot("amount").(float64)
			switch {
			case amount == 13:
				return actionservertest.Answer{}, actionservertest.Reject("the ledger refuses unlucky amounts")
			case amount == 66:
				return actionservertest.Answer{}, errors.New("ledger crashed")
			}
			return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("has_funds", amount <= 100)}}, nil
		},
		"execute_transfer": func(req actionservertest.Request) (actionservertest.Answer, error) {
			if req.Tracker.Slot("amount") == 77.0 && crashes.Add(1) == 1 {
				return actionservertest.Answer{}, errors.New("first try crashes")
			}
			return actionservertest.Answer{
				Events: []map[string]any{
					actionservertest.SlotSet("reference", "T-1"),
					{"event": "followup", "name": "action_listen"},
					{"event": "bot", "timestamp": nil, "text": "A receipt is on its way.", "data": map[string]any{"buttons": nil, "image": "http://x/r.png", "custom": nil}, "metadata": map[string]any{}},
				},
				Responses: []map[string]any{
					{"text": "Your transfer is on its way.", "buttons": []any{map[string]any{"title": "Another", "payload": "/SetSlots(recipient=Eve)"}}, "custom": map[string]any{}, "template": nil},
					{"response": "utter_thanks", "text": nil, "buttons": []any{map[string]any{"title": "Again", "payload": "/SetSlots(recipient=Eve)"}}},
				},
			}, nil
		},
	})
	srv := httptest.NewServer(fake)
	defer srv.Close()

	t.Run("slot events are the outputs", func(t *testing.T) {
		eng := loadRasa(t, srv.URL+"/webhook")
		rep := converse(t, eng, "send money", "Bob", "50")
		// The action's responses are said at its step, a response by its
		// name with the slots after the call and the action's buttons
		// after its own, then the bot events the action returned.
		assert.Equal(t, []string{"Your transfer is on its way.", "Thanks, Ana: Bob gets it today.", "A receipt is on its way.", "Sent 50 to Bob, reference T-1."}, rep.Replies)
		assert.Equal(t, []ir.Button{{Title: "Another", Payload: "/SetSlots(recipient=Eve)"}}, rep.Message(0).Buttons)
		assert.Equal(t, "utter_thanks", rep.Message(1).Response)
		assert.Equal(t, []ir.Button{{Title: "Receipt", Payload: "/SetSlots(reference=R)"}, {Title: "Again", Payload: "/SetSlots(recipient=Eve)"}}, rep.Message(1).Buttons)
		assert.Equal(t, "http://x/r.png", rep.Message(2).Image)
		assert.Len(t, eventsOf(rep, vm.EventActionExecuted), 2)
		assert.Equal(t, []string{
			`action "execute_transfer" returned a "followup" event, which soni ignores`,
		}, rep.Warnings)

		// What the action server received is Rasa's request.
		reqs := fake.Requests()
		require.Len(t, reqs, 2)
		first := reqs[0]
		assert.Equal(t, "check_funds", first.NextAction)
		assert.Equal(t, "customer-7", first.SenderID)
		assert.Equal(t, "customer-7", first.Tracker.SenderID)
		assert.Equal(t, actions.RasaVersion, first.Version)
		assert.Equal(t, map[string]any{"recipient": "Bob", "amount": 50.0, "customer": "Ana", "has_funds": nil, "reference": nil}, first.Tracker.Slots,
			"every slot, null when unset")
		assert.Equal(t, "50", first.Tracker.LatestMessage["text"])
		var texts []string
		for _, e := range first.Tracker.Events {
			if e["event"] == "user" || e["event"] == "bot" {
				texts = append(texts, fmt.Sprint(e["event"], ": ", e["text"]))
			}
		}
		assert.Equal(t, []string{"user: send money", "bot: To whom?", "user: Bob", "bot: How much?", "user: 50"}, texts)
		assert.Contains(t, first.Tracker.Events, map[string]any{"event": "slot", "name": "recipient", "value": "Bob"})
		slots, _ := first.Domain["slots"].(map[string]any)
		assert.Equal(t, map[string]any{"type": "float", "influence_conversation": false, "mappings": []any{map[string]any{"type": "controlled"}}}, slots["amount"])
		assert.ElementsMatch(t, []any{"check_funds", "execute_transfer"}, first.Domain["actions"])
		assert.Equal(t, "execute_transfer", reqs[1].NextAction)
		assert.Equal(t, true, reqs[1].Tracker.Slots["has_funds"], "the second action sees what the first set")
	})

	t.Run("a false slot value branches", func(t *testing.T) {
		eng := loadRasa(t, srv.URL+"/webhook")
		rep := converse(t, eng, "send money", "Bob", "500")
		assert.Equal(t, []string{"Not enough money."}, rep.Replies)
	})

	t.Run("a rejection takes on_error", func(t *testing.T) {
		eng := loadRasa(t, srv.URL+"/webhook")
		rep := converse(t, eng, "send money", "Bob", "13")
		assert.Equal(t, []string{"The bank is unavailable."}, rep.Replies)
		failed := eventsOf(rep, vm.EventActionFailed)
		require.Len(t, failed, 1)
		assert.Equal(t, `POST `+srv.URL+`/webhook: the action server rejected action "check_funds": the ledger refuses unlucky amounts`, failed[0].Error)
	})

	t.Run("a crash takes on_error", func(t *testing.T) {
		eng := loadRasa(t, srv.URL+"/webhook")
		rep := converse(t, eng, "send money", "Bob", "66")
		assert.Equal(t, []string{"The bank is unavailable."}, rep.Replies)
		failed := eventsOf(rep, vm.EventActionFailed)
		require.Len(t, failed, 1)
		// Rasa's SDK echoes the request back with the error; the message
		// keeps the error alone.
		assert.Equal(t, `POST `+srv.URL+`/webhook: status 500 Internal Server Error: ledger crashed`, failed[0].Error)
	})

	t.Run("a 5xx is retried when the run block says so", func(t *testing.T) {
		eng := loadRasa(t, srv.URL+"/webhook")
		rep := converse(t, eng, "send money", "Bob", "77")
		assert.Equal(t, "Sent 77 to Bob, reference T-1.", rep.Replies[len(rep.Replies)-1])
	})

	t.Run("a server address gets /webhook", func(t *testing.T) {
		eng := loadRasa(t, srv.URL)
		rep := converse(t, eng, "send money", "Bob", "50")
		assert.Equal(t, "Sent 50 to Bob, reference T-1.", rep.Replies[len(rep.Replies)-1])
	})

	t.Run("an unknown action fails without on_error", func(t *testing.T) {
		other := httptest.NewServer(actionservertest.New(map[string]actionservertest.Action{
			"check_funds": func(actionservertest.Request) (actionservertest.Answer, error) {
				return actionservertest.Answer{Events: []map[string]any{actionservertest.SlotSet("has_funds", true)}}, nil
			},
		}))
		defer other.Close()
		eng := loadRasa(t, other.URL)
		rep := converse(t, eng, "send money", "Bob", "50")
		assert.Equal(t, []string{"Sorry, I could not send the money."}, rep.Replies)
		failed := eventsOf(rep, vm.EventActionFailed)
		require.Len(t, failed, 1)
		assert.Equal(t, `POST `+other.URL+`/webhook: the action server has no action "execute_transfer": No registered action found for name 'execute_transfer'.`, failed[0].Error)
		assert.Len(t, eventsOf(rep, vm.EventFlowCancelled), 1)
	})
}

// TestRasaAnswers covers the readings of an action server's answer body,
// good and bad, one endpoint each.
func TestRasaAnswers(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		want    map[string]any
		warns   []string
		wantErr string
	}{
		{name: "slot events", status: 200, body: `{"events": [{"event": "slot", "name": "has_funds", "value": true}, {"event": "slot", "name": "reference", "value": "A"}, {"event": "slot", "name": "reference", "value": "B"}], "responses": []}`,
			want: map[string]any{"has_funds": true, "reference": "B"}},
		{name: "null clears", status: 200, body: `{"events": [{"event": "slot", "name": "reference", "value": null}]}`,
			want: map[string]any{"reference": nil}},
		{name: "numbers", status: 200, body: `{"events": [{"event": "slot", "name": "reference", "value": 3}, {"event": "slot", "name": "amount", "value": 2.5}]}`,
			want:  map[string]any{"reference": int64(3), "amount": 2.5},
			warns: []string{`action "execute_transfer" returned output "amount", which its declaration does not list`}},
		{name: "no events", status: 200, body: `{}`, want: map[string]any{}},
		{name: "reset_slots clears the outputs", status: 200, body: `{"events": [{"event": "reset_slots"}, {"event": "reset_slots"}]}`,
			want:  map[string]any{"has_funds": nil, "reference": nil},
			warns: []string{`action "execute_transfer" reset all slots: soni clears only the outputs its declaration lists`}},
		{name: "ignored events", status: 200, body: `{"events": [{"event": "restart"}, {"event": "followup", "name": "x"}, {"event": "restart"}]}`,
			want: map[string]any{},
			warns: []string{`action "execute_transfer" returned a "restart" event, which soni ignores`,
				`action "execute_transfer" returned a "followup" event, which soni ignores`}},
		{name: "a rejection event", status: 200, body: `{"events": [{"event": "action_execution_rejected", "name": "execute_transfer"}]}`,
			wantErr: `the action server rejected action "execute_transfer"`},
		{name: "bot events are messages", status: 200, body: `{"events": [{"event": "bot", "text": "hi", "data": {"buttons": null}}, {"event": "bot", "text": null, "data": {}}]}`,
			want: map[string]any{}, warns: []string{`action "execute_transfer" sent a message ("hi") that nothing can say`}},
		{name: "a crash as Rasa's SDK answers it", status: 500, body: `{"error": "division by zero", "request_body": {"next_action": "execute_transfer", "tracker": {}}}`,
			wantErr: `status 500 Internal Server Error: division by zero`},
		{name: "bad bot event", status: 200, body: `{"events": [{"event": "bot", "text": 3}]}`, wantErr: `bot event 1: "text" is a JSON number, not a string`},
		{name: "400 without Rasa's body", status: 400, body: `bad things`, wantErr: `status 400 Bad Request: "bad things"`},
		{name: "449", status: 449, body: `{}`, wantErr: `the action server asked for the domain, which the request carried`},
		{name: "not JSON", status: 200, body: `OK`, wantErr: `status 200, but the answer is not Rasa's {"events": [...], "responses": [...]}`},
		{name: "empty", status: 200, body: ``, wantErr: `status 200, but no answer: expected a JSON object`},
		{name: "events not a list", status: 200, body: `{"events": {"event": "slot"}}`, wantErr: `the answer is not Rasa's`},
		{name: "event not an object", status: 200, body: `{"events": ["slot"]}`, wantErr: `event 1 is a JSON string, not an object`},
		{name: "event with no kind", status: 200, body: `{"events": [{"name": "x"}]}`, wantErr: `event 1 has no "event" kind`},
		{name: "slot event with no name", status: 200, body: `{"events": [{"event": "slot", "value": 1}]}`, wantErr: `slot event 1 has no slot "name"`},
		{name: "two objects", status: 200, body: `{} {}`, wantErr: `the answer has data after its JSON object`},
		{name: "bad response", status: 200, body: `{"responses": [{"text": 3}]}`, wantErr: `response 1: "text" is a JSON number, not a string`},
		{name: "bad button", status: 200, body: `{"responses": [{"text": "x", "buttons": [{}]}]}`, wantErr: `response 1: button 1 has neither a "title" nor a "payload"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			eng := loadRasa(t, srv.URL)
			decl := eng.Program().Action("execute_transfer")
			r := actions.New(eng.Program(), t.TempDir(), actions.Options{})
			var warns []string
			out, err := r.RunAction(context.Background(), vm.ActionRequest{Action: "execute_transfer", Session: "s", Decl: decl, Warn: func(w string) { warns = append(warns, w) }})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
			assert.Equal(t, tc.warns, warns)
		})
	}
}

func TestParseRasaAnswerMessages(t *testing.T) {
	ans, err := actions.ParseRasaAnswer("a", nil, []byte(`{"events": [
		{"event": "bot", "timestamp": null, "text": "Done.", "data": {"elements": null, "quick_replies": null, "buttons": [{"title": "Undo", "payload": "/undo"}], "attachment": null, "image": null, "custom": null}, "metadata": {}}
	], "responses": [
		{"text": "Hi", "buttons": [{"title": "Yes", "payload": "/SetSlots(ok=true)"}], "elements": [], "custom": {}, "template": null, "response": null, "image": null, "attachment": null},
		{"response": "utter_greet"},
		{"template": "utter_old"},
		{"custom": {"card": 1}, "image": "http://x/y.png"}
	]}`))
	require.NoError(t, err)
	b, err := json.Marshal(ans.Messages)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"text": "Hi", "buttons": [{"title": "Yes", "payload": "/SetSlots(ok=true)"}]},
		{"response": "utter_greet"},
		{"response": "utter_old"},
		{"custom": {"card": 1}, "image": "http://x/y.png"},
		{"text": "Done.", "buttons": [{"title": "Undo", "payload": "/undo"}]}
	]`, string(b))
	assert.True(t, strings.HasPrefix(actions.RasaVersion, "3."))
}
