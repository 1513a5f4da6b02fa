package serve

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
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
