package serve

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/vm"
)

// sse writes Server-Sent Events frames: "id: ID", "event: KIND" and one
// "data: JSON" line, then a blank line, flushed at once. ID is N, the
// frame's number in the stream from 1, or KEY:N when the server gave the
// stream its key (the request had no message id), so that a reconnect's
// Last-Event-ID names the stream.
type sse struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	idle    time.Duration
	prefix  string
	n       int
	started bool
}

// newSSE makes a stream's writer; start sends its headers. A stream
// lasts as long as its turn, so the server's WriteTimeout does not
// apply: each frame gets idle to be written instead, and a client that
// stops reading is let go.
func newSSE(w http.ResponseWriter, idle time.Duration, prefix string) *sse {
	return &sse{w: w, rc: http.NewResponseController(w), idle: idle, prefix: prefix}
}

func (s *sse) start() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.idle))
	s.w.WriteHeader(http.StatusOK)
	_ = s.rc.Flush()
}

func (s *sse) frame(kind string, v any) {
	s.start()
	s.n++
	var b bytes.Buffer
	b.WriteString("id: ")
	if s.prefix != "" {
		b.WriteString(s.prefix)
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(s.n))
	b.WriteString("\nevent: ")
	b.WriteString(kind)
	b.WriteString("\ndata: ")
	enc := json.NewEncoder(&b) // one line: Encode escapes newlines in strings
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	b.WriteByte('\n')
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.idle))
	_, _ = s.w.Write(b.Bytes())
	_ = s.rc.Flush()
}

// reply sends a reply frame: its text, and its response name, buttons,
// image and custom payload when it has them.
func (s *sse) reply(u vm.Utterance) { s.frame("reply", u) }

func (s *sse) event(e vm.Event) { s.frame("event", e) }

// stream runs a turn and answers with its frames: reply and event frames
// as the turn makes them, then done with the final object (the same as
// the JSON endpoint answers), or error with the error object.
//
// Every stream has an idempotency key: the message id, else one the
// server makes and puts in the frame ids. A repeated key replays the
// first attempt's replies, events and done, without running anything.
// A reconnect (Last-Event-ID, as EventSource sends it) never runs a turn
// that was saved: it gets the end of its stream, the done frame (which
// holds every reply and event), or 204 No Content when it had that
// already, which tells EventSource to stop reconnecting.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, session, key string, in vm.Input) {
	prefix, last, reconnect := "", 0, false
	if lid := r.Header.Get("Last-Event-ID"); lid != "" {
		k, n, ok := parseEventID(lid)
		if !ok {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("Last-Event-ID %q is not the id of a frame of this server: send the request without it", lid))
			return
		}
		if key == "" {
			if k == "" {
				writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("Last-Event-ID %q names no stream: send the stream's message_id with it", lid))
				return
			}
			key, prefix = k, k
		}
		reconnect, last = true, n
	} else if key == "" {
		key = newStreamKey()
		prefix = key
	}
	// The stream opens with its first frame, so that a turn that fails
	// before it made anything (a bad session id, a busy session, a store
	// that is down) is answered with its own status, as the JSON
	// endpoint answers it: 400, 429 with Retry-After, 503.
	out := newSSE(w, s.opts.StreamIdleTimeout, prefix)
	rep, he := s.turn(r.Context(), session, key, in, out)
	if he != nil && !out.started {
		he.write(w)
		return
	}
	if he != nil {
		var e apiError
		e.Error.Code, e.Error.Message = he.code, he.message
		out.frame("error", e)
		return
	}
	if rep.Duplicate {
		done := len(rep.Replies) + len(rep.Events) + 1 // the done frame's number
		switch {
		case reconnect && last >= done:
			w.WriteHeader(http.StatusNoContent)
			return
		case reconnect:
			out.n = done - 1
		default:
			for i := range rep.Replies {
				out.reply(rep.Message(i))
			}
			for _, e := range rep.Events {
				out.event(e)
			}
		}
	}
	out.frame("done", rep.Record)
}

// parseEventID reads a frame id: N, or KEY:N.
func parseEventID(id string) (key string, n int, ok bool) {
	num := id
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		key, num = id[:i], id[i+1:]
		if key == "" || len(key) > checkpoints.MaxKeyLength {
			return "", 0, false
		}
	}
	n, err := strconv.Atoi(num)
	return key, n, err == nil && n >= 0
}

// newStreamKey makes the idempotency key of a stream whose request had
// none.
func newStreamKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "sse-" + hex.EncodeToString(b[:])
}
