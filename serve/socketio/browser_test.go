package socketio

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/internal/browsertest"
	"github.com/soni-dev/soni/serve"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// webchatBundle finds rasa-webchat's browser bundle (lib/index.js) in the
// package .ci/run installs from npm, named by SONI_RASA_WEBCHAT (the
// package's directory). Without it the test skips on a laptop and fails
// in CI.
func webchatBundle(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SONI_RASA_WEBCHAT")
	if dir != "" {
		p := filepath.Join(dir, "lib", "index.js")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		t.Fatalf("SONI_RASA_WEBCHAT=%q holds no lib/index.js: install it with npm install rasa-webchat@1.0.1 and name its node_modules/rasa-webchat", dir)
	}
	if os.Getenv("CI") != "" {
		t.Fatal("SONI_RASA_WEBCHAT is not set: .ci/run installs rasa-webchat from npm and sets it")
	}
	t.Skip("rasa-webchat is not installed: npm install --prefix DIR rasa-webchat@1.0.1 and set SONI_RASA_WEBCHAT=DIR/node_modules/rasa-webchat")
	return ""
}

// webchatPage embeds rasa-webchat as a team embeds it with Rasa,
// pointed at soni's socket.io channel on another origin. The bot's
// messages show at once (customMessageDelay), so that no step waits on
// the widget's typing animation.
const webchatPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>bank</title></head>
<body><div id="webchat"></div>
<script src="/webchat.js"></script>
<script>
WebChat.default({
  socketUrl: %q, socketPath: "/socket.io/",
  embedded: true, withRules: false, title: "Bank",
  initPayload: "I want to send money",
  customMessageDelay: function () { return 0; },
  params: {storage: "session"}
}, document.getElementById("webchat"));
</script></body></html>`

// TestRasaWebchatTransfer: Rasa's own web widget, rasa-webchat from npm,
// in a headless Chromium, talks to soni's socket.io channel from another
// origin and runs a whole banking transfer: typed answers, the account
// and the confirmation by clicking their buttons, and the bank's answer
// (issue 30 §3).
func TestRasaWebchatTransfer(t *testing.T) {
	bundle := webchatBundle(t)
	ctx := browsertest.New(t)

	pages := httptest.NewServer(nil)
	t.Cleanup(pages.Close)
	srv := serve.New(nil, serve.Options{CORSOrigins: []string{pages.URL}})
	eng, err := soni.Load(filepath.Join("..", "..", "flows", "banking"), soni.Options{Store: checkpoints.NewMemoryStore()})
	require.NoError(t, err)
	var mu sync.Mutex
	var sent []map[string]any
	eng.Register("get_balance", func(context.Context, vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"balance": 12450.75, "currency": "EUR"}, nil
	})
	eng.Register("make_transfer", func(_ context.Context, req vm.ActionRequest) (map[string]any, error) {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, req.Inputs)
		return map[string]any{"reference": "TR-20931"}, nil
	})
	srv.SetEngine(eng)
	ch := Mount(srv)
	bot := httptest.NewServer(srv)
	t.Cleanup(func() { ch.Close(); bot.Close() })
	pages.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/webchat.js" {
			http.ServeFile(w, r, bundle)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, webchatPage, bot.URL)
	})
	require.False(t, strings.HasPrefix(bot.URL, pages.URL), "two origins")

	// A bot message, as the widget shows it.
	said := func(text string) chromedp.Action[chromedp.Void] {
		return chromedp.WaitVisible(chromedp.Search(fmt.Sprintf(`//*[contains(@class, "rw-response")][contains(., %q)]`, text)))
	}
	answer := func(text string) chromedp.Action[chromedp.Void] {
		return chromedp.SendKeys(chromedp.CSS(`.rw-new-message`), text+kb.Enter)
	}
	click := func(title string) chromedp.Action[chromedp.Void] {
		return chromedp.Click(chromedp.Search(fmt.Sprintf(`//*[contains(@class, "rw-reply")][normalize-space(.) = %q]`, title)), chromedp.NodeVisible)
	}
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(pages.URL+"/"),
		said("Who should receive the money?"),
		answer("Ana"),
		said("How much?"),
		answer("50 euros"),
		said("Which account should the money come from: checking or savings?"),
		click("checking"),
		said("Send 50 from your checking account to Ana?"),
		click("Yes"),
		said("Done! I've sent 50 to Ana. The reference is TR-20931."),
	))

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, sent, 1, "one transfer made")
	assert.Equal(t, "Ana", sent[0]["recipient"])
	assert.EqualValues(t, 50, sent[0]["amount"])
	assert.Equal(t, "checking", sent[0]["account_type"])
}
