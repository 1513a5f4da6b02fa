package fakehelpdesk

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func post(t *testing.T, h http.Handler, path, inputs string) (int, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"action": "x", "session": "s", "inputs": `+inputs+`}`)))
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	return rec.Code, out
}

var today = func() time.Time { return time.Date(2027, 3, 10, 15, 4, 5, 0, time.UTC) }

func TestEndpoints(t *testing.T) {
	const problem = `{"category": "technical", "description": "The app crashes when I log in", "priority": "high", "customer_tier": "premium"}`
	for _, tc := range []struct {
		name, path, inputs string
		status             int
		want               map[string]any
	}{
		{"open a ticket", "/create_ticket", problem, 200, map[string]any{"ticket_id": "T-88425"}},
		{"an urgent ticket pages the engineer on call, and says so", "/create_ticket", `{"category": "technical", "description": "Nobody can log in", "priority": "urgent"}`, 200,
			map[string]any{"ticket_id": "T-44866", "messages": []any{map[string]any{"text": "Because it's urgent, I've also paged the engineer on call."}}}},
		{"without a tier", "/create_ticket", `{"category": "billing", "description": "I was charged twice", "priority": "low"}`, 200, map[string]any{"ticket_id": "T-90057"}},
		{"bad category", "/create_ticket", `{"category": "cooking", "description": "x", "priority": "low"}`, 422,
			map[string]any{"error": `input "category" must be one of billing, technical, account, other, not "cooking"`}},
		{"no description", "/create_ticket", `{"category": "billing", "priority": "low"}`, 422, map[string]any{"error": `input "description" is missing or not a string`}},
		{"a starting ticket", "/get_ticket_status", `{"ticket_id": "T-10001"}`, 200, map[string]any{"found": true, "status": "waiting for you", "updated_on": "2026-03-02"}},
		{"an unknown ticket is an answer", "/get_ticket_status", `{"ticket_id": "T-99999"}`, 200, map[string]any{"found": false, "status": nil, "updated_on": nil}},
		{"a malformed number", "/get_ticket_status", `{"ticket_id": "12345"}`, 422, map[string]any{"error": `input "ticket_id" must look like T-12345, not "12345"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := post(t, New(today).Handler(), tc.path, tc.inputs)
			assert.Equal(t, tc.status, status)
			assert.Equal(t, tc.want, out)
		})
	}
}

// TestOpenedTicketsAreKnown: a ticket the desk opened can be looked up,
// dated the day it was opened; the same report gets the same number.
func TestOpenedTicketsAreKnown(t *testing.T) {
	h := New(today).Handler()
	in := `{"category": "account", "description": "I cannot reset my password", "priority": "urgent"}`
	_, out := post(t, h, "/create_ticket", in)
	id, _ := out["ticket_id"].(string)
	require.Regexp(t, `^T-[2-9][0-9]{4}$`, id)
	_, again := post(t, h, "/create_ticket", in)
	assert.Equal(t, id, again["ticket_id"])
	_, st := post(t, h, "/get_ticket_status", `{"ticket_id": "`+id+`"}`)
	assert.Equal(t, map[string]any{"found": true, "status": "open", "updated_on": "2027-03-10"}, st)

	_, other := post(t, New(today).Handler(), "/get_ticket_status", `{"ticket_id": "`+id+`"}`)
	assert.Equal(t, false, other["found"], "another desk does not know it")
}
