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

// poller is a socket.io client over Engine.IO's HTTP long-polling, the
// transport every socket.io client starts with, spoken plainly so that a
// test sees each packet: 0 open, 40 connect, 42 event, 44 connect error.
type poller struct {
	t   *testing.T
	url string
	// packets read and not yet taken, in order.
	packets []string
}

// open makes the Engine.IO handshake and connects to the namespace with
// auth (nil: none), headers on every request; it returns the connect
// answer's packet (40... or 44...).
func open(t *testing.T, base string, auth map[string]any, headers ...string) (*poller, string) {
	t.Helper()
	p := &poller{t: t, url: base + "/socket.io/?EIO=4&transport=polling"}
	hs := p.do(http.MethodGet, "", headers...)
	require.True(t, strings.HasPrefix(hs, "0{"), hs)
	var open struct{ Sid string }
	require.NoError(t, json.Unmarshal([]byte(hs[1:]), &open))
	p.url += "&sid=" + open.Sid
	connect := "40"
	if auth != nil {
		b, _ := json.Marshal(auth)
		connect += string(b)
	}
	p.do(http.MethodPost, connect, headers...)
	return p, p.next("4")
}

// noRetry sends each polling request once, on a connection of its own:
// net/http sends a GET again on a new connection when a kept-alive one
// fails, and Engine.IO closes a session that polls twice at once.
var noRetry = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// do sends one polling request.
func (p *poller) do(method, body string, headers ...string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, p.url, strings.NewReader(body))
	require.NoError(p.t, err)
	req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := noRetry.Do(req)
	require.NoError(p.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(p.t, err)
	require.Equal(p.t, http.StatusOK, resp.StatusCode, "%s", b)
	return string(b)
}

// next is the next packet that starts with prefix (pings are answered,
// others skipped), polling for more as needed.
func (p *poller) next(prefix string) string {
	p.t.Helper()
	for {
		for len(p.packets) > 0 {
			pk := p.packets[0]
			p.packets = p.packets[1:]
			if pk == "2" {
				p.do(http.MethodPost, "3")
				continue
			}
			if strings.HasPrefix(pk, prefix) {
				return pk
			}
		}
		p.packets = strings.Split(p.do(http.MethodGet, ""), "\x1e")
	}
}

// emit sends an event.
func (p *poller) emit(name string, data any) {
	p.t.Helper()
	b, err := json.Marshal([]any{name, data})
	require.NoError(p.t, err)
	p.do(http.MethodPost, "42"+string(b))
}

// event is the next event's name and data.
func (p *poller) event() (string, any) {
	p.t.Helper()
	var ev []any
	require.NoError(p.t, json.Unmarshal([]byte(p.next("42")[2:]), &ev))
	require.NotEmpty(p.t, ev)
	name, _ := ev[0].(string)
	var data any
	if len(ev) > 1 {
		data = ev[1]
	}
	return name, data
}

// expect is the data of the next event, which must be name.
func (p *poller) expect(name string) any {
	p.t.Helper()
	got, data := p.event()
	require.Equal(p.t, name, got, "%v", data)
	return data
}

// say sends a message and returns the bot messages up to the one whose
// text is last.
func (p *poller) say(session, text, last string) []map[string]any {
	p.t.Helper()
	p.emit(EventUserUttered, map[string]any{"message": text, "session_id": session})
	var got []map[string]any
	for {
		m, ok := p.expect(EventBotUttered).(map[string]any)
		require.True(p.t, ok)
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
	c, ack := open(t, ts.URL, map[string]any{"token": "tok"})
	require.True(t, strings.HasPrefix(ack, "40"), ack)
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
	again, ack := open(t, ts.URL, map[string]any{"token": "tok"})
	require.True(t, strings.HasPrefix(ack, "40"), ack)
	again.emit(EventSessionRequest, map[string]any{"session_id": id})
	assert.Equal(t, id, again.expect(EventSessionConfirm))
	again.say(id, "order a pizza", "A large pizza?")
}

// TestChannelAuth: with a token set, a client connects only with it, as
// the REST channel answers only with it: in socket.io's auth, or in an
// Authorization header.
func TestChannelAuth(t *testing.T) {
	ts, _ := shop(t, serve.Options{Token: "tok"})
	tests := []struct {
		name    string
		auth    map[string]any
		headers []string
		ok      bool
	}{
		{"none", nil, nil, false},
		{"wrong", map[string]any{"token": "wrong"}, nil, false},
		{"not a string", map[string]any{"token": 42}, nil, false},
		{"wrong header", nil, []string{"Authorization", "Bearer wrong"}, false},
		{"auth", map[string]any{"token": "tok"}, nil, true},
		{"header", nil, []string{"Authorization", "Bearer tok"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ack := open(t, ts.URL, tt.auth, tt.headers...)
			if tt.ok {
				assert.True(t, strings.HasPrefix(ack, "40"), ack)
				return
			}
			assert.True(t, strings.HasPrefix(ack, "44"), ack)
			assert.Contains(t, ack, "missing or wrong token")
		})
	}
	free, _ := shop(t, serve.Options{})
	_, ack := open(t, free.URL, nil)
	assert.True(t, strings.HasPrefix(ack, "40"), "no token set, none needed: %s", ack)
}

// TestChannelErrors: a message that is not one, and a turn that fails,
// get soni_error with the code the REST channel would answer with; the
// connection stays usable.
func TestChannelErrors(t *testing.T) {
	ts, _ := shop(t, serve.Options{})
	c, _ := open(t, ts.URL, nil)
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

// TestChannelMaxBody: a message over --max-body is refused (413) and
// runs no turn.
func TestChannelMaxBody(t *testing.T) {
	ts, eng := shop(t, serve.Options{MaxBody: 4096})
	c, _ := open(t, ts.URL, nil)
	b, err := json.Marshal([]any{EventUserUttered, map[string]any{"message": "order a pizza " + strings.Repeat("please ", 2000), "session_id": "big"}})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader("42"+string(b)))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	_, rev, err := eng.State(context.Background(), "big")
	require.NoError(t, err)
	assert.Zero(t, rev, "no turn ran")
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
