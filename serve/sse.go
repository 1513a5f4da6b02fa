package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/soni-dev/soni/vm"
)

// sse writes Server-Sent Events frames: "id: N", "event: KIND" and one
// "data: JSON" line, then a blank line, flushed at once. N counts the
// frames of the stream from 1.
type sse struct {
	w     http.ResponseWriter
	flush func()
	n     int
}

func newSSE(w http.ResponseWriter) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, flush: func() {}}
	if f, ok := w.(http.Flusher); ok {
		s.flush = f.Flush
	}
	s.flush()
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
	_, _ = s.w.Write(b.Bytes())
	s.flush()
}

func (s *sse) reply(text string) { s.frame("reply", map[string]string{"text": text}) }

func (s *sse) event(e vm.Event) { s.frame("event", e) }

// stream runs a turn and answers with its frames: reply and event frames
// as the turn makes them, then done with the final object (the same as
// the JSON endpoint answers), or error with the error object. A repeated
// message id replays the first attempt's replies and events.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, session, key string, in vm.Input) {
	out := newSSE(w)
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
