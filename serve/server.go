// Package serve puts a soni engine behind HTTP: Rasa's REST channel, so
// that existing chat widgets work unchanged, soni's own JSON API with
// Server-Sent Events, session endpoints, health checks and Prometheus
// metrics. docs/serve.md is the reference. Every turn goes through the
// engine (soni.Engine.HandleMessage), like chat and test.
package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/convtest"
	"github.com/soni-dev/soni/inspect"
	"github.com/soni-dev/soni/internal/cmdshape"
	"github.com/soni-dev/soni/internal/jsonval"
	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
)

// Options configure a [Server]. Every field is optional.
type Options struct {
	// Token, when set, is required as "Authorization: Bearer TOKEN" on
	// every endpoint but /healthz and /readyz.
	Token string
	// Reload, when set, builds the project again and swaps the engine,
	// as SIGHUP does: POST /v1/program/reload runs it. Without it that
	// endpoint answers 404.
	Reload func(ctx context.Context) (*Reloaded, error)
	// AllowCommands lets /v1 messages carry commands, which bypass
	// understanding.
	AllowCommands bool
	// MaxBody is the largest request body, in bytes; default 64 KiB.
	MaxBody int64
	// TurnTimeout bounds one turn; default 30s.
	TurnTimeout time.Duration
	// Logger gets one line per turn; default slog's JSON handler on
	// stderr is the caller's to set (nil logs nothing).
	Logger *slog.Logger
	// LogMessages puts the user's text and the replies in the log lines.
	LogMessages bool
	// Registry holds the metrics that /metrics serves; default a new one.
	Registry *prometheus.Registry
	// Inspect serves the web inspector at /inspect (package inspect).
	Inspect bool
	// InspectFiles, when set, are the inspector's files instead of the
	// embedded ones (the browser tests break the page on purpose).
	InspectFiles fs.FS
	// Project is the project path as the user gave it, written as the
	// flows: of a session saved as a test (GET .../events?format=test).
	Project string

	// The limits of a connection, for Serve (zero: the Default...
	// constants). ReadHeaderTimeout bounds reading a request's headers,
	// ReadTimeout the whole request, WriteTimeout the time from the end
	// of the headers to the end of the answer (default TurnTimeout +
	// 30s), IdleTimeout a keep-alive connection between requests.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// StreamIdleTimeout replaces WriteTimeout for a Server-Sent Events
	// stream, which lasts as long as its turn: it bounds the writing of
	// each frame, so that a client that stops reading is let go.
	StreamIdleTimeout time.Duration
	// MaxHeaderBytes is the largest request header.
	MaxHeaderBytes int
	// MaxConns caps the open connections. Up to 16 more are accepted to
	// answer /healthz and /readyz only; any more get 503 at once.
	MaxConns int
	// CORSOrigins are the origins whose pages may call the API from a
	// browser ("*": any; see CheckOrigin). None by default.
	CORSOrigins []string
	// Turns, when set, sees every turn the server runs (package
	// tracing's *Tracing makes a span of each).
	Turns TurnObserver
}

// TurnObserver sees the turns a [Server] runs: StartTurn is called before
// each with its context, session and message id, and the function it
// returns after it, with its reply (nil when it failed), its outcome
// ("ok", "duplicate" or the error code) and its error. The context it
// returns is the turn's.
type TurnObserver interface {
	StartTurn(ctx context.Context, session, messageID string) (context.Context, func(rep *soni.Reply, outcome string, err error))
}

// Server serves one engine at a time; SetEngine swaps it (a reload).
type Server struct {
	eng     atomic.Pointer[soni.Engine]
	opts    Options
	metrics *Metrics
	reg     *prometheus.Registry
	closing atomic.Bool
	mux     *http.ServeMux
	// storeFailure is the last store failure of a turn, nil once a turn
	// is saved again: /readyz fails for readyWindow after it.
	storeFailure atomic.Pointer[storeFailure]
	// programJSON caches GET /v1/program's answer for the engine.
	programJSON atomic.Pointer[programJSON]
	// now is the clock (a fake one in tests).
	now func() time.Time

	// What Serve and Shutdown share: the http.Server, the listeners,
	// the connections running a turn, closed idle once none does
	// after Close.
	mu       sync.Mutex
	hs       *http.Server
	lns      []*capListener
	busy     atomic.Int64
	idle     chan struct{}
	idleOnce sync.Once
	reserve  int // healthReserve, fewer in tests
	// connState, when set (by tests), sees each connection's states
	// after the server has recorded them.
	connState func(net.Conn, http.ConnState)

	// origins are Options.CORSOrigins, normalised; anyOrigin, "*".
	origins   map[string]struct{}
	anyOrigin bool
	// refusedOrigins logs each origin whose preflight was refused once.
	refusedOrigins refusedOrigins
}

