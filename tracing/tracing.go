// Package tracing emits OpenTelemetry traces of soni's turns: a span for
// each turn, its store transaction, each action call and each model call,
// with the session, flow and step as attributes, exported over OTLP/HTTP
// as the standard OTEL_* environment variables say (docs/serve.md,
// "Traces").
//
// Tracing plugs in as decorators of the interfaces a turn goes through
// (checkpoints.Store, vm.ActionRunner, vm.Understander, the model's
// http.RoundTripper) and as serve's TurnObserver: nothing in vm, the
// engine or the stores knows of it. It is off unless the environment
// asks for it; then [FromEnv] returns nil, and the methods of a nil
// *Tracing return what they are given, so a turn runs exactly the code it
// runs without this package.
package tracing

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/checkpoints"
	"github.com/soni-dev/soni/vm"
)

// The span attributes soni sets, beside OpenTelemetry's own (the HTTP
// ones of a model call).
const (
	AttrSession   = attribute.Key("soni.session")
	AttrFlow      = attribute.Key("soni.flow")
	AttrStep      = attribute.Key("soni.step")
	AttrMessageID = attribute.Key("soni.message_id")
	AttrOutcome   = attribute.Key("soni.outcome")
	AttrRevision  = attribute.Key("soni.revision")
	AttrAction    = attribute.Key("soni.action")
	AttrLayer     = attribute.Key("soni.understanding.layer")
)

// scope is the instrumentation scope of soni's spans.
const scope = "github.com/soni-dev/soni/tracing"

// Tracing makes the spans of turns and sends them to an OTLP endpoint.
// A nil *Tracing is tracing off: every method returns what it is given.
type Tracing struct {
	tp     *sdktrace.TracerProvider
	tracer trace.Tracer
}

// FromEnv sets tracing up from the OTEL_* environment variables, or
// returns nil (off) when they do not ask for traces. Tracing is on when
// OTEL_TRACES_EXPORTER is "otlp", or unset with an OTLP endpoint given
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); it
// is off when OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is
// "none". The exporter speaks OTLP over HTTP with protobuf
// (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf, port 4318), and reads the
// endpoint, headers, certificates, compression and timeout from the
// environment; the SDK reads the sampler (OTEL_TRACES_SAMPLER), the
// batching (OTEL_BSP_*) and the resource (OTEL_SERVICE_NAME, default
// "soni", and OTEL_RESOURCE_ATTRIBUTES). A setting soni cannot honour is
// an error that names it.
func FromEnv(ctx context.Context) (*Tracing, error) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return nil, nil
	}
	switch exp := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return nil, nil
	case "":
		if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
			return nil, nil
		}
	case "otlp":
	default:
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q is not supported: soni exports traces over OTLP; use otlp (or none)", exp)
	}
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(os.Getenv(name)); p != "" {
			if p != "http/protobuf" {
				return nil, fmt.Errorf("%s=%q is not supported: soni exports traces over OTLP/HTTP with protobuf; set it to http/protobuf and point OTEL_EXPORTER_OTLP_ENDPOINT at the collector's HTTP port (4318)", name, p)
			}
			break
		}
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("the OTLP trace exporter could not be set up from OTEL_EXPORTER_OTLP_*: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "soni")),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	)
	if err != nil {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME is not valid: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{tp: tp, tracer: tp.Tracer(scope)}, nil
}

// Shutdown sends the spans not yet sent and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.tp.Shutdown(ctx)
}

// ForceFlush sends the spans ended so far, and returns once the endpoint
// has taken them (or ctx ends).
func (t *Tracing) ForceFlush(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.tp.ForceFlush(ctx)
}

// where is what a span in a turn knows of its place: the session, and the
// flow and step the turn is at. The turn's span puts it in the context;
// the understanding's span adds the flow and step its question is at.
type where struct {
	session, flow, step string
}

type whereKey struct{}

func whereOf(ctx context.Context) where {
	w, _ := ctx.Value(whereKey{}).(where)
	return w
}

