package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bound is how long a test lets a connection wait for the server before
// failing: far above any wait that passes, it only keeps a broken server
// from hanging the test.
const bound = 30 * time.Second

// dial opens a raw connection to the test server, with the bound as its
// deadline.
func dial(t *testing.T, url string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	require.NoError(t, err)
	require.NoError(t, c.SetDeadline(time.Now().Add(bound)))
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer reports whether the server closed c (a read ends with
// EOF or a reset) rather than the bound passing.
func closedByServer(t *testing.T, c net.Conn, r *bufio.Reader) bool {
	t.Helper()
	if r == nil {
		r = bufio.NewReader(c)
	}
	_, err := io.ReadAll(r)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return true
}

// rawResponse reads one response from a raw connection.
func rawResponse(t *testing.T, r *bufio.Reader) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(r, nil)
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	return resp, string(b)
}

// TestConnectionTimeouts: a connection that sends nothing, headers that
// trickle, a body that trickles and a keep-alive left idle are each let
// go (issue 20 §2.2). Before, each held its connection for ever.
func TestConnectionTimeouts(t *testing.T) {
	short := 20 * time.Millisecond
	ts, _ := newShop(t, Options{ReadHeaderTimeout: short, ReadTimeout: short, IdleTimeout: short}, nil)

	tests := []struct {
		name, request string
		status        int // the answer before the server lets go; 0: none
	}{
		{"silent", "", 0},
		{"trickling headers", "GET /healthz HTTP/1.1\r\nHost: x\r\n", 0},
		{"trickling body", "POST /v1/sessions/tb/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\": ", http.StatusRequestTimeout},
		{"idle keep-alive", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, ts.URL)
			_, err := io.WriteString(c, tt.request)
			require.NoError(t, err)
			r := bufio.NewReader(c)
			if tt.status != 0 {
				resp, body := rawResponse(t, r)
				assert.Equal(t, tt.status, resp.StatusCode, body)
				if tt.status == http.StatusRequestTimeout {
					assert.Contains(t, body, `"request_timeout"`)
				}
			}
			assert.True(t, closedByServer(t, c, r))
		})
	}
}

