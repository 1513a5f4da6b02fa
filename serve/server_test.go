package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const shopYAML = `version: "1.0"
slots:
  size:
    type: categorical
    values: [small, large]
actions:
  check_stock:
    outputs: [in_stock]
flows:
  order:
    trigger:
      intents: ["order a pizza"]
    slots:
      - {name: gift, type: boolean}
      - {name: in_stock, type: boolean}
    steps:
      - {step: ask_size, type: collect, slot: size, message: "Small or large?"}  # soni:ignore W017
      - {step: ask_gift, type: collect, slot: gift, message: "Is it a gift?"}
      - {step: wait, type: say, message: "Let me check the oven."}
      - {step: stock, type: action, call: check_stock, map_outputs: {in_stock: in_stock}}
      - {step: sure, type: confirm, slot: size, message: "A {size} pizza?"}
      - {step: done, type: say, message: "Ordered."}
`

// newShop starts a test server on the shop flows. release, when not nil,
// makes check_stock wait for a value on it.
func newShop(t *testing.T, opts Options, release chan struct{}) (*httptest.Server, *soni.Engine) {
	t.Helper()
	dir := t.TempDir()
	store, err := checkpoints.NewFileStore(filepath.Join(dir, "cps"), checkpoints.WithoutSync())
	require.NoError(t, err)
	return shopOn(t, opts, store, func(ctx context.Context) (map[string]any, error) {
		if release != nil {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return map[string]any{"in_stock": true}, nil
	})
}

// shopOn starts a test server on the shop flows with a store of the
// test's, and check_stock run by stock.
func shopOn(t *testing.T, opts Options, store checkpoints.Store, stock func(ctx context.Context) (map[string]any, error)) (*httptest.Server, *soni.Engine) {
	t.Helper()
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	srv := New(nil, opts)
	eng, err := soni.New(r.Program, soni.Options{Store: srv.Metrics().Store(store)})
	require.NoError(t, err)
	eng.Register("check_stock", func(ctx context.Context, _ vm.ActionRequest) (map[string]any, error) { return stock(ctx) })
	srv.SetEngine(eng)
	return newTestServer(t, srv), eng
}

// testServers maps each test server to its Server.
var testServers sync.Map

// newTestServer serves srv on a loopback port for the test, set up as
// Serve sets it up: timeouts, the connection cap, JSON for net/http's
// own errors.
func newTestServer(t *testing.T, srv *Server) *httptest.Server {
	t.Helper()
	return newTestServerOn(t, srv, func(ln net.Listener) net.Listener { return ln })
}

// newTestServerOn is newTestServer with the loopback listener wrapped.
func newTestServerOn(t *testing.T, srv *Server, wrap func(net.Listener) net.Listener) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(srv)
	srv.configure(ts.Config)
	ts.Config.Handler = checkedAgainstAPI(t, srv)
	ts.Listener = srv.listener(wrap(ts.Listener))
	ts.Start()
	testServers.Store(ts, srv)
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, ts *httptest.Server, path, body string, headers ...string) (*http.Response, string) {
	t.Helper()
	resp, b, err := tryPost(ts, path, body, headers...)
	require.NoError(t, err)
	return resp, b
}

