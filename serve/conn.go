package serve

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The defaults of the connection limits in [Options].
const (
	DefaultReadHeaderTimeout  = 10 * time.Second
	DefaultReadTimeout        = 30 * time.Second
	DefaultIdleTimeout        = 30 * time.Second
	DefaultStreamIdleTimeout  = 30 * time.Second
	DefaultMaxHeaderBytes     = 16 << 10
	DefaultMaxConns           = 4096
	defaultWriteTimeoutMargin = 30 * time.Second
)

// healthReserve is how many connections over Options.MaxConns are still
// accepted, to answer /healthz and /readyz only: a load balancer's probe
// gets through a server that clients hold at its cap.
const healthReserve = 16

// Serve accepts connections on ln and serves them with the limits of the
// options: timeouts on each phase of a connection, a cap on open
// connections, and JSON errors for requests net/http refuses itself. It
// returns when Shutdown is called (http.ErrServerClosed) or ln fails.
func (s *Server) Serve(ln net.Listener) error {
	hs := &http.Server{}
	s.configure(hs)
	return hs.Serve(s.listener(ln))
}

// configure sets hs up to serve s: the handler, the timeouts, the header
// limit, and the hooks that tell Shutdown which connections run turns.
func (s *Server) configure(hs *http.Server) {
	o := s.opts
	hs.Handler = s
	hs.ReadHeaderTimeout = o.ReadHeaderTimeout
	hs.ReadTimeout = o.ReadTimeout
	hs.WriteTimeout = o.WriteTimeout
	hs.IdleTimeout = o.IdleTimeout
	hs.MaxHeaderBytes = o.MaxHeaderBytes
	if o.Logger != nil {
		hs.ErrorLog = slog.NewLogLogger(o.Logger.Handler(), slog.LevelWarn)
	}
	hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if sc, ok := c.(*servedConn); ok {
			return context.WithValue(ctx, connKey{}, sc)
		}
		return ctx
	}
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		sc, ok := c.(*servedConn)
		if !ok {
			return
		}
		if st == http.StateIdle || st == http.StateClosed || st == http.StateHijacked {
			s.release(sc)
		}
		if st != http.StateNew {
			sc.l.setIdle(sc, st == http.StateIdle)
		}
		if s.connState != nil {
			s.connState(c, st)
		}
	}
	s.mu.Lock()
	s.hs = hs
	s.mu.Unlock()
}

// listener wraps ln with the connection cap; Shutdown closes the
// connections it accepted.
func (s *Server) listener(ln net.Listener) net.Listener {
	l := &capListener{Listener: ln, max: s.opts.MaxConns, reserve: s.reserve, conns: map[*servedConn]struct{}{}}
	s.mu.Lock()
	s.lns = append(s.lns, l)
	s.mu.Unlock()
	return l
}

// Shutdown stops the server gracefully: it stops accepting, answers new
// requests 503 shutting_down, closes idle connections at once, waits for
// the turns in flight (and their answers) to end, then closes every
// connection left, which runs no turn: one still sending its request
// holds nothing up. It returns ctx's error when ctx ends first, after
// closing every connection.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	hs, lns := s.hs, s.lns
	s.mu.Unlock()
	s.Close()
	if hs == nil {
		return nil
	}
	hs.SetKeepAlivesEnabled(false) // a connection closes after its turn's answer
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(ctx) }()
	err := s.drain(ctx)
	for _, l := range lns {
		l.closeAll()
	}
	if err != nil {
		_ = hs.Close()
		<-shut
		return err
	}
	return <-shut
}

