package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// CheckOrigin reports whether o can be given as Options.CORSOrigins: "*"
// (any origin), or an origin as a browser sends it, scheme://host[:port]
// with no path.
func CheckOrigin(o string) error {
	if o == "*" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q is not an origin: give scheme://host[:port], like https://app.example.com, or * for any", o)
	}
	return nil
}

// normalOrigin is an origin as browsers serialise it: lower case, no
// trailing slash.
func normalOrigin(o string) string { return strings.ToLower(strings.TrimSuffix(o, "/")) }

// corsHeaders are the request headers a page may send (the ones the API
// reads), and the response headers it may read.
const (
	corsAllowHeaders  = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID"
	corsExposeHeaders = "Retry-After, Soni-Warning, Content-Disposition, WWW-Authenticate"
)

// cors adds the CORS headers for a request from an allowed origin, and
// answers its preflight, before any token is asked for (a browser sends
// none with a preflight). A preflight from any other origin is answered
// 403, naming the origin and --cors-origin, and logged once per origin:
// the page's team sees why the browser blocked it, and the operator what
// to allow. It reports whether it answered.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	preflight := r.Method == http.MethodOptions && origin != "" && r.Header.Get("Access-Control-Request-Method") != ""
	if s.origins == nil && !preflight {
		return false // no CORS unless asked for: not even Vary
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	if origin == "" || !s.allowedOrigin(origin) {
		if preflight {
			s.refusedOrigins.log(s, origin)
			writeError(w, http.StatusForbidden, "origin_not_allowed", originRefusal(origin))
			return true
		}
		return false
	}
	h.Set("Access-Control-Allow-Origin", origin)
	if preflight {
		h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	return false
}

func (s *Server) allowedOrigin(origin string) bool {
	if s.anyOrigin {
		return true
	}
	_, ok := s.origins[normalOrigin(origin)]
	return ok
}

// maxLoggedOrigins bounds the refused origins remembered for logging, so
// that a client sending a new Origin on every request grows no map: past
// it, one line says that further origins go unlogged.
const maxLoggedOrigins = 1024

// refusedOrigins are the origins whose preflight was refused and logged.
type refusedOrigins struct {
	mu   sync.Mutex
	seen map[string]struct{}
	full bool
}

// log logs a refused preflight from origin, once per origin.
func (ro *refusedOrigins) log(s *Server, origin string) {
	if s.opts.Logger == nil {
		return
	}
	o := normalOrigin(origin)
	ro.mu.Lock()
	_, seen := ro.seen[o]
	first := !seen && !ro.full
	last := false
	if first {
		if ro.seen == nil {
			ro.seen = map[string]struct{}{}
		}
		ro.seen[o] = struct{}{}
		ro.full = len(ro.seen) >= maxLoggedOrigins
		last = ro.full
	}
	ro.mu.Unlock()
	if first {
		s.opts.Logger.Warn("cors preflight refused", "origin", origin, "fix", "add --cors-origin "+origin+" to allow pages from it")
	}
	if last {
		s.opts.Logger.Warn("cors preflight refused", "note", fmt.Sprintf("%d origins refused; further ones are not logged", maxLoggedOrigins))
	}
}

// originRefusal says why a page from origin was refused, and the fix.
func originRefusal(origin string) string {
	return fmt.Sprintf("pages from origin %q may not call this server: start soni serve with --cors-origin %s to allow them", origin, origin)
}