// tryPost is post for a goroutine other than the test's, which must not
// fail the test itself (t.FailNow only stops the test's own goroutine): it
// returns its error for the test's goroutine to check.
func tryPost(ts *httptest.Server, path, body string, headers ...string) (*http.Response, string, error) {
	req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

func do(t *testing.T, ts *httptest.Server, method, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	require.NoError(t, err)
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// TestRasaREST: Rasa's REST channel, with the quick-reply buttons.
func TestRasaREST(t *testing.T) {
	ts, _ := newShop(t, Options{}, nil)
	resp, body := do(t, ts, http.MethodGet, "/webhooks/rest/")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"status":"ok"}`, body)

	resp, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "ana@example.com", "message": "order a pizza"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.JSONEq(t, `[{"recipient_id": "ana@example.com", "text": "Small or large?", "buttons": [{"title": "small", "payload": "small"}, {"title": "large", "payload": "large"}]}]`, body)
	_, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "ana@example.com", "message": "large", "metadata": {"channel": "web"}}`)
	assert.JSONEq(t, `[{"recipient_id": "ana@example.com", "text": "Is it a gift?", "buttons": [{"title": "Yes", "payload": "yes"}, {"title": "No", "payload": "no"}]}]`, body)
	_, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "ana@example.com", "message": "no"}`)
	assert.JSONEq(t, `[{"recipient_id": "ana@example.com", "text": "Let me check the oven."}, {"recipient_id": "ana@example.com", "text": "A large pizza?", "buttons": [{"title": "Yes", "payload": "yes"}, {"title": "No", "payload": "no"}]}]`, body)
	_, body = post(t, ts, "/webhooks/rest/webhook", `{"sender": "ana@example.com", "message": "yes"}`)
	assert.JSONEq(t, `[{"recipient_id": "ana@example.com", "text": "Ordered."}]`, body, "no question pending, no buttons")
}

// TestRasaRESTIgnoresUnknownFields: as Rasa does, the REST channel takes
// the fields widgets add (their own, besides metadata and
// input_channel), while /v1 stays strict (issue 21 §4).
func TestRasaRESTIgnoresUnknownFields(t *testing.T) {
	ts, _ := newShop(t, Options{}, nil)
	resp, body := post(t, ts, "/webhooks/rest/webhook", `{"sender": "w1", "message": "order a pizza", "input_channel": "webchat",
		"metadata": {"page": "/menu"}, "customData": {"language": "en"}, "session_id": "abc", "x": [1, {"y": null}]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"Small or large?"`)
	_, body = do(t, ts, http.MethodGet, "/v1/sessions/w1")
	assert.Contains(t, body, `"metadata":{"input_channel":"webchat","page":"/menu"}`)

	resp, body = post(t, ts, "/v1/sessions/w1/messages", `{"text": "small", "customData": {}}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, body, `unknown field \"customData\"`)
}

