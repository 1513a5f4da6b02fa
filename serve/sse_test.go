package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamOf posts a streaming request and reads its frames to the end.
func streamOf(t *testing.T, url, path, body string, headers ...string) (*http.Response, []sseEvent) {
	t.Helper()
	resp, got, err := tryStream(url, path, body, headers...)
	require.NoError(t, err)
	return resp, got
}

// tryStream is streamOf for a goroutine other than the test's: it returns
// its error for the test's goroutine to check.
func tryStream(url, path, body string, headers ...string) (*http.Response, []sseEvent, error) {
	req, err := http.NewRequest(http.MethodPost, url+path, strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	var got []sseEvent
	err = readSSE(resp.Body, func(ev sseEvent) bool { got = append(got, ev); return true })
	return resp, got, err
}

func revisionOf(t *testing.T, url, session string) uint64 {
	t.Helper()
	resp, err := http.Get(url + "/v1/sessions/" + session)
	require.NoError(t, err)
	defer resp.Body.Close()
	var v struct{ Revision uint64 }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	return v.Revision
}

// TestSSEReconnectNeverRerunsATurn: a client that reconnects with
// Last-Event-ID, as EventSource does when a stream closes, gets the end
// of its stream and never runs the turn again (issue 21 §4): the done
// frame when it stopped before it, 204 (EventSource stops) when it had
// it. Before, a reconnect without a message id ran the turn again.
func TestSSEReconnectNeverRerunsATurn(t *testing.T) {
	ts, _ := newShop(t, Options{}, nil)
	const msg = `{"text": "order a pizza"}`
	_, first := streamOf(t, ts.URL, "/v1/sessions/rc/messages", msg)
	require.NotEmpty(t, first)
	done := first[len(first)-1]
	require.Equal(t, "done", done.event)
	require.Equal(t, uint64(1), revisionOf(t, ts.URL, "rc"))
	key, _, ok := strings.Cut(done.id, ":")
	require.True(t, ok, done.id)

	resp, again := streamOf(t, ts.URL, "/v1/sessions/rc/messages", msg, "Last-Event-ID", done.id)
	assert.Equal(t, http.StatusNoContent, resp.StatusCode, "the client has the whole stream: EventSource stops")
	assert.Empty(t, again)
	assert.Equal(t, uint64(1), revisionOf(t, ts.URL, "rc"), "no turn ran")

	resp, again = streamOf(t, ts.URL, "/v1/sessions/rc/messages", msg, "Last-Event-ID", key+":1")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, again, 1, "a reconnect mid-stream gets the end of the stream")
	assert.Equal(t, done, again[0], "the same done frame, with the same id")
	assert.Equal(t, uint64(1), revisionOf(t, ts.URL, "rc"), "no turn ran")

	// With a message id, the frame ids are plain numbers and the id
	// names the stream.
	const withID = `{"text": "small", "message_id": "m-7"}`
	_, first = streamOf(t, ts.URL, "/v1/sessions/rc/messages", withID)
	done = first[len(first)-1]
	assert.Equal(t, "done", done.event)
	assert.NotContains(t, done.id, ":")
	_, again = streamOf(t, ts.URL, "/v1/sessions/rc/messages", withID, "Last-Event-ID", "1")
	require.Len(t, again, 1)
	assert.Equal(t, done, again[0])
	_, again = streamOf(t, ts.URL, "/v1/sessions/rc/messages", withID)
	require.Len(t, again, len(first), "a retry without Last-Event-ID replays the stream: the replies, the events, done")
	assert.Equal(t, done, again[len(again)-1])
	assert.Equal(t, uint64(2), revisionOf(t, ts.URL, "rc"))

	resp, _ = streamOf(t, ts.URL, "/v1/sessions/rc/messages", msg, "Last-Event-ID", "3")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "a plain number names no stream without its message id")
	resp, _ = streamOf(t, ts.URL, "/v1/sessions/rc/messages", msg, "Last-Event-ID", "nonsense")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, uint64(2), revisionOf(t, ts.URL, "rc"))
}

// TestSSEHangUpLetsTheTurnFinish: a stream whose client goes away mid-turn
// runs to its end and is saved, so that the reconnect gets its end
// instead of running its actions a second time.
func TestSSEHangUpLetsTheTurnFinish(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	ts, _ := shopOn(t, Options{}, checkpoints.NewMemoryStore(), func(ctx context.Context) (map[string]any, error) {
		calls.Add(1)
		<-release
		return map[string]any{"in_stock": true}, nil
	})
	post(t, ts, "/v1/sessions/hu/messages", `{"text": "order a pizza"}`)
	post(t, ts, "/v1/sessions/hu/messages", `{"text": "small"}`)

	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/sessions/hu/messages", strings.NewReader(`{"text": "no"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var first sseEvent
	require.NoError(t, readSSE(resp.Body, func(ev sseEvent) bool { first = ev; return ev.event != "reply" }))
	require.Equal(t, "reply", first.event, "the action is running")
	cancel() // the client goes away mid-turn
	resp.Body.Close()

	type stream struct {
		evs []sseEvent
		err error
	}
	reconnected := make(chan stream, 1)
	go func() {
		_, evs, err := tryStream(ts.URL, "/v1/sessions/hu/messages", `{"text": "no"}`, "Last-Event-ID", first.id)
		reconnected <- stream{evs, err}
	}()
	close(release)
	got := <-reconnected
	require.NoError(t, got.err)
	evs := got.evs
	require.Len(t, evs, 1, "%v", evs)
	assert.Equal(t, "done", evs[0].event)
	var rec soni.TurnRecord
	require.NoError(t, json.Unmarshal([]byte(evs[0].data), &rec))
	assert.Equal(t, []string{"Let me check the oven.", "A small pizza?"}, rec.Replies)
	assert.Equal(t, int32(1), calls.Load(), "the action ran once")
}

