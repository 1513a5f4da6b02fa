package serve

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/vm"
)

// This file is what a channel served beside the REST one (package
// serve/socketio) needs of the server: its transport mounted behind the
// server's CORS, connection cap and shutdown; the token checked as the
// other endpoints check it; and each message run as a turn the way the
// REST channel runs it, logged, measured and traced alike.

// ChannelMessage is a message a channel received.
type ChannelMessage struct {
	// Sender is Rasa's sender id: its session, as the REST channel maps
	// it (itself when it is a valid session id, else a hash of it).
	Sender string
	Text   string
	// Metadata is merged into the session's metadata.
	Metadata map[string]any
	// Channel names the input channel in the turn's input and metadata
	// (Rasa's input_channel: "socketio").
	Channel string
}

// ChannelReply is one message of the bot's answer, as Rasa's channels
// carry it: a text with buttons, an image, a custom payload.
type ChannelReply struct {
	Text    string
	Buttons []ChannelButton
	Image   string
	Custom  any
}

// ChannelButton is a button (Rasa's quick reply): a widget shows Title,
// and sends Payload as the user's message when it is clicked.
type ChannelButton struct {
	Title   string `json:"title"`
	Payload string `json:"payload"`
}

// ChannelError is a channel's turn that failed: the status and code the
// REST channel would answer with (docs/serve.md), and the message.
type ChannelError struct {
	Status        int
	Code, Message string
}

func (e *ChannelError) Error() string { return e.Code + ": " + e.Message }

// ChannelTurn runs one turn for a channel's message, as the REST channel
// runs it: the turn timeout, the log line, the metrics, the turn
// observer. The replies are the REST channel's: each with its response's
// buttons, image and custom payload, the last with the buttons of the
// question pending. A failure is a *ChannelError.
func (s *Server) ChannelTurn(ctx context.Context, m ChannelMessage) ([]ChannelReply, error) {
	if s.closing.Load() {
		return nil, &ChannelError{http.StatusServiceUnavailable, "shutting_down", "the server is shutting down: retry on another replica"}
	}
	md := numbers(m.Metadata)
	if m.Channel != "" {
		md = merged(md, map[string]any{"input_channel": m.Channel})
	}
	rep, he := s.turn(ctx, sessionOfSender(m.Sender), "", vm.Input{Text: m.Text, Metadata: md, Channel: m.Channel}, nil)
	if he != nil {
		return nil, &ChannelError{he.status, he.code, he.message}
	}
	return s.channelReplies(rep), nil
}

// channelReplies are a turn's messages with their buttons, image and
// custom payload; the last one, when its response has no buttons, with
// the buttons the pending question's type gives.
func (s *Server) channelReplies(rep *soni.Reply) []ChannelReply {
	out := make([]ChannelReply, 0, len(rep.Replies))
	for i := range rep.Replies {
		u := rep.Message(i)
		cr := ChannelReply{Text: u.Text, Image: u.Image, Custom: u.Custom}
		for _, b := range u.Buttons {
			cr.Buttons = append(cr.Buttons, ChannelButton{Title: b.Title, Payload: b.Payload})
		}
		out = append(out, cr)
	}
	if len(out) > 0 && len(out[len(out)-1].Buttons) == 0 {
		out[len(out)-1].Buttons = buttons(s.eng.Load().Program(), rep.Pending)
	}
	return out
}

// Authorized reports whether token is the server's token, or the server
// needs none: a channel whose clients cannot send an Authorization header
// (a browser's socket.io handshake) checks the token it gets with this.
func (s *Server) Authorized(token string) bool {
	return s.opts.Token == "" || subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.Token)) == 1
}

// BearerToken is the token of an "Authorization: Bearer TOKEN" header,
// or "".
func BearerToken(h http.Header) string {
	t, _ := strings.CutPrefix(h.Get("Authorization"), "Bearer ")
	return t
}

// OriginAllowed reports whether a page from origin may talk to the
// server over r: an origin --cors-origin allows, or the server's own
// (r's Host). A browser applies no CORS to a WebSocket: a channel that
// takes them checks their Origin with this.
func (s *Server) OriginAllowed(r *http.Request, origin string) bool {
	if s.origins != nil && s.allowedOrigin(origin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// RefuseOrigin answers a request from a page whose origin is not allowed
// with 403 origin_not_allowed, naming the origin and --cors-origin, and
// logs the origin once, as a refused CORS preflight is answered.
func (s *Server) RefuseOrigin(w http.ResponseWriter, origin string) {
	s.refusedOrigins.log(s, origin)
	writeError(w, http.StatusForbidden, "origin_not_allowed", originRefusal(origin))
}

// Handle serves h at pattern (a net/http mux pattern) beside the
// server's endpoints, for a channel's transport: the server's CORS
// headers and refused preflights, its connection cap and its shutdown
// apply to it; the token is h's to check (Authorized). Call it before
// serving.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// MaxBody is the largest message the server takes, in bytes
// (Options.MaxBody): a channel's limit on one message.
func (s *Server) MaxBody() int64 { return s.opts.MaxBody }

// Logger is the server's logger (Options.Logger), or nil.
func (s *Server) Logger() *slog.Logger { return s.opts.Logger }