// TestAPIMessages: soni's own endpoint, message ids, commands and the
// session endpoints.
func TestAPIMessages(t *testing.T) {
	ts, _ := newShop(t, Options{AllowCommands: true}, nil)
	resp, body := post(t, ts, "/v1/sessions/s1/messages", `{"text": "order a pizza", "message_id": "m1"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var rec soni.TurnRecord
	require.NoError(t, json.Unmarshal([]byte(body), &rec))
	assert.Equal(t, []string{"Small or large?"}, rec.Replies)
	assert.Equal(t, uint64(1), rec.Revision)
	assert.Equal(t, "m1", rec.MessageID)
	require.NotNil(t, rec.Pending)
	assert.Equal(t, "size", rec.Pending.Slot)

	_, again := post(t, ts, "/v1/sessions/s1/messages", `{"text": "order a pizza", "message_id": "m1"}`)
	assert.JSONEq(t, body, again, "a repeated message id gets the first answer")
	_, byHeader := post(t, ts, "/v1/sessions/s1/messages", `{"text": "small"}`, "Idempotency-Key", "m2")
	_, byHeaderAgain := post(t, ts, "/v1/sessions/s1/messages", `{"text": "large"}`, "Idempotency-Key", "m2")
	assert.JSONEq(t, byHeader, byHeaderAgain)

	resp, body = post(t, ts, "/v1/sessions/s1/messages", `{"commands": [{"set_slot": {"gift": true}}]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"A small pizza?"`)

	resp, body = do(t, ts, http.MethodGet, "/v1/sessions/s1")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"revision":3`)
	assert.Contains(t, body, `"size":"small"`)

	resp, body = do(t, ts, http.MethodGet, "/v1/sessions/s1/events?after=1&limit=1")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var log struct {
		Events []soni.TurnRecord `json:"events"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &log))
	require.Len(t, log.Events, 1)
	assert.Equal(t, uint64(2), log.Events[0].Revision)
	assert.Equal(t, "small", log.Events[0].Text)

	resp, _ = do(t, ts, http.MethodDelete, "/v1/sessions/s1")
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	resp, body = do(t, ts, http.MethodGet, "/v1/sessions/s1")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, body)
}

// TestInspectorAPI: what the inspector reads, through the public API: the
// program, the sessions, a session's stack, its log with the path and the
// action timings, the log as a test file; and the page itself only when
// asked for.
func TestInspectorAPI(t *testing.T) {
	ts, _ := newShop(t, Options{Inspect: true, Project: "shop"}, nil)
	for _, text := range []string{"order a pizza", "small", "yes"} {
		resp, body := post(t, ts, "/v1/sessions/ana/messages", `{"text": "`+text+`"}`)
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
	}
	resp, body := do(t, ts, http.MethodGet, "/v1/program")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"format": "soni.program"`)
	assert.Contains(t, body, `"id": "ask_size"`)

	resp, body = do(t, ts, http.MethodGet, "/v1/sessions")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Regexp(t, `^\{"sessions":\[\{"session":"ana","revision":3,"updated":"20`, body)

	_, body = do(t, ts, http.MethodGet, "/v1/sessions/ana")
	assert.Contains(t, body, `"stack":[{"flow":"order","step":"sure","slots":{"gift":true,"in_stock":true}}]`)

	_, body = do(t, ts, http.MethodGet, "/v1/sessions/ana/events")
	assert.Contains(t, body, `"visited":[{"flow":"order","step":"wait"},{"flow":"order","step":"stock"},{"flow":"order","step":"sure"}]`)
	assert.Regexp(t, `"actions":\[\{"action":"check_stock","key":"ana/3/order.stock","ok":true,"duration_ms":[0-9.]+\}\]`, body)

	resp, body = do(t, ts, http.MethodGet, "/v1/sessions/ana/events?format=test")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "application/yaml; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, body, "flows: shop\n")
	assert.Contains(t, body, "check_stock:\n    outputs: {in_stock: true}")
	assert.Contains(t, body, `- user: "yes"`)
	resp, body = do(t, ts, http.MethodGet, "/v1/sessions/bob/events?format=test")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, body)
	resp, body = do(t, ts, http.MethodGet, "/v1/sessions/ana/events?format=xml")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, body, `format=\"xml\" is not known: use json or test`)

	resp, body = do(t, ts, http.MethodGet, "/inspect/")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, "<title>soni inspector</title>")
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'self'")

	plain, _ := newShop(t, Options{}, nil)
	resp, _ = do(t, plain, http.MethodGet, "/inspect/")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "no inspector unless asked for")
}

// TestOperations: health, readiness, metrics and shutting down.
func TestOperations(t *testing.T) {
	srvOpts := Options{Token: "t0k"}
	ts, _ := newShop(t, srvOpts, nil)
	resp, _ := do(t, ts, http.MethodGet, "/healthz")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "health needs no token")
	resp, _ = do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, _ = do(t, ts, http.MethodGet, "/metrics")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp, body := post(t, ts, "/v1/sessions/m/messages", `{"text": "order a pizza"}`, "Authorization", "Bearer t0k")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer t0k")
	mresp, err := ts.Client().Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(mresp.Body)
	mresp.Body.Close()
	for _, name := range []string{`soni_turns_total{outcome="ok"} 1`, "soni_turn_duration_seconds_bucket", `soni_flows_total{event="flow_started",flow="order"} 1`, `soni_store_duration_seconds_count{op="commit"} 1`, "soni_store_conflicts_total 0"} {
		assert.Contains(t, string(b), name)
	}
}

// downStore is a memory store whose Ping fails when down, and which
// counts its List calls.
type downStore struct {
	*checkpoints.MemoryStore
	down  atomic.Bool
	lists atomic.Int64
}

func (s *downStore) Ping(ctx context.Context) error {
	if s.down.Load() {
		return errors.New("disk on fire at /secret/path")
	}
	return s.MemoryStore.Ping(ctx)
}

func (s *downStore) List(ctx context.Context, after string, limit int) ([]checkpoints.SessionInfo, error) {
	s.lists.Add(1)
	return s.MemoryStore.List(ctx, after, limit)
}

