package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
)

// BenchmarkServedTurn is one turn through the server's handler, decoding
// included, on a memory store: a new session's "order a pizza", which
// starts a flow and asks a question. docs/performance.md compares it
// before and after the turn observer (issue 29 §3).
func BenchmarkServedTurn(b *testing.B) {
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	srv := New(nil, Options{})
	eng, err := soni.New(r.Program, soni.Options{Store: checkpoints.NewMemoryStore()})
	if err != nil {
		b.Fatal(err)
	}
	srv.SetEngine(eng)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req := httptest.NewRequest(http.MethodPost, "/v1/sessions/b"+strconv.Itoa(i)+"/messages", strings.NewReader(`{"text": "order a pizza"}`))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

// servedConversation is the shop's order, turn by turn, with a word each
// reply must contain.
var servedConversation = []struct{ text, reply string }{
	{"order a pizza", "Small or large?"},
	{"large", "Is it a gift?"},
	{"no", "A large pizza?"},
	{"yes", "Ordered."},
}

// BenchmarkServedTurnFileStore is one turn of a served conversation on
// the file store with fsync on, as soni serve --store file:DIR runs it:
// the HTTP handler, the store behind the server's metrics, the session's
// lock, the checkpoint read and its atomic replacement, the log record.
// The turns cycle through the shop's four-turn order (a new session, two
// answers, the action and the confirmation), so most turns continue a
// session saved on disk. docs/performance.md has it before and after
// issue 28.
func BenchmarkServedTurnFileStore(b *testing.B) {
	r := compiler.CompileSource("shop.yaml", []byte(shopYAML), compiler.Options{})
	if r.Program == nil {
		b.Fatal(r.Diags)
	}
	store, err := checkpoints.NewFileStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	srv := New(nil, Options{})
	eng, err := soni.New(r.Program, soni.Options{Store: srv.Metrics().Store(store)})
	if err != nil {
		b.Fatal(err)
	}
	eng.Register("check_stock", func(context.Context, vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"in_stock": true}, nil
	})
	srv.SetEngine(eng)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		turn := servedConversation[i%len(servedConversation)]
		req := httptest.NewRequest(http.MethodPost, "/v1/sessions/f"+strconv.Itoa(i/len(servedConversation))+"/messages", strings.NewReader(`{"text": "`+turn.text+`"}`))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), turn.reply) {
			b.Fatalf("%q: %d %s, want a reply with %q", turn.text, w.Code, w.Body, turn.reply)
		}
	}
}
