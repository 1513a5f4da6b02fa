package actions

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/soni-dev/soni/ir"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httpDecl declares an http action.
func httpDecl(url string, outputs ...string) *ir.Action {
	return &ir.Action{Name: "search", Inputs: []string{"city"}, Outputs: outputs, Run: &ir.Run{HTTP: &ir.HTTP{URL: url}}}
}

// closedURL returns the URL of a local port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr + "/search"
}

func TestHTTP(t *testing.T) {
	var gotReq atomic.Value
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotReq.Store(map[string]string{
			"method": r.Method, "content-type": r.Header.Get("Content-Type"),
			"auth": r.Header.Get("Authorization"), "body": string(b),
		})
		_, _ = io.WriteString(w, `{"hotel": "Ritz", "price": 120, "extra": [1.5]}`)
	})
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "database is down", http.StatusInternalServerError)
	})
	// The slow handlers read the request first, so that the server notices
	// when the client hangs up.
	mux.HandleFunc("/slow-headers", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"hotel": `)
		w.(http.Flusher).Flush()
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/garbage", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "<html>hello</html>") })
	mux.HandleFunc("/array", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `["Ritz"]`) })
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"x": "`+strings.Repeat("a", 2<<20)+`"}`)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok", http.StatusPermanentRedirect)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	env := map[string]string{"API_TOKEN": "t0k", "API": srv.URL}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	okOut := map[string]any{"hotel": "Ritz", "price": int64(120), "extra": []any{1.5}}

	tests := []struct {
		name    string
		url     string
		headers map[string]string
		timeout string
		want    map[string]any
		wantErr string
	}{
		{name: "outputs", url: srv.URL + "/ok", want: okOut},
		{name: "url from the environment", url: "${API}/ok", want: okOut},
		{name: "url default", url: "${UNSET_API:-" + srv.URL + "}/ok", want: okOut},
		{name: "url variable set beats default", url: "${API:-http://127.0.0.1:1}/ok", want: okOut},
		{name: "header from the environment", url: srv.URL + "/ok", headers: map[string]string{"Authorization": "Bearer ${API_TOKEN}"}, want: okOut},
		{name: "redirect followed", url: srv.URL + "/moved", want: okOut},
		{name: "500", url: srv.URL + "/500", wantErr: `POST ` + srv.URL + `/500: status 500 Internal Server Error: "database is down"`},
		{name: "404", url: srv.URL + "/nope", wantErr: `POST ` + srv.URL + `/nope: status 404 Not Found: "404 page not found"`},
		{name: "slow headers", url: srv.URL + "/slow-headers", timeout: "200ms", wantErr: `POST ` + srv.URL + `/slow-headers: no answer within 200ms`},
		{name: "slow body", url: srv.URL + "/slow-body", timeout: "200ms", wantErr: `POST ` + srv.URL + `/slow-body: status 200, but the body did not arrive within 200ms`},
		{name: "invalid JSON", url: srv.URL + "/garbage", wantErr: `status 200, but output is not valid JSON: invalid character '<' looking for beginning of value (output starts "<html>hello</html>")`},
		{name: "not an object", url: srv.URL + "/array", wantErr: `status 200, but output is a JSON array, not an object`},
		{name: "empty body", url: srv.URL + "/empty", wantErr: `status 204, but no output: expected one JSON object`},
		{name: "body over 1 MiB", url: srv.URL + "/huge", wantErr: `answer larger than 1 MiB`},
		{name: "redirect loop", url: srv.URL + "/loop", wantErr: `POST ` + srv.URL + `/loop: stopped after 5 redirects (a redirect loop?)`},
		{name: "connection refused", url: closedURL(t), wantErr: `connection failed: dial tcp`},
		{name: "missing variable in url", url: "${NO_SUCH_API}/ok", wantErr: `url of action "search": environment variable "NO_SUCH_API" is not set`},
		{name: "missing variable in header", url: srv.URL + "/ok", headers: map[string]string{"X-Key": "${NO_SUCH_KEY}"}, wantErr: `header "X-Key" of action "search": environment variable "NO_SUCH_KEY" is not set`},
		{name: "not an http url", url: "ftp://example.com/x", wantErr: `url of action "search": "ftp://example.com/x" is not an http or https URL`},
		{name: "invalid timeout", url: srv.URL + "/ok", timeout: "soon", wantErr: `run.http.timeout of action "search": invalid duration "soon"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(nil, t.TempDir(), Options{LookupEnv: lookup})
			decl := httpDecl(tc.url, "hotel", "price", "extra")
			decl.Run.HTTP.Headers = tc.headers
			decl.Run.HTTP.Timeout = tc.timeout
			out, err := r.RunAction(context.Background(), vm.ActionRequest{
				Action: "search", Session: "s-9", Decl: decl,
				Inputs: map[string]any{"city": "Paris", "nights": nil},
			})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.Nil(t, out)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}

	t.Run("request", func(t *testing.T) {
		r := New(nil, "", Options{LookupEnv: lookup})
		decl := httpDecl(srv.URL+"/ok", "hotel", "price", "extra")
		decl.Run.HTTP.Headers = map[string]string{"Authorization": "Bearer ${API_TOKEN}"}
		_, err := r.RunAction(context.Background(), vm.ActionRequest{
			Action: "search", Session: "s-9", Decl: decl,
			Inputs: map[string]any{"city": "Paris", "nights": nil},
		})
		require.NoError(t, err)
		got := gotReq.Load().(map[string]string)
		assert.Equal(t, http.MethodPost, got["method"])
		assert.Equal(t, "application/json", got["content-type"])
		assert.Equal(t, "Bearer t0k", got["auth"])
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(got["body"]), &body))
		assert.Equal(t, map[string]any{
			"action": "search", "session": "s-9",
			"inputs": map[string]any{"city": "Paris", "nights": nil},
		}, body)
	})
}

func TestHTTPRetry(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int // the answers, in order; the last one repeats
		attempts int
		backoff  string
		wantHits int32
		wantErr  string
	}{
		{name: "recovers after two 503s", statuses: []int{503, 503, 200}, attempts: 3, backoff: "10ms", wantHits: 3},
		{name: "gives up", statuses: []int{500}, attempts: 3, backoff: "1ms", wantHits: 3, wantErr: `failed 3 times: attempt 1: status 500 Internal Server Error: "try later"; attempt 2: status 500 Internal Server Error: "try later"; attempt 3: status 500 Internal Server Error: "try later"`},
		{name: "no retry on 404", statuses: []int{404}, attempts: 3, wantHits: 1, wantErr: `status 404 Not Found`},
		{name: "no retry without a policy", statuses: []int{503, 200}, attempts: 0, wantHits: 1, wantErr: `status 503 Service Unavailable`},
		{name: "backoff as seconds", statuses: []int{502, 200}, attempts: 2, backoff: "0.01", wantHits: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(hits.Add(1))
				st := tc.statuses[min(n, len(tc.statuses))-1]
				if st != 200 {
					http.Error(w, "try later", st)
					return
				}
				_, _ = io.WriteString(w, `{"hotel": "Ritz"}`)
			}))
			defer srv.Close()
			decl := httpDecl(srv.URL, "hotel")
			if tc.attempts > 0 {
				decl.Run.HTTP.Retry = &ir.Retry{Attempts: tc.attempts, Backoff: tc.backoff}
			}
			out, err := New(nil, "", Options{}).RunAction(context.Background(), vm.ActionRequest{Action: "search", Decl: decl})
			assert.Equal(t, tc.wantHits, hits.Load())
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"hotel": "Ritz"}, out)
		})
	}
}

func TestHTTPRetryConnectionRefused(t *testing.T) {
	decl := httpDecl(closedURL(t))
	decl.Run.HTTP.Retry = &ir.Retry{Attempts: 2, Backoff: "5ms"}
	_, err := New(nil, "", Options{}).RunAction(context.Background(), vm.ActionRequest{Action: "search", Decl: decl})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "failed 2 times: attempt 1: connection failed: dial tcp")
	assert.Contains(t, err.Error(), "attempt 2: connection failed: dial tcp")
}

func TestHTTPRetryRespectsContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	decl := httpDecl(srv.URL)
	decl.Run.HTTP.Retry = &ir.Retry{Attempts: 5, Backoff: "10s"}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := New(nil, "", Options{}).RunAction(ctx, vm.ActionRequest{Action: "search", Decl: decl})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "failed 1 times: attempt 1: status 503 Service Unavailable")
	assert.Contains(t, err.Error(), "gave up waiting to retry: context deadline exceeded")
}

func TestExpandEnv(t *testing.T) {
	env := map[string]string{"HOST": "api.example.com", "EMPTY": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "http://x/y", want: "http://x/y"},
		{in: "https://${HOST}/v1", want: "https://api.example.com/v1"},
		{in: "${HOST}${HOST}", want: "api.example.comapi.example.com"},
		{in: "${MISSING:-http://127.0.0.1:5055}/a", want: "http://127.0.0.1:5055/a"},
		{in: "${EMPTY:-d}", want: "d"},
		{in: "${EMPTY}", want: ""},
		{in: "${HOST:-d}", want: "api.example.com"},
		{in: "cost $5 and $HOST", want: "cost $5 and $HOST"},
		{in: "${MISSING}", wantErr: `environment variable "MISSING" is not set`},
		{in: "${HOST", wantErr: `unclosed ${ in "${HOST"`},
		{in: "${1A}", wantErr: `invalid environment variable reference "${1A}"`},
		{in: "${}", wantErr: `invalid environment variable reference "${}"`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := expandEnv(tc.in, lookup)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
