package faketravel_test

import (
	"context"
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/actions"
	"github.com/soni-dev/soni/flows/travel/faketravel"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// travelEngine loads flows/travel with TRAVEL_API_URL set to apiURL.
func travelEngine(t *testing.T, apiURL string) *soni.Engine {
	t.Helper()
	lookup := func(k string) (string, bool) {
		if k == "TRAVEL_API_URL" {
			return apiURL, true
		}
		return "", false
	}
	e, err := soni.Load("..", soni.Options{ActionOptions: actions.Options{LookupEnv: lookup}})
	require.NoError(t, err)
	return e
}

// talk sends the messages in order and returns the bot's replies to the
// last one and every action_failed error.
func talk(t *testing.T, e *soni.Engine, msgs ...string) (last []string, failures []string) {
	t.Helper()
	for _, m := range msgs {
		rep, err := e.Handle(context.Background(), "traveller", vm.Input{Text: m})
		require.NoError(t, err, m)
		require.NotEmpty(t, rep.Replies, m)
		last = rep.Replies
		for _, ev := range rep.Events {
			if ev.Type == vm.EventActionFailed {
				failures = append(failures, ev.Error)
			}
		}
	}
	return last, failures
}

// anythingElse is what the travel agent's pattern_completed says.
const anythingElse = "Is there anything else I can do for your trip?"

var hotelTalk = []string{"book a hotel", "Paris", "2026-07-14", "3", "double", "yes", "Ana Lopez", "ana@example.com"}
var flightTalk = []string{"book a flight", "Madrid", "Lisbon", "2026-08-01", "business", "2", "yes"}

func TestTravelFlowsAgainstTheFakeAPI(t *testing.T) {
	srv := httptest.NewServer(faketravel.New())
	defer srv.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	down := "http://" + l.Addr().String()
	require.NoError(t, l.Close())

	tests := []struct {
		name        string
		api         string
		msgs        []string
		want        []string // the replies to the last message
		wantFailure string
	}{
		{name: "hotel", api: srv.URL, msgs: hotelTalk, want: []string{
			"Thanks, Ana Lopez. The confirmation will go to ana@example.com.",
			"You're booked at Riverside Inn Paris: 390 EUR in total. Your reference is H-DSS6ZY.",
			anythingElse,
		}},
		{name: "flight fare", api: srv.URL, msgs: flightTalk, want: []string{"The best business fare is 1686 EUR in total, on flight AQ1671. Shall I book it?"}},
		// The airline's answer carries a note, said at the booking step.
		{name: "flight booked", api: srv.URL, msgs: append(append([]string{}, flightTalk...), "yes", "Ana Lopez", "ana@example.com"), want: []string{
			"Thanks, Ana Lopez. The confirmation will go to ana@example.com.",
			"The airline has confirmed your seats on flight AQ1671. Online check-in opens 24 hours before departure.",
			"Booked! Your reference is MEMRTA. Have a good trip.",
			anythingElse,
		}},
		// Nothing found is an answer, not a failure: the flows tell it
		// apart from a service that is down.
		{
			name: "no hotel", api: srv.URL,
			msgs: []string{"book a hotel", "Nowhere", "2026-07-14", "3", "double", "yes", "Ana Lopez", "ana@example.com"},
			want: []string{"Thanks, Ana Lopez. The confirmation will go to ana@example.com.", "Sorry, there is no double room free in Nowhere for those dates.", anythingElse},
		},
		{
			name: "no flight", api: srv.URL,
			msgs: []string{"book a flight", "Madrid", "Nowhere", "2026-08-01", "business", "2", "yes"},
			want: []string{"I couldn't find a flight from Madrid to Nowhere on 2026-08-01.", anythingElse},
		},
		{
			name: "api down, search retried", api: down, msgs: flightTalk,
			want:        []string{"I can't reach the flight search right now, so I don't know yet what flies on 2026-08-01. Please try again in a few minutes.", anythingElse},
			wantFailure: "/search_flights failed 3 times: attempt 1: connection failed:",
		},
		{
			name: "api down, hotel", api: down, msgs: hotelTalk,
			want:        []string{"Thanks, Ana Lopez. The confirmation will go to ana@example.com.", "I can't reach the hotel booking service right now, so nothing is booked. Please try again in a few minutes.", anythingElse},
			wantFailure: "/reserve_hotel: connection failed:",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			last, failures := talk(t, travelEngine(t, tc.api), tc.msgs...)
			assert.Equal(t, tc.want, last)
			if tc.wantFailure == "" {
				assert.Empty(t, failures)
				return
			}
			require.Len(t, failures, 1)
			assert.Contains(t, failures[0], tc.wantFailure)
			assert.True(t, strings.HasPrefix(failures[0], "POST "+tc.api+"/"), failures[0])
		})
	}
}
