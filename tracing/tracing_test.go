package tracing

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/serve"
	"github.com/soni-dev/soni/understand"
	"github.com/soni-dev/soni/understand/llm"
	"github.com/soni-dev/soni/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

const orderYAML = `version: "1.0"
slots:
  size:
    type: categorical
    values: [small, large]
actions:
  check_stock:
    outputs: [in_stock]
flows:
  order:
    description: order a pizza
    trigger:
      intents: ["order a pizza"]
    slots:
      - {name: in_stock, type: boolean}
    steps:
      - {step: ask_size, type: collect, slot: size, message: "Small or large?"}
      - {step: stock, type: action, call: check_stock, map_outputs: {in_stock: in_stock}}
      - {step: done, type: say, message: "Ordered."}
`

// span is a span as the receiver got it, with its resource's service.
type span struct {
	*tracepb.Span
	service string
}

func (s span) attr(key string) any {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return value(kv.Value)
		}
	}
	return nil
}

func value(v *commonpb.AnyValue) any {
	switch x := v.Value.(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	}
	return v.String()
}

// receiver is an OTLP/HTTP trace receiver: it decodes each export
// request as a collector does (protobuf, gzip or not) and answers with
// the protocol's response.
func receiver(t *testing.T) (*httptest.Server, chan span) {
	t.Helper()
	spans := make(chan span, 1000)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("the exporter sent %s %s (%s), not an OTLP/HTTP protobuf export", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
			http.Error(w, "not OTLP", http.StatusBadRequest)
			return
		}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		}
		b, err := io.ReadAll(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			t.Errorf("the export is not an ExportTraceServiceRequest: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range req.ResourceSpans {
			service := ""
			for _, kv := range rs.GetResource().GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					spans <- span{Span: sp, service: service}
				}
			}
		}
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(ts.Close)
	return ts, spans
}