func (w where) attrs() []attribute.KeyValue {
	out := make([]attribute.KeyValue, 0, 3)
	if w.session != "" {
		out = append(out, AttrSession.String(w.session))
	}
	if w.flow != "" {
		out = append(out, AttrFlow.String(w.flow))
	}
	if w.step != "" {
		out = append(out, AttrStep.String(w.step))
	}
	return out
}

// fail marks a span as failed with err.
func fail(span trace.Span, err error) {
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}

// StartTurn starts the span of one turn of the session ("soni.turn"); the
// function it returns ends it with the turn's reply (nil when the turn
// failed), its outcome (ok, duplicate, or the error code) and its error.
// It makes *Tracing a serve.TurnObserver.
func (t *Tracing) StartTurn(ctx context.Context, session, messageID string) (context.Context, func(rep *soni.Reply, outcome string, err error)) {
	if t == nil {
		return ctx, func(*soni.Reply, string, error) {}
	}
	attrs := []attribute.KeyValue{AttrSession.String(session)}
	if messageID != "" {
		attrs = append(attrs, AttrMessageID.String(messageID))
	}
	ctx, span := t.tracer.Start(ctx, "soni.turn", trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	ctx = context.WithValue(ctx, whereKey{}, where{session: session})
	return ctx, func(rep *soni.Reply, outcome string, err error) {
		span.SetAttributes(AttrOutcome.String(outcome))
		if rep != nil {
			flow, step := turnPlace(rep)
			span.SetAttributes(AttrRevision.Int64(int64(rep.Revision)))
			if flow != "" {
				span.SetAttributes(AttrFlow.String(flow), AttrStep.String(step))
			}
		}
		if err != nil {
			fail(span, err)
		}
		span.End()
	}
}

// turnPlace is where a turn left its conversation: the question it asks,
// else the flow on top of the stack and its step, else the flow and step
// of its last event (a flow that ended).
func turnPlace(rep *soni.Reply) (flow, step string) {
	if rep.Result == nil {
		return "", ""
	}
	if p := rep.Pending; p != nil {
		return p.Flow, p.Step
	}
	if st := rep.State; st != nil && len(st.Stack) > 0 {
		top := st.Stack[len(st.Stack)-1]
		return top.Flow, top.Step
	}
	for i := len(rep.Events) - 1; i >= 0; i-- {
		if e := rep.Events[i]; e.Flow != "" {
			return e.Flow, e.Step
		}
	}
	return "", ""
}

// Store wraps a store so that each turn's transaction, from Begin (the
// session's lock and its checkpoint) to Close, is a span
// ("soni.store.transaction"), and its commit a span within it
// ("soni.store.commit"). The other operations pass through untraced.
func (t *Tracing) Store(s checkpoints.Store) checkpoints.Store {
	if t == nil {
		return s
	}
	return &tracedStore{Store: s, t: t}
}

type tracedStore struct {
	checkpoints.Store
	t *Tracing
}

func (s *tracedStore) Begin(ctx context.Context, id string) (checkpoints.Tx, error) {
	w := whereOf(ctx)
	w.session = id
	ctx, span := s.t.tracer.Start(ctx, "soni.store.transaction", trace.WithAttributes(w.attrs()...))
	tx, err := s.Store.Begin(ctx, id)
	if err != nil {
		fail(span, err)
		span.End()
		return nil, err
	}
	_, rev := tx.Checkpoint()
	span.SetAttributes(AttrRevision.Int64(int64(rev)))
	return &tracedTx{Tx: tx, t: s.t, span: span, where: w}, nil
}

type tracedTx struct {
	checkpoints.Tx
	t     *Tracing
	span  trace.Span
	where where
}

func (x *tracedTx) Commit(ctx context.Context, rec checkpoints.Record, data []byte) error {
	ctx = trace.ContextWithSpan(ctx, x.span)
	_, span := x.t.tracer.Start(ctx, "soni.store.commit", trace.WithAttributes(append(x.where.attrs(), AttrRevision.Int64(int64(rec.Revision)))...))
	err := x.Tx.Commit(ctx, rec, data)
	if err != nil {
		fail(span, err)
		fail(x.span, err)
	}
	span.End()
	return err
}

func (x *tracedTx) Close() {
	x.Tx.Close()
	x.span.End() // a second Close ends nothing more: an ended span ignores it
}

// Actions wraps an action runner so that each call is a span
// ("soni.action", a client span) naming the action, the session, and the
// flow and step that call it; a failed call is an error span.
func (t *Tracing) Actions(r vm.ActionRunner) vm.ActionRunner {
	if t == nil {
		return r
	}
	return vm.ActionFunc(func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		ctx, span := t.tracer.Start(ctx, "soni.action", trace.WithSpanKind(trace.SpanKindClient),
			trace.WithAttributes(AttrAction.String(req.Action), AttrSession.String(req.Session)))
		defer span.End()
		if span.IsRecording() && req.Conversation != nil {
			// Computed only for a span that is kept.
			c := req.Conversation()
			span.SetAttributes(AttrFlow.String(c.Flow), AttrStep.String(c.Step))
			ctx = context.WithValue(ctx, whereKey{}, where{session: req.Session, flow: c.Flow, step: c.Step})
		}
		out, err := r.RunAction(ctx, req)
		if err != nil {
			fail(span, err)
		}
		return out, err
	})
}

