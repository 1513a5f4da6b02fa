package actions

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBrief(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct{ name, msg, want string }{
		{"refused once", "POST http://127.0.0.1:5055/search_flights: connection failed: dial tcp 127.0.0.1:5055: connect: connection refused", "connection refused"},
		{"refused, retried", "POST http://127.0.0.1:1/s failed 3 times: attempt 1: connection failed: dial tcp 127.0.0.1:1: connect: connection refused; attempt 2: connection failed: dial tcp 127.0.0.1:1: connect: connection refused; attempt 3: connection failed: dial tcp 127.0.0.1:1: connect: connection refused", "connection refused"},
		{"no host", "POST http://travel.invalid/s: connection failed: dial tcp: lookup travel.invalid: no such host", "no such host"},
		{"status with error", `POST http://h/reserve_hotel: status 404 Not Found: "{\"error\":\"not found: no double room free in Nowhere\"}"`, "status 404 Not Found: not found: no double room free in Nowhere"},
		{"status with text", `POST http://h/x: status 502 Bad Gateway: "upstream down"`, "status 502 Bad Gateway"},
		{"timeout", "POST http://h/x: no answer within 5s", "no answer within 5s"},
		{"exec", "command \"go\" failed: exit status 1\nstderr: boom", `command "go" failed: exit status 1`},
		{"stub", "fare no longer available", "fare no longer available"},
		{"long", long, long[:120] + "..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Brief(tc.msg))
		})
	}
}

// TestBriefOfRealFailures shortens what the runner really says.
func TestBriefOfRealFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error": "no flights from Nowhere"}`))
	}))
	defer srv.Close()
	r := New(nil, t.TempDir(), Options{})
	run := func(decl *ir.Action) string {
		_, err := r.RunAction(context.Background(), vm.ActionRequest{Action: decl.Name, Decl: decl, Inputs: map[string]any{"city": "Oslo"}})
		require.Error(t, err)
		return Brief(err.Error())
	}
	down := httpDecl(closedURL(t), "hotel")
	down.Run.HTTP.Retry = &ir.Retry{Attempts: 2, Backoff: "1ms"}
	assert.Equal(t, "connection refused", run(down))
	assert.Equal(t, "status 404 Not Found: no flights from Nowhere", run(httpDecl(srv.URL+"/search", "hotel")))
}
