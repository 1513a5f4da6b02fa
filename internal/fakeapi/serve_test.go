package fakeapi

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	h := Handler(map[string]Action{
		"double": func(in map[string]any) (map[string]any, error) {
			n, ok := in["n"].(float64)
			if !ok {
				return nil, BadInput("input %q must be a number", "n")
			}
			return map[string]any{"twice": 2 * n}, nil
		},
		"broken": func(map[string]any) (map[string]any, error) { return nil, errors.New("disk full") },
	})
	go func() { done <- Serve(ctx, "127.0.0.1:0", h, func(a net.Addr) { addrs <- a }) }()
	base := "http://" + (<-addrs).String()

	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/double", `{"action": "double", "session": "s", "inputs": {"n": 21}}`, 200, `{"twice":42}`},
		{"POST", "/double", `{"inputs": {"n": "x"}}`, 422, `{"error":"input \"n\" must be a number"}`},
		{"POST", "/broken", `{"inputs": {}}`, 500, `{"error":"disk full"}`},
		{"POST", "/double", `[1`, 400, `request is not a JSON object`},
		{"GET", "/double", ``, 405, `method \"GET\" not allowed`},
		{"POST", "/nope", `{}`, 404, `{"error":"no endpoint \"/nope\": use /broken, /double"}`},
	} {
		req, err := http.NewRequest(tc.method, base+tc.path, strings.NewReader(tc.body))
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, tc.status, resp.StatusCode, tc.path)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		assert.Contains(t, string(b), tc.want)
	}

	cancel()
	assert.NoError(t, <-done) // a server that never stopped fails by the test run's timeout
}

func TestServeBadAddress(t *testing.T) {
	err := Serve(context.Background(), "256.0.0.1:1", Handler(nil), func(net.Addr) { t.Error("ready called") })
	require.Error(t, err)
}
