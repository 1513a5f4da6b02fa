package tracing

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
	"github.com/soni-dev/soni/serve"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/vm"
)

// BenchmarkTracedTurn is one turn through the server's handler, wired as
// soni serve wires it, with tracing off (FromEnv's nil) and on (every
// span exported to an OTLP receiver that takes and drops them):
// docs/performance.md has the figures.
func BenchmarkTracedTurn(b *testing.B) {
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer rcv.Close()
	r := compiler.CompileSource("order.yaml", []byte(orderYAML), compiler.Options{})
	if r.Program == nil {
		b.Fatal(r.Diags)
	}
	for _, mode := range []string{"off", "on"} {
		b.Run(mode, func(b *testing.B) {
			var tr *Tracing
			if mode == "on" {
				b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
				var err error
				if tr, err = FromEnv(context.Background()); err != nil || tr == nil {
					b.Fatal(tr, err)
				}
				defer tr.Shutdown(context.Background())
			}
			opts := serve.Options{}
			if tr != nil {
				opts.Turns = tr
			}
			srv := serve.New(nil, opts)
			stock := vm.ActionFunc(func(context.Context, vm.ActionRequest) (map[string]any, error) {
				return map[string]any{"in_stock": true}, nil
			})
			eng, err := soni.New(r.Program, soni.Options{Store: tr.Store(checkpoints.NewMemoryStore()), Understander: tr.Understander(understand.New(r.Program)), Actions: tr.Actions(stock)})
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
		})
	}
}