// New returns a server for the engine.
func New(eng *soni.Engine, opts Options) *Server {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 64 << 10
	}
	if opts.TurnTimeout <= 0 {
		opts.TurnTimeout = 30 * time.Second
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&opts.ReadHeaderTimeout, DefaultReadHeaderTimeout}, {&opts.ReadTimeout, DefaultReadTimeout},
		{&opts.WriteTimeout, opts.TurnTimeout + defaultWriteTimeoutMargin}, {&opts.IdleTimeout, DefaultIdleTimeout},
		{&opts.StreamIdleTimeout, DefaultStreamIdleTimeout},
	} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if opts.MaxHeaderBytes <= 0 {
		opts.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	reg := opts.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	if opts.Registry == nil {
		// The process's own health: goroutines, memory, file descriptors.
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	s := &Server{opts: opts, reg: reg, metrics: NewMetrics(reg), now: time.Now, idle: make(chan struct{}), reserve: healthReserve}
	if len(opts.CORSOrigins) > 0 {
		s.origins = map[string]struct{}{}
		for _, o := range opts.CORSOrigins {
			s.anyOrigin = s.anyOrigin || o == "*"
			s.origins[normalOrigin(o)] = struct{}{}
		}
	}
	s.eng.Store(eng)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhooks/rest/webhook", s.auth(s.rasaWebhook))
	mux.HandleFunc("GET /webhooks/rest/{$}", s.auth(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}))
	mux.HandleFunc("POST /v1/sessions/{id}/messages", s.auth(s.message))
	mux.HandleFunc("GET /v1/sessions/{id}", s.auth(s.getSession))
	mux.HandleFunc("DELETE /v1/sessions/{id}", s.auth(s.deleteSession))
	mux.HandleFunc("GET /v1/sessions/{id}/events", s.auth(s.events))
	mux.HandleFunc("GET /v1/sessions", s.auth(s.listSessions))
	mux.HandleFunc("GET /v1/program", s.auth(s.program))
	mux.HandleFunc("POST /v1/program/reload", s.auth(s.reload))
	if opts.Inspect {
		// The page itself is static and holds no data: every request it
		// makes goes through the API and its token.
		h := inspect.Handler()
		if opts.InspectFiles != nil {
			h = inspect.HandlerFS(opts.InspectFiles)
		}
		mux.Handle("GET /inspect/", h)
		mux.Handle("GET /inspect", http.RedirectHandler("/inspect/", http.StatusMovedPermanently))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", s.ready)
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(OpenAPI)
	})
	mux.Handle("GET /metrics", s.authHandler(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))
	mux.HandleFunc("/", s.auth(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no endpoint %s %s: see docs/serve.md", r.Method, r.URL.Path))
	}))
	s.mux = mux
	return s
}

// Metrics returns the server's metrics, to wrap the engine's store and
// action runner with (Metrics.Store, Metrics.Actions).
func (s *Server) Metrics() *Metrics { return s.metrics }

// SetEngine makes new turns use eng (a reloaded program). Turns already
// running finish on the engine they started with.
func (s *Server) SetEngine(eng *soni.Engine) { s.eng.Store(eng) }

// Close marks the server as shutting down: new requests get 503, and
// /readyz fails, while turns in flight finish.
func (s *Server) Close() { s.closing.Store(true) }

