package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
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
// none with a preflight). It reports whether it answered.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Add("Vary", "Origin")
	origin := r.Header.Get("Origin")
	if origin == "" || !s.allowedOrigin(origin) {
		return false
	}
	h.Set("Access-Control-Allow-Origin", origin)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
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