// TestReadyPingsTheStore: /readyz asks the store's Ping, which does not
// grow with the number of sessions, instead of listing them, and says
// 503 without the store's own message when it fails.
func TestReadyPingsTheStore(t *testing.T) {
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	store := &downStore{MemoryStore: checkpoints.NewMemoryStore()}
	eng, err := soni.New(r.Program, soni.Options{Store: store})
	require.NoError(t, err)
	srv := New(eng, Options{})
	ts := newTestServer(t, srv)
	resp, _ := do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	store.down.Store(true)
	resp, body := do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Contains(t, body, `"store_unavailable"`)
	assert.NotContains(t, body, "/secret/path")
	assert.Zero(t, store.lists.Load(), "readiness never lists the sessions")
}

// TestShuttingDown: once closed, new requests get 503 and readiness fails.
func TestShuttingDown(t *testing.T) {
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	eng, err := soni.New(r.Program, soni.Options{})
	require.NoError(t, err)
	srv := New(eng, Options{})
	ts := newTestServer(t, srv)
	srv.Close()
	resp, body := post(t, ts, "/v1/sessions/x/messages", `{"text": "hi"}`)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Contains(t, body, `"shutting_down"`)
	resp, _ = do(t, ts, http.MethodGet, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	resp, _ = do(t, ts, http.MethodGet, "/healthz")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// sseEvent is one dispatched Server-Sent Event.
type sseEvent struct{ id, event, data string }

// readSSE is a parser of the text/event-stream format as the HTML
// standard defines it: lines up to a blank line make one event; "event",
// "data" (joined by newlines) and "id" fields; lines starting with ':'
// are comments. It calls each for every event until the stream ends.
func readSSE(r io.Reader, each func(sseEvent) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20) // a frame may carry megabytes
	var ev sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if len(data) > 0 {
				ev.data = strings.Join(data, "\n")
				if ev.event == "" {
					ev.event = "message"
				}
				if !each(ev) {
					return nil
				}
			}
			ev, data = sseEvent{id: ev.id}, nil
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			ev.event = value
		case "data":
			data = append(data, value)
		case "id":
			ev.id = value
		}
	}
	return sc.Err()
}

// TestSSE: a stream sends the reply before the slow action ends, then the
// events and the same final object as the JSON endpoint.
func TestSSE(t *testing.T) {
	release := make(chan struct{})
	ts, _ := newShop(t, Options{}, release)
	post(t, ts, "/v1/sessions/st/messages", `{"text": "order a pizza"}`)
	post(t, ts, "/v1/sessions/st/messages", `{"text": "small"}`)

	req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/sessions/st/messages", strings.NewReader(`{"text": "no"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	var got []sseEvent
	released := false
	require.NoError(t, readSSE(resp.Body, func(ev sseEvent) bool {
		got = append(got, ev)
		if ev.event == "reply" && !released {
			// The action is still waiting: the reply came first.
			assert.JSONEq(t, `{"text": "Let me check the oven."}`, ev.data)
			released = true
			close(release)
		}
		return ev.event != "done" && ev.event != "error"
	}))
	require.True(t, released, "no reply frame before the action ended")
	last := got[len(got)-1]
	require.Equal(t, "done", last.event, "%v", got)
	var rec soni.TurnRecord
	require.NoError(t, json.Unmarshal([]byte(last.data), &rec))
	assert.Equal(t, []string{"Let me check the oven.", "A small pizza?"}, rec.Replies)
	var replies []string
	key := strings.TrimSuffix(got[0].id, ":1")
	assert.Regexp(t, `^sse-[0-9a-f]{32}$`, key, "a stream with no message id gets a key")
	assert.Equal(t, key, rec.MessageID, "the turn is saved with the stream's key")
	for i, ev := range got {
		assert.Equal(t, key+":"+strconv.Itoa(i+1), ev.id, "frames are numbered")
		if ev.event == "reply" {
			var r struct{ Text string }
			require.NoError(t, json.Unmarshal([]byte(ev.data), &r))
			replies = append(replies, r.Text)
		}
	}
	assert.Equal(t, rec.Replies, replies, "the stream and the final object agree")
}

