package serve

import (
	"net/http"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const accountsYAML = `version: "1.0"
responses:
  utter_ask_account_type:
    - text: "Which account?"
      buttons:
        - {title: "Checking", payload: "/SetSlots(account_type=checking)"}
        - {title: "Savings", payload: "/SetSlots(account_type=savings)"}
    - channel: rest
      text: "Which account? Tap one."
      buttons:
        - {title: "Checking", payload: "/SetSlots(account_type=checking)"}
        - {title: "Savings", payload: "/SetSlots(account_type=savings)"}
  utter_menu:
    - text: "What would you like to do?"
      image: "https://example.com/menu.png"
      custom: {kind: menu}
      buttons:
        - {title: "My balance", payload: '/check_balance{"account_type": "savings"}'}
flows:
  menu:
    trigger: {intents: ["menu"]}
    steps:
      - {step: show, type: say, response: utter_menu}
  check_balance:
    trigger: {intents: ["check my balance"]}
    slots:
      - {name: account_type, type: categorical, values: [checking, savings]}
    steps:
      - {step: ask, type: collect, slot: account_type}
      - {step: tell, type: say, message: "Your {account_type} balance is 100."}
`

// TestRESTButtonsFromResponses: the REST channel answers with a
// response's buttons (its variation for the rest channel), image and
// custom payload, and a Rasa chat widget's clicks, /SetSlots(...) and
// /intent{...}, are understood as the buttons mean.
func TestRESTButtonsFromResponses(t *testing.T) {
	r := compiler.CompileSource("accounts.yaml", []byte(accountsYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	eng, err := soni.New(r.Program, soni.Options{})
	require.NoError(t, err)
	ts := newTestServer(t, New(eng, Options{}))

	resp, body := post(t, ts, "/webhooks/rest/webhook", `{"sender": "c1", "message": "check my balance"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.JSONEq(t, `[{"recipient_id": "c1", "text": "Which account? Tap one.", "buttons": [
		{"title": "Checking", "payload": "/SetSlots(account_type=checking)"},
		{"title": "Savings", "payload": "/SetSlots(account_type=savings)"}]}]`, body,
		"the response's buttons replace the Yes/No and value buttons of the question's type")

	resp, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "c1", "message": "/SetSlots(account_type=savings)"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.JSONEq(t, `[{"recipient_id": "c1", "text": "Your savings balance is 100."}]`, body)

	resp, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "c2", "message": "menu"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.JSONEq(t, `[{"recipient_id": "c2", "text": "What would you like to do?", "image": "https://example.com/menu.png",
		"custom": {"kind": "menu"}, "buttons": [{"title": "My balance", "payload": "/check_balance{\"account_type\": \"savings\"}"}]}]`, body)

	// The intent click starts the flow it names, with its entity.
	resp, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "c2", "message": "/check_balance{\"account_type\": \"savings\"}"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.JSONEq(t, `[{"recipient_id": "c2", "text": "Your savings balance is 100."}]`, body)

	// The API's answer and its reply frames name the response.
	resp, body = post(t, ts, "/v1/sessions/c3/messages", `{"text": "check my balance"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"messages":[{"text":"Which account?","response":"utter_ask_account_type","buttons":[`)
	resp, frames := streamOf(t, ts.URL, "/v1/sessions/c4/messages", `{"text": "check my balance"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var replies []string
	for _, f := range frames {
		if f.event == "reply" {
			replies = append(replies, f.data)
		}
	}
	require.Len(t, replies, 1, "%v", frames)
	assert.JSONEq(t, `{"text": "Which account?", "response": "utter_ask_account_type", "buttons": [
		{"title": "Checking", "payload": "/SetSlots(account_type=checking)"},
		{"title": "Savings", "payload": "/SetSlots(account_type=savings)"}]}`, replies[0])
}
