package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/soni-dev/soni/vm"
)

// sse writes Server-Sent Events frames: "id: N", "event: KIND" and one
// "data: JSON" line, then a blank line, flushed at once. N counts the
// frames of the stream from 1.
type sse struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	idle time.Duration
	n    int
}

// newSSE starts a stream. A stream lasts as long as its turn, so the
// server's WriteTimeout does not apply: each frame gets idle to be
// written instead, and a client that stops reading is let go.
func newSSE(w http.ResponseWriter, idle time.Duration) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	s := &sse{w: w, rc: http.NewResponseController(w), idle: idle}
	_ = s.rc.SetWriteDeadline(time.Now().Add(idle))
	w.WriteHeader(http.StatusOK)
	_ = s.rc.Flush()
	return s
}

func (s *sse) frame(kind string, v any) {
	s.n++
	var b bytes.Buffer
	b.WriteString("id: ")
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

func (s *sse) reply(text string) { s.frame("reply", map[string]string{"text": text}) }

func (s *sse) event(e vm.Event) { s.frame("event", e) }

// stream runs a turn and answers with its frames: reply and event frames
// as the turn makes them, then done with the final object (the same as
// the JSON endpoint answers), or error with the error object. A repeated
// message id replays the first attempt's replies and events.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, session, key string, in vm.Input) {
	out := newSSE(w, s.opts.StreamIdleTimeout)
	rep, he := s.turn(r, session, key, in, out)
	if he != nil {
		var e apiError
		e.Error.Code, e.Error.Message = he.code, he.message
		out.frame("error", e)
		return
	}
	if rep.Duplicate {
		for _, t := range rep.Replies {
			out.reply(t)
		}
		for _, e := range rep.Events {
			out.event(e)
		}
	}
	out.frame("done", rep.Record)
}