// TestBadRequests: every malformed request gets a JSON error with the
// right status, and never a stack trace or a path of this machine.
func TestBadRequests(t *testing.T) {
	ts, _ := newShop(t, Options{MaxBody: 1024}, nil)
	tokenTS, _ := newShop(t, Options{Token: "secret"}, nil)
	tmp := os.TempDir()
	tests := []struct {
		name, method, path, body, contentType string
		server                                *httptest.Server
		headers                               []string
		status                                int
		code                                  string
	}{
		{"malformed json", "POST", "/v1/sessions/a/messages", `{"text": `, "application/json", ts, nil, 400, "bad_request"},
		{"not an object", "POST", "/v1/sessions/a/messages", `[1, 2]`, "application/json", ts, nil, 400, "bad_request"},
		{"unknown field", "POST", "/v1/sessions/a/messages", `{"txt": "hi"}`, "application/json", ts, nil, 400, "bad_request"},
		{"wrong type", "POST", "/v1/sessions/a/messages", `{"text": 5}`, "application/json", ts, nil, 400, "bad_request"},
		{"empty body", "POST", "/v1/sessions/a/messages", ``, "application/json", ts, nil, 400, "bad_request"},
		{"two values", "POST", "/v1/sessions/a/messages", `{"text": "a"} {"text": "b"}`, "application/json", ts, nil, 400, "bad_request"},
		{"neither text nor commands", "POST", "/v1/sessions/a/messages", `{}`, "application/json", ts, nil, 400, "bad_request"},
		{"text and commands", "POST", "/v1/sessions/a/messages", `{"text": "a", "commands": []}`, "application/json", ts, nil, 400, "bad_request"},
		{"commands not allowed", "POST", "/v1/sessions/a/messages", `{"commands": ["affirm"]}`, "application/json", ts, nil, 403, "commands_not_allowed"},
		{"too large", "POST", "/v1/sessions/a/messages", `{"text": "` + strings.Repeat("x", 2000) + `"}`, "application/json", ts, nil, 413, "too_large"},
		{"wrong media type", "POST", "/v1/sessions/a/messages", `text=hi`, "application/x-www-form-urlencoded", ts, nil, 415, "unsupported_media_type"},
		{"unsafe session id", "POST", "/v1/sessions/..%2F..%2Fetc/messages", `{"text": "hi"}`, "application/json", ts, nil, 400, "bad_request"},
		{"dotted session id", "POST", "/v1/sessions/../messages", `{"text": "hi"}`, "application/json", ts, nil, 404, "not_found"},
		{"long session id", "GET", "/v1/sessions/" + strings.Repeat("a", 200), ``, "", ts, nil, 400, "bad_request"},
		{"unknown endpoint", "GET", "/v2/everything", ``, "", ts, nil, 404, "not_found"},
		{"unknown session", "GET", "/v1/sessions/nobody", ``, "", ts, nil, 404, "not_found"},
		{"bad after", "GET", "/v1/sessions/a/events?after=-1", ``, "", ts, nil, 400, "bad_request"},
		{"bad limit", "GET", "/v1/sessions/a/events?limit=100000", ``, "", ts, nil, 400, "bad_request"},
		{"rasa without sender", "POST", "/webhooks/rest/webhook", `{"message": "hi"}`, "application/json", ts, nil, 400, "bad_request"},
		{"rasa wrong type", "POST", "/webhooks/rest/webhook", `{"sender": "a", "message": "hi", "metadata": [1]}`, "application/json", ts, nil, 400, "bad_request"},
		{"rasa stream", "POST", "/webhooks/rest/webhook?stream=true", `{"sender": "a", "message": "hi"}`, "application/json", ts, nil, 400, "unsupported"},
		{"rasa message not a string", "POST", "/webhooks/rest/webhook", `{"sender": "a", "message": ["hi"]}`, "application/json", ts, nil, 400, "bad_request"},
		{"bad command", "POST", "/v1/sessions/a/messages", `{"commands": [{"start_flow": "nope"}]}`, "application/json", nil, nil, 400, "bad_command"},
		{"no token", "POST", "/v1/sessions/a/messages", `{"text": "hi"}`, "application/json", tokenTS, nil, 401, "unauthorized"},
		{"wrong token", "POST", "/webhooks/rest/webhook", `{"sender": "a", "message": "hi"}`, "application/json", tokenTS, []string{"Authorization", "Bearer nope"}, 401, "unauthorized"},
		{"invalid utf-8", "POST", "/v1/sessions/a/messages", "{\"text\": \"\xff\xfe\"}", "application/json", ts, nil, 200, ""},
	}
	cmdTS, _ := newShop(t, Options{AllowCommands: true}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server := tt.server
			if server == nil {
				server = cmdTS
			}
			req, err := http.NewRequest(tt.method, server.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			for i := 0; i+1 < len(tt.headers); i += 2 {
				req.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			resp, err := server.Client().Do(req)
			require.NoError(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(b)
			assert.Equal(t, tt.status, resp.StatusCode, body)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			assert.NotContains(t, body, "goroutine")
			assert.NotContains(t, body, tmp)
			assert.NotContains(t, body, ".go:")
			if tt.code == "" {
				return
			}
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), body)
			assert.Equal(t, tt.code, e.Error.Code)
			assert.NotEmpty(t, e.Error.Message)
		})
	}
}

