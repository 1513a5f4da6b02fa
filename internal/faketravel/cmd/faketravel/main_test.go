package main

import (
	"context"
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
	go func() { done <- serve(ctx, "127.0.0.1:0", func(a net.Addr) { addrs <- a }) }()
	addr := <-addrs

	resp, err := http.Post("http://"+addr.String()+"/reserve_hotel", "application/json", strings.NewReader(
		`{"inputs": {"city": "Oslo", "check_in": "2026-01-02", "nights": 1, "room": "single", "traveller_name": "Bo", "traveller_email": "bo@example.com"}}`))
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(b), `"total_price":90`)

	cancel()
	assert.NoError(t, <-done) // a server that never stopped fails by the test run's timeout
}

func TestServeBadAddress(t *testing.T) {
	err := serve(context.Background(), "256.0.0.1:1", func(net.Addr) { t.Error("ready called") })
	require.Error(t, err)
}
