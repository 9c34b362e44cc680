// Package tracing is the server's OpenTelemetry tracing: the tracer provider
// (OTLP over HTTP to HMDP_OTLP_ENDPOINT, off when it is empty), W3C trace
// context propagation, and the instrumentation of each layer a request
// crosses: the HTTP edge (HTTP), the GraphQL operation and the resolvers that
// do I/O (GraphQL), Redis commands and pipelines (RedisHook) and SQL
// statements (SQL). internal/seckill carries a flash-sale order's trace
// across its stream with Traceparent and Link.
//
// A nil *Tracing is tracing switched off: every method is then a no-op that
// allocates nothing, and the wiring installs none of the hooks, so a server
// without an endpoint pays nothing per request (TestOffCostsNothing).
package tracing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope of every span the server makes.
const ScopeName = "github.com/hmdp/hmdp"

// Config is what New builds the provider from (HMDP_OTLP_ENDPOINT,
// HMDP_TRACE_SAMPLE, HMDP_TRACE_SERVICE).
type Config struct {
	// Endpoint is the OTLP/HTTP collector's base URL (http://host:4318);
	// spans go to its /v1/traces unless the URL names a path. Empty: off.
	Endpoint string
	// Sample is the fraction of new traces recorded (0..1); a trace begun by
	// a trusted proxy keeps the proxy's decision.
	Sample float64
	// Service is the service.name of the spans.
	Service string
	// Log receives the exporter's failures (a collector down: the spans
	// are dropped, requests are not slowed); nil: slog.Default().
	Log *slog.Logger
}

// Tracing is one server's tracer provider; nil is off.
type Tracing struct {
	tracer trace.Tracer
	// shutdown flushes and stops the provider New made (nil for one given
	// to Use: its owner shuts it down).
	shutdown func(context.Context) error
	// flush sends the ended spans still batched (nil: nothing batches).
	flush func(context.Context) error
}

// propagator reads and writes W3C traceparent/tracestate headers and stream
// fields. Baggage is not propagated: nothing here reads it, and a client
// could fill it.
var propagator = propagation.TraceContext{}

// New starts the provider of c: spans are batched and sent to c.Endpoint in
// the background. It returns nil (off) when c.Endpoint is empty.
func New(ctx context.Context, c Config) (*Tracing, error) {
	if c.Endpoint == "" {
		return nil, nil
	}
	endpoint, err := TracesURL(c.Endpoint)
	if err != nil {
		return nil, err
	}
	// A client of its own, whose idle connections Shutdown closes (the
	// exporter leaves them to time out).
	client := &http.Client{Timeout: 5 * time.Second, Transport: http.DefaultTransport.(*http.Transport).Clone()}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint), otlptracehttp.WithHTTPClient(client))
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter: %w", err)
	}
	service := c.Service
	if service == "" {
		service = "hmdp"
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", service))),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(c.Sample))),
	)
	log := c.Log
	if log == nil {
		log = slog.Default()
	}
	// The SDK reports export failures to one process-wide handler: the
	// last server started in a process logs them.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("tracing: spans not exported", "err", err) }))
	t := Use(tp)
	t.shutdown = func(ctx context.Context) error {
		defer client.CloseIdleConnections()
		return tp.Shutdown(ctx)
	}
	return t, nil
}

// TracesURL is the URL spans are posted to for an endpoint setting: the
// endpoint itself when it names a path, else its /v1/traces.
func TracesURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("must be an http:// or https:// URL like http://127.0.0.1:4318")
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// Use makes tracing of a provider the caller owns (tests give one with an
// in-memory exporter).
func Use(tp trace.TracerProvider) *Tracing {
	t := &Tracing{tracer: tp.Tracer(ScopeName)}
	if f, ok := tp.(interface{ ForceFlush(context.Context) error }); ok {
		t.flush = f.ForceFlush
	}
	return t
}

// Flush sends the ended spans still batched (the tests read them back from
// a collector without waiting for the batch's timer).
func (t *Tracing) Flush(ctx context.Context) error {
	if t == nil || t.flush == nil {
		return nil
	}
	return t.flush(ctx)
}

// Enabled reports whether spans are made at all.
func (t *Tracing) Enabled() bool { return t != nil }

// Shutdown sends the spans still batched and stops the provider New made.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil || t.shutdown == nil {
		return nil
	}
	return t.shutdown(ctx)
}

// offSpan is what Start returns when off: a span that records nothing (a
// zero-size value, so returning it allocates nothing).
var offSpan trace.Span = noop.Span{}

// Start starts a span named name as a child of ctx's; when off it returns ctx
// and a span that does nothing. Callers on hot paths build their options
// only when Enabled (the options themselves allocate).
func (t *Tracing) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if t == nil {
		return ctx, offSpan
	}
	return t.tracer.Start(ctx, name, opts...)
}

// inTrace reports whether ctx belongs to a recorded trace: the Redis and SQL
// spans are made only then, so background loops (stream reads every second,
// outbox polls) do not each start a trace of their own.
func inTrace(ctx context.Context) bool {
	return trace.SpanContextFromContext(ctx).IsSampled()
}

// Traceparent is the W3C traceparent of ctx's span ("" when off or outside
// a trace), for carrying the trace across an asynchronous hop such as a
// stream entry.
func (t *Tracing) Traceparent(ctx context.Context) string {
	if t == nil || !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	propagator.Inject(ctx, c)
	return c["traceparent"]
}

// SpanContextOf reads a traceparent written by Traceparent (invalid when it
// is empty or malformed: whatever a stream entry carries is only a hint).
func SpanContextOf(traceparent string) trace.SpanContext {
	if traceparent == "" {
		return trace.SpanContext{}
	}
	ctx := propagator.Extract(context.Background(), propagation.MapCarrier{"traceparent": traceparent})
	return trace.SpanContextFromContext(ctx)
}

// StartLinked starts a span that continues the trace of the first valid
// context of remotes (so a batch of one order is in that order's trace) and
// links every one of them, for work done on behalf of several traces at
// once (a batch of stream entries). Without any valid remote it starts a new
// trace.
func (t *Tracing) StartLinked(ctx context.Context, name string, remotes []trace.SpanContext, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if t == nil {
		return ctx, offSpan
	}
	links := make([]trace.Link, 0, len(remotes))
	parent := trace.SpanContext{}
	for _, r := range remotes {
		if !r.IsValid() {
			continue
		}
		if !parent.IsValid() {
			parent = r
		}
		links = append(links, trace.Link{SpanContext: r})
	}
	if parent.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, parent)
	}
	return t.tracer.Start(ctx, name, append(opts, trace.WithLinks(links...))...)
}