// TestSessionsArePaged: GET /v1/sessions answers a page at a time, in id
// order, as the store pages (issue 20: listing a large store is one
// page's work).
func TestSessionsArePaged(t *testing.T) {
	ts, _ := shopOn(t, Options{}, checkpoints.NewMemoryStore(), stocked)
	for _, id := range []string{"e", "b", "d", "a", "c"} {
		resp, body := post(t, ts, "/v1/sessions/"+id+"/messages", `{"text": "order a pizza"}`)
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
	}
	var pages [][]string
	after := ""
	for range 10 {
		_, body := do(t, ts, http.MethodGet, "/v1/sessions?limit=2&after="+after)
		var page struct {
			Sessions []struct{ Session string }
			Next     string
		}
		require.NoError(t, json.Unmarshal([]byte(body), &page), body)
		var ids []string
		for _, s := range page.Sessions {
			ids = append(ids, s.Session)
		}
		pages = append(pages, ids)
		if page.Next == "" {
			break
		}
		after = page.Next
	}
	assert.Equal(t, [][]string{{"a", "b"}, {"c", "d"}, {"e"}}, pages)

	_, body := do(t, ts, http.MethodGet, "/v1/sessions")
	assert.Contains(t, body, `"session":"e"`)
	assert.NotContains(t, body, `"next"`, "one page holds them all")
	for _, q := range []string{"limit=0", "limit=1001", "limit=x", "after=..%2Fetc"} {
		resp, body := do(t, ts, http.MethodGet, "/v1/sessions?"+q)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, q)
		assert.Contains(t, body, `"bad_request"`, q)
	}
}

// TestReloadEndpoint: POST /v1/program/reload runs the server's Reload
// (soni serve's rebuild, as SIGHUP), answers the new version and its
// summary, and 422 reload_failed with the old program kept when the
// project has errors; a server with no Reload answers 404.
func TestReloadEndpoint(t *testing.T) {
	ts, _ := newShop(t, Options{}, nil)
	resp, body := post(t, ts, "/v1/program/reload", "")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, body)
	assert.Contains(t, body, "cannot reload its program")

	fail := false
	ts, _ = newShop(t, Options{Reload: func(ctx context.Context) (*Reloaded, error) {
		if fail {
			return nil, errors.New(`flows.yaml:3:5: unknown flow "chekout"`)
		}
		return &Reloaded{Version: "sha256:ab", Summary: "same 0, move 1, finish 0, stay 0, code_change 0"}, nil
	}}, nil)
	resp, body = post(t, ts, "/v1/program/reload", "")
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.JSONEq(t, `{"version":"sha256:ab","summary":"same 0, move 1, finish 0, stay 0, code_change 0"}`, body)
	fail = true
	resp, body = post(t, ts, "/v1/program/reload", "")
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, body)
	assert.Contains(t, body, `"code":"reload_failed"`)
	assert.Contains(t, body, `the old program stays: flows.yaml:3:5: unknown flow \"chekout\"`)
}
