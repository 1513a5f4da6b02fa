package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/vm"
)

// apiError is the JSON error body.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	var e apiError
	e.Error.Code, e.Error.Message = code, msg
	writeJSON(w, status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b := getBuffer()
	defer putBuffer(b)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		b.WriteString(`{"error":{"code":"internal","message":"the response could not be encoded"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// buffers holds the buffers request bodies are read into and responses
// encoded into, so that a turn does not grow a new one each time.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer {
	b := buffers.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// putBuffer returns b to the pool, unless it grew large.
func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= 64<<10 {
		buffers.Put(b)
	}
}

// httpError is an error with its status and code.
type httpError struct {
	status  int
	code    string
	message string
}

func (e *httpError) Error() string { return e.message }

// busyRetryAfter is the Retry-After of a 429, in seconds: a session's
// queue moves at the pace of its turns.
const busyRetryAfter = "1"

// write answers the error.
func (e *httpError) write(w http.ResponseWriter) {
	if e.status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", busyRetryAfter)
	}
	writeError(w, e.status, e.code, e.message)
}

func badRequest(format string, args ...any) *httpError {
	return &httpError{status: http.StatusBadRequest, code: "bad_request", message: fmt.Sprintf(format, args...)}
}

// jsonProblem describes a JSON decoding error without Go type names.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %q has the wrong type (a JSON %s)", te.Field, te.Value)
		}
		return fmt.Sprintf("a JSON %s where an object was expected", te.Value)
	case errors.Is(err, io.EOF):
		return "the body is empty"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	}
	return "invalid JSON"
}

// turnError maps an engine error to a status, never leaking a path or a
// Go type: the details go to the log. ctx is the turn's context, client
// the request's: a client that hung up is not the engine's failure.
func (s *Server) turnError(ctx, client context.Context, session string, err error) *httpError {
	var ie *checkpoints.InvalidIDError
	var re *vm.RuntimeError
	var rse *soni.ResumeError
	switch {
	case client.Err() != nil:
		return &httpError{statusClientClosed, "client_closed", "the client closed the request before the turn ended; the turn was not saved"}
	case errors.As(err, &ie):
		return badRequest("session id %q is not valid: use 1 to 128 of A-Z a-z 0-9 . _ -", session)
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return &httpError{http.StatusGatewayTimeout, "turn_timeout", fmt.Sprintf("the turn took longer than %s and was stopped; the conversation stays where it was", s.opts.TurnTimeout)}
	case errors.Is(err, checkpoints.ErrBusy):
		return &httpError{http.StatusTooManyRequests, "session_busy", fmt.Sprintf("session %q has as many messages waiting as it takes; this one did not run: send it again after Retry-After seconds", session)}
	case errors.Is(err, checkpoints.ErrConflict):
		return &httpError{http.StatusConflict, "conflict", "another turn of this session was saved while this one ran; this turn was not saved: send the message again"}
	case errors.Is(err, vm.ErrMetadata):
		// The engine's limits (vm.MaxMetadataDepth, ...) and its message,
		// which names the key and the limit.
		return &httpError{http.StatusUnprocessableEntity, "invalid_metadata", err.Error()}
	case errors.Is(err, checkpoints.ErrTooLarge):
		return &httpError{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("the conversation of session %q would grow over the store's size limit with this message; it was not saved: send less metadata, or DELETE /v1/sessions/%s to start afresh", session, session)}
	case errors.As(err, &re):
		return &httpError{http.StatusInternalServerError, "runtime_error", fmt.Sprintf("the turn failed at step %q of flow %q: %v; the conversation stays where it was", re.Step, re.Flow, re.Err)}
	case errors.As(err, &rse), errors.Is(err, checkpoints.ErrCorrupt):
		return &httpError{http.StatusInternalServerError, "cannot_resume", fmt.Sprintf("the stored conversation of session %q cannot be resumed with these flows; it was left untouched: DELETE /v1/sessions/%s to start it afresh", session, session)}
	}
	return &httpError{http.StatusServiceUnavailable, "store_unavailable", "the conversation store failed: " + storeCause(err) + "; the turn was not run or not saved: retry later"}
}

// statusClientClosed is the status logged for a client that hung up
// (nginx's 499); the client is gone and never reads it.
const statusClientClosed = 499

// storeCause names why a store failed, in words that hold no path, URL
// or data: the system's reason (a full disk: "no space left on device"),
// an unreachable server, or the database's error class.
func storeCause(err error) string {
	var errno syscall.Errno
	var sqlErr interface{ SQLState() string }
	var netErr net.Error
	switch {
	case errors.As(err, &errno):
		return errno.Error()
	case errors.As(err, &sqlErr):
		return fmt.Sprintf("the database answered with error %s", sqlErr.SQLState())
	case errors.As(err, &netErr):
		if netErr.Timeout() {
			return "it could not be reached in time"
		}
		return "it could not be reached"
	}
	return "it could not be reached or did not answer"
}

// checkKey refuses, before any turn runs, an idempotency key over
// checkpoints.MaxKeyLength bytes: no retry can make it work.
func checkKey(key string) *httpError {
	if len(key) > checkpoints.MaxKeyLength {
		return badRequest("the message id (or Idempotency-Key) is %d bytes, over the limit of %d", len(key), checkpoints.MaxKeyLength)
	}
	return nil
}
