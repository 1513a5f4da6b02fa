package faketravel

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// post sends a request to the handler and returns the status and the
// decoded answer.
func post(t *testing.T, h http.Handler, method, path, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	return rec.Code, out
}

const traveller = `"traveller_name": "Ana Lopez", "traveller_email": "ana@example.com"`

func TestEndpoints(t *testing.T) {
	h := New()
	tests := []struct {
		name       string
		method     string
		path       string
		inputs     string
		body       string // the whole body, instead of one built from inputs
		wantStatus int
		want       map[string]any
		wantError  string
	}{
		{
			name: "search", path: "/search_flights",
			inputs:     `{"origin": "Madrid", "destination": "Lisbon", "departure_date": "2026-08-01", "cabin": "business", "passengers": 2}`,
			wantStatus: 200, want: map[string]any{"found": true, "flight_id": "AQ1671", "fare": 1686.0, "currency": "EUR"},
		},
		{
			name: "search ignores case of cities", path: "/search_flights",
			inputs:     `{"origin": "MADRID", "destination": "lisbon", "departure_date": "2026-08-01", "cabin": "business", "passengers": 2}`,
			wantStatus: 200, want: map[string]any{"found": true, "flight_id": "AQ1671", "fare": 1686.0, "currency": "EUR"},
		},
		{
			name: "no flights", path: "/search_flights",
			inputs:     `{"origin": "Madrid", "destination": "Nowhere", "departure_date": "2026-08-01", "cabin": "economy", "passengers": 1}`,
			wantStatus: 200, want: map[string]any{"found": false, "flight_id": nil, "fare": nil, "currency": nil},
		},
		{
			name: "bad date", path: "/search_flights",
			inputs:     `{"origin": "Madrid", "destination": "Lisbon", "departure_date": "next week", "cabin": "economy", "passengers": 1}`,
			wantStatus: 422, wantError: `input "departure_date" must be a date like 2026-07-14, not "next week"`,
		},
		{
			name: "unknown cabin", path: "/search_flights",
			inputs:     `{"origin": "Madrid", "destination": "Lisbon", "departure_date": "2026-08-01", "cabin": "cargo", "passengers": 1}`,
			wantStatus: 422, wantError: `input "cabin" has the unknown value "cargo"`,
		},
		{
			name: "too many passengers", path: "/search_flights",
			inputs:     `{"origin": "Madrid", "destination": "Lisbon", "departure_date": "2026-08-01", "cabin": "economy", "passengers": 12}`,
			wantStatus: 422, wantError: `input "passengers" must be a whole number from 1 to 9`,
		},
		{
			name: "book a flight", path: "/reserve_flight",
			inputs:     `{"flight_id": "AQ1671", "passengers": 2, ` + traveller + `}`,
			wantStatus: 200, want: map[string]any{
				"booking_reference": "MEMRTA",
				"messages":          []any{map[string]any{"text": "The airline has confirmed your seats on flight AQ1671. Online check-in opens 24 hours before departure."}},
			},
		},
		{
			name: "book an unknown flight id", path: "/reserve_flight",
			inputs:     `{"flight_id": "x", "passengers": 2, ` + traveller + `}`,
			wantStatus: 422, wantError: `input "flight_id" is not a flight id from search_flights: "x"`,
		},
		{
			name: "bad e-mail", path: "/reserve_flight",
			inputs:     `{"flight_id": "AQ1671", "passengers": 2, "traveller_name": "Ana", "traveller_email": "ana"}`,
			wantStatus: 422, wantError: `input "traveller_email" is not an e-mail address: "ana"`,
		},
		{
			name: "book a hotel", path: "/reserve_hotel",
			inputs:     `{"city": "Paris", "check_in": "2026-07-14", "nights": 3, "room": "double", ` + traveller + `}`,
			wantStatus: 200, want: map[string]any{"booked": true, "hotel_name": "Riverside Inn Paris", "total_price": 390.0, "currency": "EUR", "reference": "H-DSS6ZY"},
		},
		{
			name: "no hotel", path: "/reserve_hotel",
			inputs:     `{"city": "Nowhere", "check_in": "2026-07-14", "nights": 3, "room": "suite", ` + traveller + `}`,
			wantStatus: 200, want: map[string]any{"booked": false, "hotel_name": nil, "total_price": nil, "currency": nil, "reference": nil},
		},
		{
			name: "unset input", path: "/reserve_hotel",
			inputs:     `{"city": null}`,
			wantStatus: 422, wantError: `input "city" must be a non-empty string`,
		},
		{name: "not JSON", path: "/reserve_hotel", body: "city=Paris", wantStatus: 400, wantError: "request is not a JSON object"},
		{name: "GET", method: http.MethodGet, path: "/search_flights", body: "{}", wantStatus: 405, wantError: `method "GET" not allowed: POST the action request`},
		{name: "unknown endpoint", path: "/cancel", body: "{}", wantStatus: 404, wantError: `no endpoint "/cancel"`},
		{name: "too large", path: "/search_flights", body: `{"x": "` + strings.Repeat("a", 1<<20) + `"}`, wantStatus: 413, wantError: "request larger than 1 MiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			body := tc.body
			if body == "" {
				body = `{"action": "x", "session": "s", "inputs": ` + tc.inputs + `}`
			}
			status, out := post(t, h, method, tc.path, body)
			assert.Equal(t, tc.wantStatus, status)
			if tc.wantError != "" {
				assert.Contains(t, out["error"], tc.wantError)
				return
			}
			assert.Equal(t, tc.want, out)
		})
	}
}

func TestAnswersDependOnTheInputs(t *testing.T) {
	h := New()
	search := func(dest, date string) map[string]any {
		_, out := post(t, h, http.MethodPost, "/search_flights",
			`{"inputs": {"origin": "Madrid", "destination": "`+dest+`", "departure_date": "`+date+`", "cabin": "economy", "passengers": 1}}`)
		return out
	}
	a := search("Rome", "2026-09-01")
	assert.Equal(t, a, search("Rome", "2026-09-01"), "same trip, same answer")
	assert.NotEqual(t, a["flight_id"], search("Rome", "2026-09-02")["flight_id"])
	assert.NotEqual(t, a["flight_id"], search("Oslo", "2026-09-01")["flight_id"])
	fare := a["fare"].(float64)
	assert.True(t, fare >= 120 && fare <= 120*1.3, "economy fare %v within 30%% of the base", fare)
}
