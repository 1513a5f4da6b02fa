package socketio

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/zishang520/socket.io/clients/engine/v3/transports"
	client "github.com/zishang520/socket.io/clients/socket/v3"
	"github.com/zishang520/socket.io/v3/pkg/types"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/serve"
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
      - {name: in_stock, type: boolean}
    steps:
      - {step: ask_size, type: collect, slot: size, message: "Small or large?"}
      - {step: stock, type: action, call: check_stock, map_outputs: {in_stock: in_stock}}
      - {step: sure, type: confirm, slot: size, message: "A {size} pizza?"}
      - {step: done, type: say, message: "Ordered."}
`

// bound keeps a broken server from hanging a test; no wait passes near it.
const bound = 30 * time.Second

// shop serves the shop flows with the channel mounted.
func shop(t *testing.T, opts serve.Options) (*httptest.Server, *soni.Engine) {
	t.Helper()
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	srv := serve.New(nil, opts)
	eng, err := soni.New(r.Program, soni.Options{Store: checkpoints.NewMemoryStore()})
	require.NoError(t, err)
	eng.Register("check_stock", func(context.Context, vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"in_stock": true}, nil
	})
	srv.SetEngine(eng)
	ch := Mount(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ch.Close(); ts.Close() })
	return ts, eng
}

// conn is a socket.io client whose events arrive on channels.
type conn struct {
	t      *testing.T
	s      *client.Socket
	events chan event
}

type event struct {
	name string
	data any
}

// dial connects a socket.io client (polling, then WebSocket, as browsers
// do) with auth, when not nil, and the handshake's headers.
func dial(t *testing.T, url string, auth map[string]any, headers ...string) *conn {
	t.Helper()
	opts := client.DefaultOptions()
	opts.SetReconnection(false)
	opts.SetTransports(types.NewSet(transports.Polling, transports.WebSocket))
	if auth != nil {
		opts.SetAuth(auth)
	}
	if len(headers) > 0 {
		h := http.Header{}
		for i := 0; i+1 < len(headers); i += 2 {
			h.Set(headers[i], headers[i+1])
		}
		opts.SetExtraHeaders(h)
	}
	s, err := client.Connect(url, opts)
	require.NoError(t, err)
	c := &conn{t: t, s: s, events: make(chan event, 100)}
	for _, name := range []string{"connect", "connect_error", "disconnect", EventBotUttered, EventSessionConfirm, EventError} {
		_ = s.On(types.EventName(name), func(args ...any) {
			var data any
			if len(args) > 0 {
				data = args[0]
			}
			c.events <- event{name, data}
		})
	}
	t.Cleanup(func() { s.Disconnect() })
	return c
}

// next is the next event; it fails the test past the bound.
func (c *conn) next() event {
	c.t.Helper()
	select {
	case e := <-c.events:
		return e
	case <-time.After(bound):
		c.t.Fatal("no socket.io event came")
		return event{}
	}
}

// expect is the next event, which must be name.
func (c *conn) expect(name string) any {
	c.t.Helper()
	e := c.next()
	require.Equal(c.t, name, e.name, "%v", e.data)
	return e.data
}

func (c *conn) emit(name string, data any) {
	c.t.Helper()
	require.NoError(c.t, c.s.Emit(name, data))
}

// say sends a message and returns the bot messages up to the one with
// quick replies or the last one the turn says (the turn's replies come in
// order; last names the text that ends them).
func (c *conn) say(session, text, last string) []map[string]any {
	c.t.Helper()
	c.emit(EventUserUttered, map[string]any{"message": text, "session_id": session})
	var got []map[string]any
	for {
		m, ok := c.expect(EventBotUttered).(map[string]any)
		require.True(c.t, ok)
		got = append(got, m)
		if m["text"] == last {
			return got
		}
	}
}

// TestChannelConversation: a client connects with the token, asks for a
// session, and has a whole conversation: the questions with their
// buttons as quick replies, the session's metadata names the channel.
func TestChannelConversation(t *testing.T) {
	ts, eng := shop(t, serve.Options{Token: "tok"})
	c := dial(t, ts.URL, map[string]any{"token": "tok"})
	c.expect("connect")
	c.emit(EventSessionRequest, map[string]any{"session_id": nil})
	id, ok := c.expect(EventSessionConfirm).(string)
	require.True(t, ok)
	assert.Regexp(t, `^[0-9a-f]{32}$`, id, "a new session, as Rasa makes one")

	got := c.say(id, "order a pizza", "Small or large?")
	assert.Equal(t, []map[string]any{{"text": "Small or large?", "quick_replies": []any{
		map[string]any{"content_type": "text", "title": "small", "payload": "small"},
		map[string]any{"content_type": "text", "title": "large", "payload": "large"},
	}}}, got)
	got = c.say(id, "large", "A large pizza?")
	assert.Equal(t, []any{
		map[string]any{"content_type": "text", "title": "Yes", "payload": "yes"},
		map[string]any{"content_type": "text", "title": "No", "payload": "no"},
	}, got[len(got)-1]["quick_replies"])
	got = c.say(id, "yes", "Ordered.")
	assert.Equal(t, "Ordered.", got[len(got)-1]["text"])

	st, rev, err := eng.State(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), rev)
	assert.Equal(t, "socketio", st.Metadata["input_channel"])

	// A second client confirming the same session (another tab, a
	// reload) continues it.
	again := dial(t, ts.URL, map[string]any{"token": "tok"})
	again.expect("connect")
	again.emit(EventSessionRequest, map[string]any{"session_id": id})
	assert.Equal(t, id, again.expect(EventSessionConfirm))
	again.say(id, "order a pizza", "A large pizza?")
}

// TestChannelAuth: with a token set, a client connects only with it, as
// the REST channel answers only with it.
func TestChannelAuth(t *testing.T) {
	ts, _ := shop(t, serve.Options{Token: "tok"})
	for _, auth := range []map[string]any{nil, {"token": "wrong"}, {"token": 42}} {
		c := dial(t, ts.URL, auth)
		data := c.expect("connect_error")
		assert.Contains(t, errorText(data), "missing or wrong token", "auth %v", auth)
	}
	c := dial(t, ts.URL, map[string]any{"token": "tok"})
	c.expect("connect")
	c = dial(t, ts.URL, nil, "Authorization", "Bearer tok")
	c.expect("connect")
	c = dial(t, ts.URL, nil, "Authorization", "Bearer wrong")
	assert.Contains(t, errorText(c.expect("connect_error")), "missing or wrong token")

	open, _ := shop(t, serve.Options{})
	c = dial(t, open.URL, nil)
	c.expect("connect")
}

// errorText is the message of a connect_error's data.
func errorText(data any) string {
	if e, ok := data.(error); ok {
		return e.Error()
	}
	b, _ := json.Marshal(data)
	return string(b)
}

// TestChannelErrors: a message that is not one, and a turn that fails,
// get soni_error with the code the REST channel would answer with; the
// connection stays usable.
func TestChannelErrors(t *testing.T) {
	ts, _ := shop(t, serve.Options{})
	c := dial(t, ts.URL, nil)
	c.expect("connect")
	c.emit(EventUserUttered, map[string]any{"text": "order a pizza"})
	e, _ := c.expect(EventError).(map[string]any)
	assert.Equal(t, "bad_request", e["code"])
	assert.Contains(t, e["message"], `user_uttered needs {"message": TEXT, "session_id": ID}`)

	c.emit(EventUserUttered, map[string]any{"message": "order a pizza", "session_id": "s1", "metadata": map[string]any{"deep": strings.Repeat("x", 20000)}})
	e, _ = c.expect(EventError).(map[string]any)
	assert.Equal(t, "invalid_metadata", e["code"])

	got := c.say("s1", "order a pizza", "Small or large?")
	assert.Len(t, got, 1, "the connection goes on")
}

// TestChannelOrigins: a page from an origin --cors-origin does not allow
// is refused with 403 naming the origin and the flag, WebSocket or not
// (a browser applies no CORS to a WebSocket); an allowed one gets the
// CORS headers.
func TestChannelOrigins(t *testing.T) {
	ts, _ := shop(t, serve.Options{CORSOrigins: []string{"https://app.example.com"}})
	get := func(origin string, headers ...string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodGet, ts.URL+"/socket.io/?EIO=4&transport=polling", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := ts.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(b)
	}
	resp, body := get("https://app.example.com")
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "https://app.example.com", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, body, `"sid"`, "an Engine.IO handshake")

	websocket := []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}
	for _, headers := range [][]string{nil, websocket} {
		resp, body = get("https://evil.example", headers...)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, body)
		assert.Contains(t, body, `"origin_not_allowed"`)
		assert.Contains(t, body, "--cors-origin https://evil.example")
	}
}

// TestChannelMaxBody: a message over --max-body is not taken: the
// connection is closed, as the library closes one whose packet is over
// its limit, and no turn runs.
func TestChannelMaxBody(t *testing.T) {
	ts, eng := shop(t, serve.Options{MaxBody: 512})
	c := dial(t, ts.URL, nil)
	c.expect("connect")
	c.emit(EventUserUttered, map[string]any{"message": "order a pizza " + strings.Repeat("please ", 200), "session_id": "big"})
	for e := c.next(); e.name != "disconnect"; e = c.next() {
		require.NotEqual(t, EventBotUttered, e.name, "the message was taken")
	}
	_, rev, err := eng.State(context.Background(), "big")
	require.NoError(t, err)
	assert.Zero(t, rev, "no turn ran")
}