const bookYAML = `version: "1.0"
actions:
  fetch_book:
    outputs: [text]
flows:
  read:
    trigger:
      intents: ["read me the book"]
    slots:
      - {name: book, type: text}
    steps:
      - {step: fetch, type: action, call: fetch_book, map_outputs: {text: book}}
      - {step: read, type: say, message: "{book}"}
`

// TestSSEIdleLimitLetsAStalledClientGo: a streaming client that stops
// reading is let go after the stream's per-frame idle limit
// (--stream-idle-timeout), and its turn still runs to its end and is
// saved. The turn's frames (a book of a megabyte, three times: the
// action's outputs, the slot and the reply) are more than the
// connection's buffers hold (its send buffer is made small), so a
// frame's write blocks on the client that reads nothing. Nothing here
// waits on a clock: the test waits for the turn's log line, which comes
// only once the blocked write has given up, then reads what the server
// sent before it closed the stream (the bound on the connection is a
// guard on a hang, and the log line's is a minute).
func TestSSEIdleLimitLetsAStalledClientGo(t *testing.T) {
	book := strings.Repeat("It was a dark and stormy night. ", 1<<20/32) + "The end."
	lines, logger := newLogLines()
	r := compiler.CompileSource("book.yaml", []byte(bookYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	srv := New(nil, Options{Logger: logger, StreamIdleTimeout: 20 * time.Millisecond})
	eng, err := soni.New(r.Program, soni.Options{Store: checkpoints.NewMemoryStore()})
	require.NoError(t, err)
	var calls atomic.Int32
	eng.Register("fetch_book", func(context.Context, vm.ActionRequest) (map[string]any, error) {
		calls.Add(1)
		return map[string]any{"text": book}, nil
	})
	srv.SetEngine(eng)
	var small atomic.Bool // the stalled client's connection only
	ts := newTestServerOn(t, srv, func(ln net.Listener) net.Listener { return smallSends{ln, &small} })

	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return c, c.SetDeadline(time.Now().Add(bound))
	}}}
	defer client.CloseIdleConnections()
	const msg = `{"text": "read me the book", "message_id": "bk-1"}`
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/sessions/bk/messages", strings.NewReader(msg))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	small.Store(true)
	resp, err := client.Do(req)
	small.Store(false)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))

	line := lines.next(t, "turn") // the client has read nothing yet
	assert.Equal(t, "ok", line["outcome"], "the turn runs to its end")
	assert.Equal(t, float64(1), line["revision"])

	var got []sseEvent
	readErr := readSSE(resp.Body, func(ev sseEvent) bool { got = append(got, ev); return true })
	var ne net.Error
	require.False(t, errors.As(readErr, &ne) && ne.Timeout(), "the server let the stalled client go instead of holding its stream: %v", readErr)
	require.Error(t, readErr, "the stream was cut, not ended")
	require.NotEmpty(t, got, "the stream opened with its first frames")
	for _, ev := range got {
		assert.NotEqual(t, "done", ev.event, "the stream was cut before its end")
	}

	// The turn was saved: the same message again gets its record, with
	// the whole book, and runs nothing again.
	assert.Equal(t, uint64(1), revisionOf(t, ts.URL, "bk"))
	resp, body := post(t, ts, "/v1/sessions/bk/messages", msg)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var rec soni.TurnRecord
	require.NoError(t, json.Unmarshal([]byte(body), &rec))
	require.Len(t, rec.Replies, 1)
	assert.True(t, rec.Replies[0] == book, "the reply is the whole book (%d bytes of %d)", len(rec.Replies[0]), len(book))
	assert.Equal(t, int32(1), calls.Load(), "the action ran once")
	assert.Equal(t, uint64(1), revisionOf(t, ts.URL, "bk"))
}

// smallSends makes the send buffers of the connections it accepts while
// on is set small, so that a write blocks soon once the client stops
// reading, whatever the system's defaults.
type smallSends struct {
	net.Listener
	on *atomic.Bool
}

func (l smallSends) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok && l.on.Load() {
		_ = tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}