// fakeModel answers chat completions: "the little one" sets the size,
// any other message starts the order flow.
func fakeModel(t *testing.T) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		answer := "start flow order"
		if bytes.Contains(b, []byte("the little one")) {
			answer = "set slot size small"
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, answer)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// served is a server on the order flows, with each interface a turn goes
// through wrapped by tr, as soni serve wraps them.
func served(t testing.TB, tr *Tracing, u vm.Understander, stock vm.ActionFunc) *httptest.Server {
	t.Helper()
	r := compiler.CompileSource("order.yaml", []byte(orderYAML), compiler.Options{})
	require.NotNil(t, r.Program, "%v", r.Diags)
	if u == nil {
		u = understand.New(r.Program)
	}
	opts := serve.Options{}
	if tr != nil {
		opts.Turns = tr
	}
	srv := serve.New(nil, opts)
	eng, err := soni.New(r.Program, soni.Options{Store: tr.Store(checkpoints.NewMemoryStore()), Understander: tr.Understander(u), Actions: tr.Actions(stock)})
	require.NoError(t, err)
	srv.SetEngine(eng)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

func say(t testing.TB, ts *httptest.Server, session, text string) string {
	t.Helper()
	resp, err := http.Post(ts.URL+"/v1/sessions/"+session+"/messages", "application/json", strings.NewReader(`{"text": "`+text+`"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	return string(b)
}

// TestTracesReachAReceiver: with OTEL_EXPORTER_OTLP_ENDPOINT set, each
// turn, its store transaction and commit, its understanding, each model
// call and each action call reach a real OTLP/HTTP receiver as spans of
// one trace per turn, nested as they ran, with the session, flow and step
// (issue 29 §3).
func TestTracesReachAReceiver(t *testing.T) {
	rcv, spans := receiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	for _, v := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_SERVICE_NAME", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_SAMPLER"} {
		t.Setenv(v, "")
	}
	tr, err := FromEnv(context.Background())
	require.NoError(t, err)
	require.NotNil(t, tr, "an OTLP endpoint turns tracing on")
	t.Cleanup(func() { _ = tr.Shutdown(context.Background()) })

	model, err := llm.New(llm.Config{BaseURL: fakeModel(t).URL + "/v1", Model: "m", Client: tr.Client(nil)})
	require.NoError(t, err)
	ts := served(t, tr, model, func(context.Context, vm.ActionRequest) (map[string]any, error) {
		return map[string]any{"in_stock": true}, nil
	})
	assert.Contains(t, say(t, ts, "s1", "I'm hungry"), "Small or large?")
	assert.Contains(t, say(t, ts, "s1", "the little one"), "Ordered.")
	require.NoError(t, tr.ForceFlush(context.Background()))

	// ForceFlush returns once the receiver answered: every span is in.
	var got []span
	for len(spans) > 0 {
		got = append(got, <-spans)
	}
	byName := map[string][]span{}
	for _, s := range got {
		byName[s.Name] = append(byName[s.Name], s)
		assert.Equal(t, "soni", s.service)
		assert.Equal(t, "s1", s.attr("soni.session"), "%s has the session", s.Name)
	}
	for name, n := range map[string]int{"soni.turn": 2, "soni.store.transaction": 2, "soni.store.commit": 2, "soni.understand": 2, "soni.model": 2, "soni.action": 1} {
		require.Len(t, byName[name], n, name)
	}
	// The second turn: its spans are one trace, nested as they ran.
	turn := byName["soni.turn"][1]
	assert.Equal(t, tracepb.Span_SPAN_KIND_SERVER, turn.Kind)
	assert.Equal(t, "ok", turn.attr("soni.outcome"))
	assert.Equal(t, int64(2), turn.attr("soni.revision"))
	// A turn's flow and step: the question it left pending.
	assert.Equal(t, "order", byName["soni.turn"][0].attr("soni.flow"))
	assert.Equal(t, "ask_size", byName["soni.turn"][0].attr("soni.step"))
	child := func(name string, i int, parent span) span {
		s := byName[name][i]
		assert.Equal(t, parent.TraceId, s.TraceId, "%s is in its turn's trace", name)
		assert.Equal(t, parent.SpanId, s.ParentSpanId, "%s is a child of %s", name, parent.Name)
		return s
	}
	txn := child("soni.store.transaction", 1, turn)
	assert.Equal(t, int64(1), txn.attr("soni.revision"), "the revision it loaded")
	commit := child("soni.store.commit", 1, txn)
	assert.Equal(t, int64(2), commit.attr("soni.revision"))
	und := child("soni.understand", 1, turn)
	assert.Equal(t, "order", und.attr("soni.flow"))
	assert.Equal(t, "ask_size", und.attr("soni.step"))
	assert.Equal(t, "llm", und.attr("soni.understanding.layer"))
	mc := child("soni.model", 1, und)
	assert.Equal(t, tracepb.Span_SPAN_KIND_CLIENT, mc.Kind)
	assert.Equal(t, "order", mc.attr("soni.flow"))
	assert.Equal(t, "ask_size", mc.attr("soni.step"))
	assert.Equal(t, int64(200), mc.attr("http.response.status_code"))
	act := child("soni.action", 0, turn)
	assert.Equal(t, "check_stock", act.attr("soni.action"))
	assert.Equal(t, "order", act.attr("soni.flow"))
	assert.Equal(t, "stock", act.attr("soni.step"))
	assert.Equal(t, tracepb.Status_STATUS_CODE_UNSET, act.Status.GetCode())

	// The first turn's model call, before any flow runs, has the session
	// alone.
	first := byName["soni.model"][0]
	assert.Nil(t, first.attr("soni.flow"))
	assert.NotEqual(t, turn.TraceId, first.TraceId, "one trace per turn")
}

// TestFailuresAreErrorSpans: a failing action and a model that answers
// 500 are error spans, with the reason.
func TestFailuresAreErrorSpans(t *testing.T) {
	rcv, spans := receiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	tr, err := FromEnv(context.Background())
	require.NoError(t, err)
	require.NotNil(t, tr)
	t.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "overloaded", http.StatusInternalServerError)
	}))
	t.Cleanup(down.Close)
	r := compiler.CompileSource("order.yaml", []byte(orderYAML), compiler.Options{})
	model, err := llm.New(llm.Config{BaseURL: down.URL, Model: "m", Client: tr.Client(nil)})
	require.NoError(t, err)
	ts := served(t, tr, &llm.Hybrid{Rules: understand.New(r.Program), Model: model}, func(context.Context, vm.ActionRequest) (map[string]any, error) {
		return nil, errors.New("the oven is unreachable")
	})
	// A message no rule reads: the rules are not sure, and the model is
	// asked (a size in more words is sure since issue 27, and skips it).
	say(t, ts, "s2", "blorp")
	say(t, ts, "s2", "order a pizza")
	say(t, ts, "s2", "something small, thanks")
	require.NoError(t, tr.ForceFlush(context.Background()))
	var models, actions []span
	for len(spans) > 0 {
		s := <-spans
		switch s.Name {
		case "soni.model":
			models = append(models, s)
		case "soni.action":
			actions = append(actions, s)
		}
	}
	require.NotEmpty(t, models, "the rules were not sure: the model was asked")
	for _, m := range models {
		assert.Equal(t, tracepb.Status_STATUS_CODE_ERROR, m.Status.GetCode())
		assert.Equal(t, int64(500), m.attr("http.response.status_code"))
	}
	require.Len(t, actions, 1)
	assert.Equal(t, tracepb.Status_STATUS_CODE_ERROR, actions[0].Status.GetCode())
	assert.Contains(t, actions[0].Status.GetMessage(), "the oven is unreachable")
}

// TestOffUnlessAsked: tracing is off by default and when the environment
// says so, and then wraps nothing; a setting soni cannot honour is an
// error naming it.
func TestOffUnlessAsked(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		on   bool
		err  string
	}{
		{"nothing set", nil, false, ""},
		{"an endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true, ""},
		{"a traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true, ""},
		{"otlp asked for", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true, ""},
		{"SDK disabled", map[string]string{"OTEL_SDK_DISABLED": "TRUE", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false, ""},
		{"exporter none", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false, ""},
		{"another exporter", map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, false, `OTEL_TRACES_EXPORTER="zipkin" is not supported`},
		{"gRPC", map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, false, `OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported: soni exports traces over OTLP/HTTP with protobuf`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"} {
				t.Setenv(v, tt.env[v])
			}
			tr, err := FromEnv(context.Background())
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.on, tr != nil)
			if tr != nil {
				require.NoError(t, tr.Shutdown(context.Background()))
			}
		})
	}

	// Off, nothing is wrapped: a turn runs the code it runs without
	// tracing.
	var off *Tracing
	store := checkpoints.NewMemoryStore()
	assert.Same(t, store, off.Store(store).(*checkpoints.MemoryStore))
	r := compiler.CompileSource("order.yaml", []byte(orderYAML), compiler.Options{})
	u := understand.New(r.Program)
	assert.Same(t, u, off.Understander(u).(*understand.Rules))
	assert.Nil(t, off.Client(nil))
	ctx := context.Background()
	got, end := off.StartTurn(ctx, "s", "")
	assert.Equal(t, ctx, got)
	end(nil, "ok", nil)
	assert.NoError(t, off.ForceFlush(ctx))
	assert.NoError(t, off.Shutdown(ctx))
}