// drain waits until no connection runs a turn.
func (s *Server) drain(ctx context.Context) error {
	if s.busy.Load() == 0 {
		return nil
	}
	select {
	case <-s.idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// connKey is the request context's key of its *servedConn.
type connKey struct{}

func connOf(r *http.Request) *servedConn {
	c, _ := r.Context().Value(connKey{}).(*servedConn)
	return c
}

// admit marks the request's connection as running a turn (or a request
// with no body), which Shutdown waits for, and lifts the read deadline
// (the request is read; a turn may outlast ReadTimeout, and net/http
// cancels the request's context when a read fails). It reports false,
// and marks nothing, when the server is shutting down.
func (s *Server) admit(r *http.Request) bool {
	c := connOf(r)
	if c != nil && c.busy.CompareAndSwap(false, true) {
		s.busy.Add(1)
		_ = c.Conn.SetReadDeadline(time.Time{})
	}
	if s.closing.Load() {
		if c != nil {
			s.release(c)
		}
		return false
	}
	return true
}

// release ends a connection's turn: its answer is written.
func (s *Server) release(c *servedConn) {
	if c.busy.CompareAndSwap(true, false) && s.busy.Add(-1) == 0 && s.closing.Load() {
		s.idleOnce.Do(func() { close(s.idle) })
	}
}

// capListener caps the open connections: up to max are served; at the
// cap, the keep-alive connection idle longest is closed to admit a new
// one, as nginx drains its keep-alive connections when it runs out
// (a client that holds idle connections cannot lock others out); with
// none idle, the next healthReserve answer /healthz and /readyz only;
// any more are answered 503 at once and closed.
type capListener struct {
	net.Listener
	max, reserve int
	mu           sync.Mutex
	served, over int
	conns        map[*servedConn]struct{}
	// idle are the served connections between requests, idle longest
	// first.
	idle   list.List
	closed bool
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		sc := &servedConn{Conn: c, l: l}
		l.mu.Lock()
		var drained *servedConn
		switch {
		case l.closed:
			l.mu.Unlock()
			_ = c.Close()
			continue
		case l.served < l.max:
			l.served++
		case l.idle.Len() > 0:
			// The new connection takes the place of the one idle
			// longest, which is closed below: its count is handed over
			// (closing it does not lower served).
			drained = l.idle.Remove(l.idle.Front()).(*servedConn)
			drained.idleAt = nil
			drained.handedOver = true
		case l.over < l.reserve:
			l.over++
			sc.overflow = true
		default:
			l.mu.Unlock()
			refuse(c)
			continue
		}
		l.conns[sc] = struct{}{}
		l.mu.Unlock()
		if drained != nil {
			_ = drained.Close()
		}
		return sc, nil
	}
}

// setIdle records whether a served connection is idle between requests:
// at the cap, the one idle longest is closed for a new one.
func (l *capListener) setIdle(c *servedConn, idle bool) {
	if c.overflow {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.idleAt != nil {
		l.idle.Remove(c.idleAt)
		c.idleAt = nil
	}
	if idle && !c.handedOver && !l.closed {
		c.idleAt = l.idle.PushBack(c)
	}
}

// closeAll closes every connection, and any accepted later.
func (l *capListener) closeAll() {
	l.mu.Lock()
	l.closed = true
	conns := make([]*servedConn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// refuse answers a connection over the cap and its reserve with a 503,
// without reading its request, and closes it.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write(rawError(http.StatusServiceUnavailable, "too_many_connections", "the server has as many connections open as it takes: retry later, or on another replica"))
	_ = c.Close()
}

// servedConn is one accepted connection.
type servedConn struct {
	net.Conn
	l *capListener
	// overflow: accepted over the cap, for /healthz and /readyz only.
	overflow  bool
	busy      atomic.Bool
	closeOnce sync.Once
	// idleAt is the connection's place in l.idle while it is idle;
	// handedOver, that it was closed to admit a new connection, which
	// took its place in the count. Both under l.mu.
	idleAt     *list.Element
	handedOver bool
}

func (c *servedConn) Close() error {
	// Its place is given back before the socket is closed: a client that
	// sees the close can count on the place being free.
	c.closeOnce.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		if c.idleAt != nil {
			c.l.idle.Remove(c.idleAt)
			c.idleAt = nil
		}
		switch {
		case c.overflow:
			c.l.over--
		case !c.handedOver:
			c.l.served--
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// Write passes the server's writes on, but for the errors net/http writes
// itself before any handler runs (a malformed request line or header, a
// missing Host, headers over MaxHeaderBytes, an unknown transfer
// encoding or HTTP version), in text/plain: those get the JSON error of
// docs/serve.md.
func (c *servedConn) Write(b []byte) (int, error) {
	if len(b) > 0 && b[0] == 'H' {
		if status, detail, ok := netHTTPError(b); ok {
			if _, err := c.Conn.Write(rawError(status, netHTTPCode(status), netHTTPMessage(status, detail))); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	return c.Conn.Write(b)
}

// netHTTPErrorHeaders follow the status line of the responses net/http
// writes itself. Its own responses sort their headers (Connection comes
// before Content-Type) and carry a Date: nothing a handler writes
// starts like this.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// netHTTPError recognises a response net/http wrote itself: its status,
// and the detail of its body ("missing required Host header").
func netHTTPError(b []byte) (status int, detail string, ok bool) {
	rest, found := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !found || len(rest) < 4 {
		return 0, "", false
	}
	line, body, found := bytes.Cut(rest, []byte(netHTTPErrorHeaders))
	if !found || bytes.Contains(line, []byte("\r\n")) {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil {
		return 0, "", false
	}
	_, detail, _ = strings.Cut(string(body), ": ")
	return status, detail, true
}

func netHTTPCode(status int) string {
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		return "headers_too_large"
	case http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return "unsupported"
	}
	return "bad_request"
}

func netHTTPMessage(status int, detail string) string {
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		return "the request's headers are too large"
	case http.StatusNotImplemented:
		return "the request's Transfer-Encoding is not supported: send a Content-Length, or chunked"
	case http.StatusHTTPVersionNotSupported:
		return "the HTTP version is not supported: use HTTP/1.1"
	}
	if detail != "" {
		return "the request is not valid HTTP: " + detail
	}
	return "the request is not valid HTTP: a malformed request line, header, URL or Content-Length"
}

// rawError is a whole HTTP/1.1 response with a JSON error, for a
// connection no handler serves; the connection closes after it.
func rawError(status int, code, message string) []byte {
	var e apiError
	e.Error.Code, e.Error.Message = code, message
	body, _ := json.Marshal(e)
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s\n",
		status, http.StatusText(status), len(body)+1, body)
}
