// Package fakeapi holds what the fake APIs of the example projects
// (flows/travel/faketravel, flows/support/fakehelpdesk) share: the HTTP side of
// soni's action protocol, each action an endpoint POST /<action>, and the
// server their commands run.
package fakeapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"
)

// maxRequest bounds a request body.
const maxRequest = 1 << 20

// Action answers one action: its inputs to its outputs. An *InputError
// is answered with status 422, any other error with 500.
type Action func(inputs map[string]any) (map[string]any, error)

// InputError is a request whose inputs are missing or invalid.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// BadInput returns an *InputError.
func BadInput(format string, args ...any) error {
	return &InputError{fmt.Sprintf(format, args...)}
}

// Handler serves the actions, each at POST /<name>, and answers any other
// path with 404 and the list of endpoints.
func Handler(actions map[string]Action) http.Handler {
	mux := http.NewServeMux()
	var paths []string
	for name, a := range actions {
		mux.Handle("/"+name, endpoint(a))
		paths = append(paths, "/"+name)
	}
	sort.Strings(paths)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusNotFound, map[string]any{
			"error": fmt.Sprintf("no endpoint %q: use %s", r.URL.Path, strings.Join(paths, ", ")),
		})
	})
	return mux
}

// endpoint adapts an action to HTTP: it checks the method and the body and
// maps errors to statuses.
func endpoint(action Action) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			WriteJSON(w, http.StatusMethodNotAllowed, map[string]any{"error": fmt.Sprintf("method %q not allowed: POST the action request", r.Method)})
			return
		}
		b, err := io.ReadAll(io.LimitReader(r.Body, maxRequest+1))
		if err != nil {
			WriteJSON(w, http.StatusBadRequest, map[string]any{"error": "cannot read the request body"})
			return
		}
		if len(b) > maxRequest {
			WriteJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"error": "request larger than 1 MiB"})
			return
		}
		// What soni sends: {"action", "session", "inputs"}.
		var req struct {
			Inputs map[string]any `json:"inputs"`
		}
		if err := json.Unmarshal(b, &req); err != nil {
			WriteJSON(w, http.StatusBadRequest, map[string]any{"error": fmt.Sprintf("request is not a JSON object: %v", err)})
			return
		}
		out, err := action(req.Inputs)
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			WriteJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": ie.Msg})
		case err != nil:
			WriteJSON(w, http.StatusInternalServerError, map[string]any{"error": err.Error()})
		default:
			WriteJSON(w, http.StatusOK, out)
		}
	})
}

// WriteJSON answers with status and v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Main is the body of a fake API's command: it serves h on addr until
// SIGINT or SIGTERM, after printing "fake NAME on http://ADDR (Ctrl-C
// stops it)" on stdout (soni test's services wait for that line's URL),
// and exits with the error of a server that could not run.
func Main(name, addr string, h http.Handler) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := Serve(ctx, addr, h, func(a net.Addr) {
		fmt.Printf("fake %s on http://%s (Ctrl-C stops it)\n", name, a)
	})
	if err != nil {
		stop()
		log.Fatalf("fake %s: %v", name, err)
	}
}

// Serve listens on addr, calls ready with the address it listens on (port
// 0 picks a free one), and serves h until ctx ends.
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ready(l.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
