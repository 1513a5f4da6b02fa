package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/internal/browsertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func request(t *testing.T, url, method, path string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url+path, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}

// TestCORSHeaders: CORS is opt-in, per origin; a preflight is answered
// before the token is asked for and allows the Authorization header.
func TestCORSHeaders(t *testing.T) {
	const page = "https://app.example.com"
	plain, _ := newShop(t, Options{Token: "tok"}, nil)
	resp := request(t, plain.URL, http.MethodGet, "/healthz", "Origin", page)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "no CORS unless asked for")

	ts, _ := newShop(t, Options{Token: "tok", CORSOrigins: []string{"https://APP.example.com/", "http://localhost:3000"}}, nil)
	resp = request(t, ts.URL, http.MethodOptions, "/v1/sessions/x/messages", "Origin", page,
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
	assert.Equal(t, http.StatusNoContent, resp.StatusCode, "a preflight needs no token")
	assert.Equal(t, page, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Methods"), "POST")
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Headers"), "Authorization")
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Headers"), "Content-Type")
	assert.Contains(t, resp.Header.Values("Vary"), "Origin")

	resp = request(t, ts.URL, http.MethodGet, "/v1/sessions", "Origin", page)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the token is still needed")
	assert.Equal(t, page, resp.Header.Get("Access-Control-Allow-Origin"), "and the page can read why")
	assert.Contains(t, resp.Header.Get("Access-Control-Expose-Headers"), "Retry-After")

	resp = request(t, ts.URL, http.MethodOptions, "/v1/sessions/x/messages", "Origin", "https://evil.example",
		"Access-Control-Request-Method", "POST")
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "another origin is not allowed")
	assert.NotEqual(t, http.StatusNoContent, resp.StatusCode)

	anyOrigin, _ := newShop(t, Options{CORSOrigins: []string{"*"}}, nil)
	resp = request(t, anyOrigin.URL, http.MethodGet, "/healthz", "Origin", "https://evil.example")
	assert.Equal(t, "https://evil.example", resp.Header.Get("Access-Control-Allow-Origin"))
}

// TestCheckOrigin: what --cors-origin takes.
func TestCheckOrigin(t *testing.T) {
	for _, ok := range []string{"*", "https://app.example.com", "http://localhost:3000", "https://app.example.com/"} {
		assert.NoError(t, CheckOrigin(ok), ok)
	}
	for _, bad := range []string{"", "app.example.com", "ftp://x", "https://app.example.com/chat", "https://u@x.com", "https://x.com?a=1", "*.example.com"} {
		err := CheckOrigin(bad)
		if assert.Error(t, err, bad) {
			assert.Contains(t, err.Error(), "is not an origin: give scheme://host[:port]")
		}
	}
}

// corsPage is a page that talks to soni from its own origin, with a
// token, as a web team's chat page would: a JSON request (which needs a
// preflight: it is JSON and carries Authorization) and a stream.
const corsPage = `<!doctype html>
<title>chat</title>
<script>
async function talk(base) {
  try {
    const r = await fetch(base + "/v1/sessions/web/messages", {
      method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": "Bearer tok"},
      body: JSON.stringify({text: "order a pizza"}),
    });
    const j = await r.json();
    const s = await fetch(base + "/v1/sessions/web/messages", {
      method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": "Bearer tok", "Accept": "text/event-stream"},
      body: JSON.stringify({text: "large"}),
    });
    const frames = await s.text();
    return r.status + " " + j.replies[0] + " | " + s.status + " " + (frames.includes("Is it a gift?") ? "streamed" : frames);
  } catch (e) {
    return "blocked: " + e.name;
  }
}
</script>`

// TestCORSInABrowser: a page served from another origin talks to soni
// in a real headless Chromium when its origin is allowed, and the
// browser blocks it when it is not (issue 21 §4).
func TestCORSInABrowser(t *testing.T) {
	ctx := browsertest.New(t)
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, corsPage)
	}))
	t.Cleanup(pages.Close)
	allowed, _ := shopOn(t, Options{Token: "tok", CORSOrigins: []string{pages.URL}}, checkpoints.NewMemoryStore(), stocked)
	other, _ := shopOn(t, Options{Token: "tok", CORSOrigins: []string{"https://somewhere.else"}}, checkpoints.NewMemoryStore(), stocked)
	none, _ := shopOn(t, Options{Token: "tok"}, checkpoints.NewMemoryStore(), stocked)
	require.False(t, strings.HasPrefix(allowed.URL, pages.URL), "two origins")

	_, err := chromedp.Run(ctx, chromedp.Navigate(pages.URL+"/"))
	require.NoError(t, err)
	talk := func(base string) string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`talk("`+base+`")`, chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		return got
	}
	assert.Equal(t, "200 Small or large? | 200 streamed", talk(allowed.URL))
	assert.Equal(t, "blocked: TypeError", talk(other.URL), "an origin not allowed")
	assert.Equal(t, "blocked: TypeError", talk(none.URL), "no CORS unless asked for")
}

// TestRefusedPreflight: a preflight from an origin --cors-origin does
// not allow is answered 403 naming the origin and the flag, and logged
// once per origin (issue 29 §4). Before, it got 404 "no endpoint
// OPTIONS" (401 with a token) and nothing was logged.
func TestRefusedPreflight(t *testing.T) {
	tests := []struct {
		name    string
		origins []string
	}{
		{"another origin allowed", []string{"https://app.example.com"}},
		{"no --cors-origin", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, logger := newLogLines()
			ts, _ := newShop(t, Options{Token: "tok", CORSOrigins: tt.origins, Logger: logger}, nil)
			preflight := func(origin string) (*http.Response, string) {
				req, err := http.NewRequest(http.MethodOptions, ts.URL+"/webhooks/rest/webhook", nil)
				require.NoError(t, err)
				req.Header.Set("Origin", origin)
				req.Header.Set("Access-Control-Request-Method", "POST")
				resp, err := ts.Client().Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				return resp, string(b)
			}
			for _, origin := range []string{"https://evil.example", "https://evil.example", "https://other.example", "https://evil.example"} {
				resp, body := preflight(origin)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode, body)
				assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
				var e apiError
				require.NoError(t, json.Unmarshal([]byte(body), &e), body)
				assert.Equal(t, "origin_not_allowed", e.Error.Code)
				assert.Contains(t, e.Error.Message, `"`+origin+`"`)
				assert.Contains(t, e.Error.Message, "--cors-origin "+origin)
			}
			// Two origins, two lines: the turn's line after them shows
			// that no third came (the log is written in order).
			resp, body := post(t, ts, "/v1/sessions/p/messages", `{"text": "order a pizza"}`, "Authorization", "Bearer tok")
			require.Equal(t, http.StatusOK, resp.StatusCode, body)
			var refused []string
			for m := <-lines; m["msg"] != "turn"; m = <-lines {
				if assert.Equal(t, "cors preflight refused", m["msg"]) {
					assert.Equal(t, "WARN", m["level"])
					assert.Contains(t, m["fix"], "--cors-origin")
					refused = append(refused, m["origin"].(string))
				}
			}
			assert.Equal(t, []string{"https://evil.example", "https://other.example"}, refused)
		})
	}
}
