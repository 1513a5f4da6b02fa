package llm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// TestHealthOncePerOutage: a hybrid model behind a real local HTTP server
// that fails (503) says it is down once, however many messages fall back to
// the rules during the outage; it says it is up again when the server
// answers, and down again at the next outage. A server that refuses the
// connection is an outage too; a malformed answer is not (the model was
// reached).
func TestHealthOncePerOutage(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	var failing, garbage atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		switch {
		case failing.Load():
			http.Error(w, "model overloaded", http.StatusServiceUnavailable)
		case garbage.Load():
			_, _ = w.Write([]byte("not json"))
		default:
			_, _ = w.Write([]byte(answer("start flow check_balance", "stop")))
		}
	}))
	defer ts.Close()
	var got []Health
	model, err := New(Config{BaseURL: ts.URL + "/v1", Model: "m", OnHealth: func(h Health) { got = append(got, h) }})
	require.NoError(t, err)
	h := &Hybrid{Rules: understand.New(prog), Model: model}
	ask := func() []vm.Command {
		var notes []string
		cmds, err := h.Understand(context.Background(), "how much cash have I got", view(m, m.NewState("s"), &notes))
		require.NoError(t, err)
		return cmds
	}

	ask()
	assert.Empty(t, got, "a model that answers says nothing")

	failing.Store(true)
	assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, ask(), "the rules' commands stand")
	ask()
	ask()
	require.Len(t, got, 1, "one outage, one warning")
	assert.True(t, got[0].Down)
	assert.Equal(t, ts.URL+"/v1", got[0].Endpoint)
	assert.Contains(t, got[0].Err, "status 503: model overloaded")

	failing.Store(false)
	ask()
	ask()
	require.Len(t, got, 2)
	assert.False(t, got[1].Down, "the model answers again")

	garbage.Store(true)
	ask()
	assert.Len(t, got, 2, "a malformed answer comes from a reachable model")
	garbage.Store(false)

	failing.Store(true)
	ask()
	require.Len(t, got, 3, "a new outage, a new warning")
	assert.True(t, got[2].Down)
}

// TestHealthRefused: an endpoint nobody listens on any more refuses the
// connection; the llm mode falls back, and says the model is down once.
func TestHealthRefused(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	var got []Health
	model, err := New(Config{BaseURL: url, Model: "m", OnHealth: func(h Health) { got = append(got, h) }})
	require.NoError(t, err)
	for range 2 {
		var notes []string
		cmds, err := model.Understand(context.Background(), "how much cash have I got", view(m, m.NewState("s"), &notes))
		require.NoError(t, err)
		assert.Equal(t, []vm.Command{{Kind: vm.CmdFallback}}, cmds)
	}
	require.Len(t, got, 1)
	assert.True(t, got[0].Down)
	assert.Contains(t, got[0].Err, "request failed")
}

// TestHealthIgnoresACancelledTurn: a turn whose context ends says nothing
// about the model.
func TestHealthIgnoresACancelledTurn(t *testing.T) {
	prog := banking(t)
	m, err := vm.New(prog, vm.Options{})
	require.NoError(t, err)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer ts.Close()
	var got []Health
	model, err := New(Config{BaseURL: ts.URL, Model: "m", OnHealth: func(h Health) { got = append(got, h) }})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var notes []string
	_, err = model.Understand(ctx, "how much cash have I got", view(m, m.NewState("s"), &notes))
	require.NoError(t, err)
	assert.Empty(t, got)
}