// TestWriteTimeoutSparesStreams: WriteTimeout bounds a JSON answer, and
// a stream, which lasts as long as its turn, has its own limit per frame
// instead.
func TestWriteTimeoutSparesStreams(t *testing.T) {
	ts, _ := newShop(t, Options{WriteTimeout: time.Nanosecond}, nil)
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/sessions/wt/messages", strings.NewReader(`{"text": "order a pizza"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	_, err = ts.Client().Do(req)
	assert.Error(t, err, "the answer is written after its deadline")

	req, err = http.NewRequest(http.MethodPost, ts.URL+"/v1/sessions/wt2/messages", strings.NewReader(`{"text": "order a pizza"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var last sseEvent
	require.NoError(t, readSSE(resp.Body, func(ev sseEvent) bool { last = ev; return true }))
	assert.Equal(t, "done", last.event)
	assert.Contains(t, last.data, "Small or large?")
}

// TestNetHTTPErrorsAreJSON: the requests net/http refuses before any
// handler runs get the documented JSON error, not its text/plain (issue
// 20 §2.12).
func TestNetHTTPErrorsAreJSON(t *testing.T) {
	ts, _ := newShop(t, Options{MaxHeaderBytes: 1024}, nil)
	tests := []struct {
		name, request string
		status        int
		code, message string
	}{
		{"malformed request line", "GARBAGE\r\n\r\n", 400, "bad_request", "not valid HTTP"},
		{"bad URL escape", "GET /v1/sessions/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_request", "not valid HTTP"},
		{"malformed header", "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, "bad_request", "not valid HTTP"},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", 400, "bad_request", "missing required Host header"},
		{"malformed Host", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "bad_request", "malformed Host header"},
		{"two Content-Lengths", "POST /v1/sessions/a/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400, "bad_request", "not valid HTTP"},
		{"headers too large", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 8000) + "\r\n\r\n", 431, "headers_too_large", "headers are too large"},
		{"unknown transfer encoding", "POST /v1/sessions/a/messages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported", "Transfer-Encoding"},
		{"unknown HTTP version", "GET /healthz HTTP/9.1\r\nHost: x\r\n\r\n", 505, "unsupported", "HTTP/1.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, ts.URL)
			_, err := io.WriteString(c, tt.request)
			require.NoError(t, err)
			resp, body := rawResponse(t, bufio.NewReader(c))
			assert.Equal(t, tt.status, resp.StatusCode, body)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			var e apiError
			require.NoError(t, json.Unmarshal([]byte(body), &e), body)
			assert.Equal(t, tt.code, e.Error.Code)
			assert.Contains(t, e.Error.Message, tt.message)
		})
	}
}

// TestNetHTTPErrorSignature: only net/http's own error responses are
// rewritten; a handler's answers, text or not, pass as they are.
func TestNetHTTPErrorSignature(t *testing.T) {
	_, _, ok := netHTTPError([]byte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nDate: x\r\n\r\nhi"))
	assert.False(t, ok)
	_, _, ok = netHTTPError([]byte("id: 1\nevent: reply\n"))
	assert.False(t, ok)
	status, detail, ok := netHTTPError([]byte("HTTP/1.1 400 Bad Request: missing required Host header" + netHTTPErrorHeaders + "400 Bad Request: missing required Host header"))
	assert.True(t, ok)
	assert.Equal(t, 400, status)
	assert.Equal(t, "missing required Host header", detail)
}

// TestConnectionCap: past MaxConns a connection answers /healthz and
// /readyz only; past the reserve kept for them, it is answered 503 at
// once (issue 20 §2.2). Before, connections piled up until no file
// descriptor was left, and then nothing answered, /healthz included.
func TestConnectionCap(t *testing.T) {
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	eng, err := soni.New(r.Program, soni.Options{})
	require.NoError(t, err)
	srv := New(eng, Options{MaxConns: 1})
	srv.reserve = 1
	capped := newTestServer(t, srv)

	get := func(c net.Conn, path string) (*http.Response, string) {
		_, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(t, err)
		return rawResponse(t, bufio.NewReader(c))
	}
	// The first connection is sending its request: it is not idle, so
	// the next cannot take its place (an idle one would be drained:
	// TestIdleConnectionsDrainedAtTheCap).
	first := dial(t, capped.URL)
	_, err = io.WriteString(first, "GET /v1/sessions HTTP/1.1\r\n")
	require.NoError(t, err)

	health := dial(t, capped.URL)
	resp, body := get(health, "/healthz")
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.True(t, resp.Close, "a connection over the cap is let go after its answer")
	// Once it is closed, its place in the reserve is free.
	require.True(t, closedByServer(t, health, nil))

	over := dial(t, capped.URL)
	resp, body = get(over, "/v1/sessions")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Contains(t, body, `"too_many_connections"`)
	require.True(t, closedByServer(t, over, nil))

	// One connection holds the reserve, sending its request slowly; the
	// next is refused without being read.
	holder := dial(t, capped.URL)
	_, err = io.WriteString(holder, "GET /healthz HTTP/1.1\r\n")
	require.NoError(t, err)
	refused := dial(t, capped.URL)
	resp, body = rawResponse(t, bufio.NewReader(refused))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	assert.Contains(t, body, `"too_many_connections"`)

	_, err = io.WriteString(first, "Host: x\r\n\r\n")
	require.NoError(t, err)
	resp, body = rawResponse(t, bufio.NewReader(first))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the connections within the cap are served throughout: %s", body)
}

// TestShutdownLetsTurnsFinishAndDropsTheRest: Shutdown closes idle
// connections at once, waits for the turn in flight and its answer, then
// closes a connection still trickling its request and returns nil (issue
// 20 §2.2). Before, the trickling client held Shutdown until its context
// ended.
func TestShutdownLetsTurnsFinishAndDropsTheRest(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	ts, _ := shopOn(t, Options{}, checkpoints.NewMemoryStore(), func(ctx context.Context) (map[string]any, error) {
		close(started)
		<-release
		return map[string]any{"in_stock": true}, nil
	})
	v, _ := testServers.Load(ts)
	srv := v.(*Server)
	post(t, ts, "/v1/sessions/sd/messages", `{"text": "order a pizza"}`)
	post(t, ts, "/v1/sessions/sd/messages", `{"text": "small"}`)

	idle := dial(t, ts.URL)
	_, err := io.WriteString(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	idleR := bufio.NewReader(idle)
	resp, _ := rawResponse(t, idleR)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	trickling := dial(t, ts.URL)
	_, err = io.WriteString(trickling, "POST /v1/sessions/other/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"te")
	require.NoError(t, err)

	type answer struct {
		body string
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		_, body, err := tryPost(ts, "/v1/sessions/sd/messages", `{"text": "no"}`)
		answered <- answer{body, err}
	}()
	select {
	case <-started:
	case a := <-answered:
		t.Fatalf("the turn ended (%v) before its action ran: %s", a.err, a.body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(ctx) }()

	assert.True(t, closedByServer(t, idle, idleR), "an idle connection is closed at once")
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned (%v) while a turn ran", err)
	default:
	}
	close(release)
	a := <-answered
	require.NoError(t, a.err, "the turn in flight answers")
	assert.Contains(t, a.body, "A small pizza?", "the turn in flight finishes and answers")
	assert.NoError(t, <-shut)
	assert.True(t, closedByServer(t, trickling, nil), "a connection still sending its request is closed")
}

// TestIdleConnectionsDrainedAtTheCap: a client holding idle keep-alive
// connections by the hundred cannot lock another out: at the cap, the
// connection idle longest is closed to admit a new one, and every turn
// of a client with the token is answered (issue 29 §4). Before, once the
// cap was reached every new connection got 503 until the idle timeout.
func TestIdleConnectionsDrainedAtTheCap(t *testing.T) {
	const maxConns, attackers = 50, 200
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	srv := New(nil, Options{Token: "tok", MaxConns: maxConns})
	eng, err := soni.New(r.Program, soni.Options{Store: checkpoints.NewMemoryStore()})
	require.NoError(t, err)
	eng.Register("check_stock", func(ctx context.Context, _ vm.ActionRequest) (map[string]any, error) { return stocked(ctx) })
	srv.SetEngine(eng)
	srv.reserve = 1
	// Each answer on a keep-alive connection is followed by one idle
	// state: the test waits for it, so that the server has every
	// connection answered so far on its idle list before the next.
	idled := make(chan struct{}, 4*attackers)
	srv.connState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateIdle {
			idled <- struct{}{}
		}
	}
	ts := newTestServer(t, srv)
	waitIdle := func() {
		t.Helper()
		select {
		case <-idled:
		case <-time.After(bound):
			t.Fatal("the server never marked a connection idle")
		}
	}

	// The attacker: a request, then the connection left open and idle.
	var held []net.Conn
	attack := func(n int) {
		t.Helper()
		for range n {
			c := dial(t, ts.URL)
			_, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
			require.NoError(t, err)
			resp, body := rawResponse(t, bufio.NewReader(c))
			require.Equal(t, http.StatusOK, resp.StatusCode, body)
			require.False(t, resp.Close, "connection %d is served, not let go as one over the cap", len(held))
			held = append(held, c)
			waitIdle()
		}
	}
	// The legitimate client: a conversation, one turn between bursts.
	// Its Idempotency-Key lets its transport send a request again on a
	// new connection when the server drained its idle one meanwhile.
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	turns := []struct{ text, reply string }{
		{"order a pizza", "Small or large?"}, {"small", "Is it a gift?"}, {"no", "A small pizza?"},
		{"yes", "Ordered."}, {"order a pizza", "Is it a gift?"}, {"yes", "A small pizza?"},
	}
	turn := 0
	talk := func() {
		t.Helper()
		tt := turns[turn%len(turns)]
		req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/sessions/legit/messages", strings.NewReader(`{"text": "`+tt.text+`"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Idempotency-Key", "turn-"+strconv.Itoa(turn))
		resp, err := client.Do(req)
		require.NoError(t, err, "turn %d", turn)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "turn %d: %s", turn, b)
		assert.Contains(t, string(b), tt.reply, "turn %d", turn)
		turn++
		waitIdle()
	}

	// Bursts shorter and longer than the cap: after a long one, the
	// client's own idle connection was the oldest and was drained too.
	talk()
	for _, burst := range []int{10, 60, 25, 55, 50} {
		attack(burst)
		talk()
	}
	require.Len(t, held, attackers)

	// Open now: the 50 connections used last, the client's and the
	// attacker's 49 newest; the server closed the others, oldest first.
	kept := attackers - (maxConns - 1)
	for i, c := range held[:kept] {
		assert.True(t, closedByServer(t, c, nil), "attacker connection %d is closed", i)
	}
	for i, c := range held[kept:] {
		_, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(t, err)
		resp, body := rawResponse(t, bufio.NewReader(c))
		assert.Equal(t, http.StatusOK, resp.StatusCode, "attacker connection %d is still served: %s", kept+i, body)
	}
	l := srv.lns[0]
	l.mu.Lock()
	defer l.mu.Unlock()
	assert.Equal(t, maxConns, l.served, "the cap holds")
	assert.Equal(t, maxConns, len(l.conns))
}