// ServeHTTP serves the endpoints of docs/serve.md.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			// Never a stack trace to the client; the log gets the panic.
			s.logf("panic", "error", fmt.Sprint(p), "path", r.URL.Path)
			writeError(w, http.StatusInternalServerError, "internal", "the server failed on this request; it was logged")
		}
	}()
	if s.cors(w, r) {
		return
	}
	if c := connOf(r); c != nil && c.overflow {
		// Over the connection cap: health checks only, then let go.
		w.Header().Set("Connection", "close")
		if r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
			writeError(w, http.StatusServiceUnavailable, "too_many_connections", "the server has as many connections open as it takes: retry later, or on another replica")
			return
		}
	}
	if s.closing.Load() && r.URL.Path != "/healthz" {
		writeError(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down: retry on another replica")
		return
	}
	if r.Body == http.NoBody && !s.admit(r) && r.URL.Path != "/healthz" {
		writeError(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down: retry on another replica")
		return
	}
	if r.Method == http.MethodConnect || !cleanPath(r.URL.EscapedPath()) {
		// net/http's mux would answer these itself, in text or HTML: a
		// redirect to the cleaned path, or a plain 404.
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no endpoint %s %s: paths have no empty, . or .. segments (see docs/serve.md)", r.Method, r.URL.Path))
		return
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath reports whether p is a path the mux serves as it is: rooted,
// with no empty, "." or ".." segment.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	return !strings.Contains(p, "//") && !strings.Contains(p, "/./") && !strings.Contains(p, "/../") &&
		!strings.HasSuffix(p, "/.") && !strings.HasSuffix(p, "/..")
}

func (s *Server) logf(msg string, args ...any) {
	if s.opts.Logger != nil {
		s.opts.Logger.Info(msg, args...)
	}
}

// auth requires the bearer token, when one is set.
func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="soni"`)
				writeError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong token: send Authorization: Bearer TOKEN")
				return
			}
		}
		h(w, r)
	}
}

func (s *Server) authHandler(h http.Handler) http.Handler { return s.auth(h.ServeHTTP) }

// decode reads a JSON request body into v: the media type must be JSON,
// the body within MaxBody, one object, with no unknown field when
// strict.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any, strict bool) *httpError {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return &httpError{http.StatusUnsupportedMediaType, "unsupported_media_type", fmt.Sprintf("the body must be JSON (Content-Type: application/json), not %q", ct)}
		}
	}
	buf := getBuffer()
	defer putBuffer(buf)
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	body := buf.Bytes()
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return &httpError{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("the body is over %d bytes", s.opts.MaxBody)}
	case errors.As(err, &ne) && ne.Timeout():
		return &httpError{http.StatusRequestTimeout, "request_timeout", fmt.Sprintf("the body did not arrive within %s", s.opts.ReadTimeout)}
	case err != nil:
		return badRequest("the body could not be read")
	}
	if !s.admit(r) {
		return &httpError{http.StatusServiceUnavailable, "shutting_down", "the server is shutting down: retry on another replica"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return badRequest("the body is not the JSON object expected: %s", jsonProblem(err))
	}
	if dec.More() {
		return badRequest("the body holds more than one JSON value")
	}
	return nil
}

// rasaMessage is the body of Rasa's REST channel.
type rasaMessage struct {
	Sender       *string        `json:"sender"`
	Message      *string        `json:"message"`
	Metadata     map[string]any `json:"metadata"`
	InputChannel string         `json:"input_channel"`
}

// rasaReply is one element of the REST channel's answer.
type rasaReply struct {
	RecipientID string       `json:"recipient_id"`
	Text        string       `json:"text,omitempty"`
	Buttons     []rasaButton `json:"buttons,omitempty"`
	Image       string       `json:"image,omitempty"`
	Custom      any          `json:"custom,omitempty"`
}

type rasaButton = ChannelButton

// sessionOfSender maps a Rasa sender id to a session id: itself when it
// is a valid session id, else "sender-" and a hash of it (an e-mail
// address, say), so that any sender has a conversation and none can
// reach a path.
func sessionOfSender(sender string) string {
	if checkpoints.ValidateID(sender) == nil {
		return sender
	}
	sum := sha256.Sum256([]byte(sender))
	return "sender-" + hex.EncodeToString(sum[:16])
}

func (s *Server) rasaWebhook(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("stream") == "true" {
		writeError(w, http.StatusBadRequest, "unsupported", "the REST channel's stream=true is not supported: use POST /v1/sessions/ID/messages with Accept: text/event-stream")
		return
	}
	var m rasaMessage
	// Rasa ignores the fields it does not know, and widgets send their
	// own (customData, session_id, ...): so does this channel.
	if he := s.decode(w, r, &m, false); he != nil {
		he.write(w)
		return
	}
	if m.Sender == nil || m.Message == nil {
		writeError(w, http.StatusBadRequest, "bad_request", `the body needs "sender" and "message"`)
		return
	}
	session := sessionOfSender(*m.Sender)
	md := m.Metadata
	if m.InputChannel != "" {
		md = merged(md, map[string]any{"input_channel": m.InputChannel})
	}
	key := r.Header.Get("Idempotency-Key")
	md = numbers(md)
	if he := checkKey(key); he != nil {
		he.write(w)
		return
	}
	rep, he := s.turn(r.Context(), session, key, vm.Input{Text: *m.Message, Metadata: md, Channel: "rest"}, nil)
	if he != nil {
		he.write(w)
		return
	}
	msgs := s.channelReplies(rep)
	out := make([]rasaReply, 0, len(msgs))
	for _, u := range msgs {
		out = append(out, rasaReply{RecipientID: *m.Sender, Text: u.Text, Buttons: u.Buttons, Image: u.Image, Custom: u.Custom})
	}
	writeJSON(w, http.StatusOK, out)
}

func merged(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// buttons are the quick replies for the pending question: Yes/No for a
// confirm or a boolean collect, the declared values for a categorical one.
func buttons(prog *ir.Program, p *vm.Pending) []rasaButton {
	if p == nil {
		return nil
	}
	yesNo := []rasaButton{{Title: "Yes", Payload: "yes"}, {Title: "No", Payload: "no"}}
	if p.Kind == vm.PendingConfirm {
		return yesNo
	}
	def := prog.ResolveSlot(p.Flow, p.Slot)
	if def == nil {
		return nil
	}
	switch def.Type {
	case ir.TypeBoolean:
		return yesNo
	case ir.TypeCategorical:
		var out []rasaButton
		for _, v := range def.Values {
			out = append(out, rasaButton{Title: v.ShownValue(), Payload: v.Value})
		}
		return out
	}
	return nil
}

// apiMessage is the body of POST /v1/sessions/{id}/messages.
type apiMessage struct {
	Text      *string        `json:"text"`
	Commands  []any          `json:"commands"`
	MessageID string         `json:"message_id"`
	Metadata  map[string]any `json:"metadata"`
}

func (s *Server) message(w http.ResponseWriter, r *http.Request) {
	// The session id is checked once, by the store's Begin: a bad one
	// is answered 400 from the turn's error (turnError).
	session := r.PathValue("id")
	var m apiMessage
	if he := s.decode(w, r, &m, true); he != nil {
		he.write(w)
		return
	}
	key := m.MessageID
	if key == "" {
		key = r.Header.Get("Idempotency-Key")
	}
	var in vm.Input
	switch {
	case m.Text != nil && m.Commands != nil:
		writeError(w, http.StatusBadRequest, "bad_request", `give "text" or "commands", not both`)
		return
	case m.Text != nil:
		in.Text = *m.Text
	case m.Commands != nil:
		if !s.opts.AllowCommands {
			writeError(w, http.StatusForbidden, "commands_not_allowed", "commands bypass understanding and are off: start soni serve with --allow-commands")
			return
		}
		cmds, err := cmdshape.Parse(s.eng.Load().Program(), numbers(m.Commands))
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_command", err.Error())
			return
		}
		in.Commands = cmds
	default:
		writeError(w, http.StatusBadRequest, "bad_request", `the body needs "text" (or "commands")`)
		return
	}
	in.Metadata = numbers(m.Metadata)
	if he := checkKey(key); he != nil {
		he.write(w)
		return
	}
	if wantsStream(r) {
		s.stream(w, r, session, key, in)
		return
	}
	rep, he := s.turn(r.Context(), session, key, in, nil)
	if he != nil {
		he.write(w)
		return
	}
	writeJSON(w, http.StatusOK, rep.Record)
}

func wantsStream(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && mt == "text/event-stream" {
			return true
		}
	}
	return false
}

// turn runs one turn with the turn timeout, logs and measures it.
// stream, when set, gets the replies and events as they come; a
// streamed turn runs to its end even if the client goes away, so that a
// reconnect finds it done (a client that hangs up on a JSON request
// stops its turn). client is the request's context (or a channel
// message's): its end is the client going away.
func (s *Server) turn(client context.Context, session, key string, in vm.Input, stream *sse) (*soni.Reply, *httpError) {
	eng := s.eng.Load()
	if stream != nil {
		client = context.WithoutCancel(client)
	}
	ctx, cancel := context.WithTimeout(client, s.opts.TurnTimeout)
	defer cancel()
	if stream != nil {
		in.OnMessage = stream.reply
		in.OnEvent = stream.event
	}
	var observed func(*soni.Reply, string, error)
	if s.opts.Turns != nil {
		ctx, observed = s.opts.Turns.StartTurn(ctx, session, key)
	}
	start := time.Now()
	rep, err := eng.HandleMessage(ctx, session, key, in)
	d := time.Since(start)
	outcome := "ok"
	var he *httpError
	switch {
	case err != nil:
		he = s.turnError(ctx, client, session, err)
		outcome = he.code
	case rep.Duplicate:
		outcome = "duplicate"
	}
	if observed != nil {
		observed(rep, outcome, err)
	}
	var events []vm.Event
	if rep != nil && !rep.Duplicate {
		events = rep.Events
	}
	s.metrics.turn(outcome, d, events)
	s.metrics.version(rep)
	switch {
	case outcome == "store_unavailable":
		s.storeFailed(he.message)
	case err == nil && !rep.Duplicate && s.storeFailure.Load() != nil:
		s.storeFailure.Store(nil)
	}
	if s.opts.Logger != nil {
		args := []any{"session", session, "message_id", key, "latency_ms", float64(d.Microseconds()) / 1000, "outcome", outcome}
		if rep != nil {
			args = append(args, "revision", rep.Revision, "flows", flowsOf(rep))
			if s.opts.LogMessages {
				args = append(args, "text", in.Text, "replies", rep.Replies)
			}
		}
		if err != nil {
			args = append(args, "error", err.Error())
		}
		s.opts.Logger.Info("turn", args...)
		// An action that failed is the operator's business even when
		// the flow went on (its on_error, or the action error message):
		// the bot's words alone do not tell "down" from "no results".
		for _, e := range events {
			if e.Type == vm.EventActionFailed {
				s.opts.Logger.Warn("action failed", "session", session, "action", e.Action, "flow", e.Flow, "step", e.Step, "error", e.Error)
			}
		}
	}
	return rep, he
}

// flowsOf names the flows a turn touched: started, ended, or on top.
func flowsOf(rep *soni.Reply) []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, e := range rep.Events {
		switch e.Type {
		case vm.EventFlowStarted, vm.EventFlowCompleted, vm.EventFlowCancelled:
			add(e.Flow)
		}
	}
	if rep.Record != nil {
		for _, f := range rep.Record.Stack {
			add(f)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// numbers turns the json.Numbers of a decoded body into int64 or float64.
func numbers[T any](v T) T {
	jsonval.Numbers(any(v))
	return v
}

// sessionView is the answer of GET /v1/sessions/{id}.
type sessionView struct {
	Session  string `json:"session"`
	Revision uint64 `json:"revision"`
	// Version is the program version the session was last saved with.
	Version  string         `json:"version,omitempty"`
	Created  time.Time      `json:"created"`
	Updated  time.Time      `json:"updated"`
	Stack    []frameView    `json:"stack"`
	Slots    map[string]any `json:"slots"`
	Pending  *vm.Pending    `json:"pending"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// frameView is one flow of the stack: its name, the step it is at (or
// waits at), its flow slots, and whether it waits for a flow it called.
type frameView struct {
	Flow      string         `json:"flow"`
	Step      string         `json:"step"`
	Slots     map[string]any `json:"slots"`
	AfterCall bool           `json:"after_call,omitempty"`
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	session := r.PathValue("id")
	eng := s.eng.Load()
	st, rev, err := eng.State(r.Context(), session)
	if err != nil {
		he := s.turnError(r.Context(), r.Context(), session, err)
		he.write(w)
		return
	}
	if rev == 0 {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no session %q", session))
		return
	}
	v := sessionView{Session: session, Revision: rev, Version: st.Fingerprint, Created: st.Created, Updated: st.Updated, Stack: []frameView{}, Slots: st.Slots, Pending: st.Pending, Metadata: st.Metadata}
	for _, f := range st.Stack {
		fv := frameView{Flow: f.Flow, Step: f.Step, Slots: f.Slots, AfterCall: f.AfterCall}
		if fv.Slots == nil {
			fv.Slots = map[string]any{}
		}
		v.Stack = append(v.Stack, fv)
	}
	if v.Slots == nil {
		v.Slots = map[string]any{}
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) {
	session := r.PathValue("id")
	if err := s.eng.Load().Reset(r.Context(), session); err != nil {
		he := s.turnError(r.Context(), r.Context(), session, err)
		he.write(w)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	session := r.PathValue("id")
	if err := checkpoints.ValidateID(session); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("session id %q is not valid: use 1 to 128 of A-Z a-z 0-9 . _ -", session))
		return
	}
	q := r.URL.Query()
	after, limit := uint64(0), 100
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("after=%q is not a revision (a whole number)", v))
			return
		}
		after = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("limit=%q must be a whole number from 1 to 1000", v))
			return
		}
		limit = n
	}
	recs, err := s.eng.Load().Log(r.Context(), session, after, limit)
	if err != nil {
		he := s.turnError(r.Context(), r.Context(), session, err)
		he.write(w)
		return
	}
	switch f := q.Get("format"); f {
	case "", "json":
		writeJSON(w, http.StatusOK, map[string]any{"session": session, "events": recs})
	case "test":
		// The conversation as a test case file, as soni log --format
		// test writes it; the inspector's "Save as test".
		if len(recs) == 0 {
			writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("session %q has no logged turns", session))
			return
		}
		var b bytes.Buffer
		for _, warn := range convtest.WriteTestCase(&b, session, s.opts.Project, recs) {
			w.Header().Add("Soni-Warning", warn)
		}
		w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "session_"+session+".yaml"))
		_, _ = w.Write(b.Bytes())
	default:
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("format=%q is not known: use json or test", f))
	}
}