// Understander wraps an understanding layer so that reading a message is
// a span ("soni.understand") with the session, the flow and step of the
// question pending (else the flow on top of the stack), and the layer
// that answered; the model calls it makes (through a client from
// [Tracing.Client]) are spans within it.
func (t *Tracing) Understander(u vm.Understander) vm.Understander {
	if t == nil {
		return u
	}
	return &tracedUnderstander{u: u, t: t}
}

type tracedUnderstander struct {
	u vm.Understander
	t *Tracing
}

func (tu *tracedUnderstander) Understand(ctx context.Context, msg string, v vm.View) ([]vm.Command, error) {
	w := whereOf(ctx)
	switch {
	case v.Pending != nil:
		w.flow, w.step = v.Pending.Flow, v.Pending.Step
	case len(v.Stack) > 0:
		w.flow, w.step = v.Stack[len(v.Stack)-1], ""
	}
	ctx, span := tu.t.tracer.Start(ctx, "soni.understand", trace.WithAttributes(w.attrs()...))
	defer span.End()
	ctx = context.WithValue(ctx, whereKey{}, w)
	answered := v.Answered
	v.Answered = func(u vm.Understanding) {
		span.SetAttributes(AttrLayer.String(u.Layer))
		if answered != nil {
			answered(u)
		}
	}
	cmds, err := tu.u.Understand(ctx, msg, v)
	if err != nil {
		fail(span, err)
	}
	return cmds, err
}

// Client returns an HTTP client for the model's requests whose every
// request is a span ("soni.model", a client span) with the session, flow
// and step of the message it reads, and the request's method, host and
// answer status; base is the client to wrap (nil: a new one).
func (t *Tracing) Client(base *http.Client) *http.Client {
	if t == nil {
		return base
	}
	c := &http.Client{}
	if base != nil {
		*c = *base
	}
	rt := c.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	c.Transport = &tracedTransport{rt: rt, t: t}
	return c
}

type tracedTransport struct {
	rt http.RoundTripper
	t  *Tracing
}

func (tt *tracedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	attrs := append(whereOf(ctx).attrs(),
		attribute.String("http.request.method", r.Method),
		attribute.String("server.address", r.URL.Hostname()),
		attribute.String("url.path", r.URL.Path),
	)
	_, span := tt.t.tracer.Start(ctx, "soni.model", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	resp, err := tt.rt.RoundTrip(r)
	if err != nil {
		fail(span, err)
		span.End()
		return nil, err
	}
	span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetStatus(codes.Error, resp.Status)
	}
	// The call lasts until its answer is read.
	resp.Body = &spanBody{ReadCloser: resp.Body, span: span}
	return resp, nil
}

// spanBody ends its span when the answer's body is closed.
type spanBody struct {
	io.ReadCloser
	span trace.Span
}

func (b *spanBody) Close() error {
	err := b.ReadCloser.Close()
	b.span.End()
	return err
}
