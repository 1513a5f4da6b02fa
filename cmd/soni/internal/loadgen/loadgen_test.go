package loadgen

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRun: every message of every conversation is one counted turn; a
// conversation whose last reply lacks the expected text is an error.
func TestRun(t *testing.T) {
	var n atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct{ Text string }
		_ = json.NewDecoder(r.Body).Decode(&m)
		n.Add(1)
		reply := "ok"
		if m.Text == "last" {
			reply = "done " + strings.TrimPrefix(r.URL.Path, "/v1/sessions/")
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"replies": []string{reply}})
	}))
	defer ts.Close()
	r := Run(context.Background(), Options{URL: ts.URL, Conversations: 2, Duration: 20 * time.Millisecond, Script: []string{"a", "last"}, Expect: "done load-"})
	assert.Zero(t, r.Errors, r.FirstError)
	assert.Equal(t, int(n.Load()), r.Turns)
	assert.Positive(t, r.Turns)
	assert.Zero(t, r.Turns%2, "whole conversations")
	assert.LessOrEqual(t, r.P50, r.P99)

	bad := Run(context.Background(), Options{URL: ts.URL, Conversations: 1, Duration: time.Millisecond, Script: []string{"last"}, Expect: "never"})
	assert.Positive(t, bad.Errors)
	assert.Contains(t, bad.FirstError, `the last reply lacks "never"`)
}
