// Package socketio serves Rasa's socket.io channel beside soni's REST
// channel, so that the web widgets teams embed with Rasa (rasa-webchat,
// among others) talk to soni unchanged: the client emits
// session_request and gets session_confirm, emits user_uttered with each
// message, and gets each bot message as bot_uttered. The socket.io
// protocol is the zishang520/socket.io server's; every message is a turn
// of the serve package's server (serve.Server.ChannelTurn), behind its
// token, CORS origins, connection cap and limits. docs/serve.md, "Rasa's
// socket.io channel", is the reference.
package socketio

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	sio "github.com/zishang520/socket.io/servers/socket/v3"

	"github.com/soni-dev/soni/serve"
)

// Path is where the channel is served: socket.io's default, which
// rasa-webchat's socketPath defaults to.
const Path = "/socket.io/"

// The events of Rasa's channel (its user_message_evt and
// bot_message_evt defaults, which rasa-webchat uses).
const (
	EventUserUttered    = "user_uttered"
	EventBotUttered     = "bot_uttered"
	EventSessionRequest = "session_request"
	EventSessionConfirm = "session_confirm"
	// EventError is soni's: a message whose turn failed gets the error
	// the REST channel would answer with, {"code", "message"}.
	EventError = "soni_error"
)

// channelName is the input channel a message's turn records.
const channelName = "socketio"

// Channel is the socket.io channel served on a serve.Server.
type Channel struct {
	srv *serve.Server
	io  *sio.Server
}

// Mount serves the channel on srv at [Path]. Call it before srv serves;
// Close stops it.
func Mount(srv *serve.Server) *Channel {
	opts := sio.DefaultServerOptions()
	opts.SetPath(strings.TrimSuffix(Path, "/"))
	opts.SetServeClient(false)
	// One message is a request body: the server's limit.
	opts.SetMaxHttpBufferSize(srv.MaxBody())
	c := &Channel{srv: srv, io: sio.NewServer(nil, opts)}
	c.io.Use(c.authorize)
	_ = c.io.On("connection", func(args ...any) {
		if s, ok := first[*sio.Socket](args); ok {
			c.connected(s)
		}
	})
	h := c.io.ServeHandler(nil)
	srv.Handle(Path, c.origins(h))
	return c
}

// Close disconnects every client and stops the channel.
func (c *Channel) Close() { c.io.Close(nil) }

// origins lets a page talk to the channel only from an origin the server
// allows (--cors-origin, or its own): a browser applies CORS to the
// polling requests, whose headers the server adds, but not to a
// WebSocket, which soni checks here, before the library sees it.
func (c *Channel) origins(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" {
			if !c.srv.OriginAllowed(r, origin) {
				c.srv.RefuseOrigin(w, origin)
				return
			}
			// Checked: the WebSocket upgrader's own check (same origin
			// only) would refuse an origin --cors-origin allows.
			r = r.Clone(r.Context())
			r.Header.Del("Origin")
		}
		h.ServeHTTP(w, r)
	})
}

// authorize admits a client with the server's token, sent as socket.io
// sends credentials, {auth: {token: TOKEN}} (what Rasa's channel reads
// with a jwt_key), or as an "Authorization: Bearer TOKEN" header on the
// handshake.
func (c *Channel) authorize(s *sio.Socket, next func(*sio.ExtendedError)) {
	token, _ := s.Handshake().Auth["token"].(string)
	if token == "" {
		token, _ = strings.CutPrefix(s.Request().Headers().Peek("Authorization"), "Bearer ")
	}
	if !c.srv.Authorized(token) {
		next(sio.NewExtendedError("missing or wrong token: connect with auth {token: TOKEN}, or send Authorization: Bearer TOKEN", map[string]any{"code": "unauthorized"}))
		return
	}
	next(nil)
}

// session is what the channel keeps of a connected client: the session
// it confirmed.
type session struct{ id string }

func (c *Channel) connected(s *sio.Socket) {
	st := &session{}
	// session_request {session_id}: the widget's stored session, or none
	// for a new one. The socket joins the session's room: every tab of
	// one session gets its bot messages, as with Rasa's
	// session_persistence.
	_ = s.On(EventSessionRequest, func(args ...any) {
		data, _ := first[map[string]any](args)
		id, _ := data["session_id"].(string)
		if id == "" {
			id = newSessionID()
		}
		st.id = id
		s.Join(sio.Room(id))
		_ = s.Emit(EventSessionConfirm, id)
	})
	// user_uttered {message, session_id, metadata | customData}: one
	// turn, run in the socket's order (the library runs a socket's
	// events one at a time).
	_ = s.On(EventUserUttered, func(args ...any) {
		data, _ := first[map[string]any](args)
		text, ok := data["message"].(string)
		if !ok {
			_ = s.Emit(EventError, map[string]any{"code": "bad_request", "message": `user_uttered needs {"message": TEXT, "session_id": ID}`})
			return
		}
		id, _ := data["session_id"].(string)
		if id == "" {
			id = st.id
		}
		if id == "" {
			id = string(s.Id())
		}
		md, _ := data["metadata"].(map[string]any)
		if md == nil {
			// rasa-webchat sends its customData here.
			md, _ = data["customData"].(map[string]any)
		}
		replies, err := c.srv.ChannelTurn(context.Background(), serve.ChannelMessage{Sender: id, Text: text, Metadata: md, Channel: channelName})
		if err != nil {
			var ce *serve.ChannelError
			if errors.As(err, &ce) {
				_ = s.Emit(EventError, map[string]any{"code": ce.Code, "message": ce.Message})
			}
			return
		}
		// To the session's room when the socket confirmed this session
		// (every tab of it), else to this socket alone.
		emit := func(m map[string]any) { _ = s.Emit(EventBotUttered, m) }
		if id == st.id {
			room := c.io.To(sio.Room(id))
			emit = func(m map[string]any) { _ = room.Emit(EventBotUttered, m) }
		}
		for _, r := range replies {
			for _, m := range botMessages(r) {
				emit(m)
			}
		}
	})
}

// botMessages are Rasa's socket.io messages for one reply: the text, with
// its buttons as quick replies; the image as an attachment; the custom
// payload as it is.
func botMessages(r serve.ChannelReply) []map[string]any {
	var out []map[string]any
	if r.Text != "" || len(r.Buttons) > 0 {
		m := map[string]any{"text": r.Text}
		if len(r.Buttons) > 0 {
			qr := make([]any, 0, len(r.Buttons))
			for _, b := range r.Buttons {
				qr = append(qr, map[string]any{"content_type": "text", "title": b.Title, "payload": b.Payload})
			}
			m["quick_replies"] = qr
		}
		out = append(out, m)
	}
	if r.Image != "" {
		out = append(out, map[string]any{"attachment": map[string]any{"type": "image", "payload": map[string]any{"src": r.Image}}})
	}
	if r.Custom != nil {
		if m, ok := r.Custom.(map[string]any); ok {
			out = append(out, m)
		} else {
			out = append(out, map[string]any{"custom": r.Custom})
		}
	}
	return out
}

// newSessionID is a new session's id, as Rasa makes one: 32 hex digits.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// first is args' first element as a T.
func first[T any](args []any) (T, bool) {
	var zero T
	if len(args) == 0 {
		return zero, false
	}
	v, ok := args[0].(T)
	return v, ok
}