// sessionInfo is one session in GET /v1/sessions.
type sessionInfo struct {
	Session  string    `json:"session"`
	Revision uint64    `json:"revision"`
	Updated  time.Time `json:"updated,omitzero"`
}

// sessionPage is the answer of GET /v1/sessions.
type sessionPage struct {
	Sessions []sessionInfo `json:"sessions"`
	// Next is the after of the next page; empty on the last.
	Next string `json:"next,omitempty"`
}

// listSessions answers a page of the store's sessions, sorted by id, as
// the store pages them: the cost is the page's, however many sessions
// there are.
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("limit=%q must be a whole number from 1 to 1000", v))
			return
		}
		limit = n
	}
	after := q.Get("after")
	if after != "" && checkpoints.ValidateID(after) != nil {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("after=%q is not a session id: give the next of the previous page", after))
		return
	}
	infos, err := s.eng.Load().Store().List(r.Context(), after, limit+1) // one more tells whether a next page exists
	if err != nil {
		s.turnError(r.Context(), r.Context(), "", err).write(w)
		return
	}
	page := sessionPage{Sessions: make([]sessionInfo, 0, min(len(infos), limit))}
	if len(infos) > limit {
		infos = infos[:limit]
		page.Next = infos[limit-1].ID
	}
	for _, in := range infos {
		page.Sessions = append(page.Sessions, sessionInfo{Session: in.ID, Revision: in.Revision, Updated: in.Updated.UTC()})
	}
	writeJSON(w, http.StatusOK, page)
}

// readyWindow is how long a turn that could not be saved keeps /readyz
// failing: long enough for a load balancer's probes to see it, short
// enough that a server whose store recovered gets traffic again (no turn
// can succeed while it gets none).
const readyWindow = 15 * time.Second

// storeFailure is the last turn the store failed, until a turn is saved.
type storeFailure struct {
	at    time.Time
	cause string
}

func (s *Server) storeFailed(cause string) {
	s.storeFailure.Store(&storeFailure{at: s.now(), cause: cause})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	eng := s.eng.Load()
	if eng == nil {
		writeError(w, http.StatusServiceUnavailable, "not_ready", "no program is loaded")
		return
	}
	if f := s.storeFailure.Load(); f != nil && s.now().Sub(f.at) < readyWindow {
		writeError(w, http.StatusServiceUnavailable, "store_unavailable", "turns are failing to save: "+f.cause)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := eng.Store().Ping(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, "store_unavailable", "the conversation store failed: "+storeCause(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
