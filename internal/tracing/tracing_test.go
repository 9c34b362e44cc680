package tracing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/tracing"
)

// recorder is tracing whose spans end up in memory, synchronously.
func recorder(t *testing.T) (*tracing.Tracing, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tracing.Use(tp), exp
}

type handler struct{ served int }

func (h *handler) ServeHTTP(http.ResponseWriter, *http.Request) { h.served++ }

type nopDriver struct{ dialect.Driver }

// Off (no endpoint) nothing is installed: the edge gets its handler back,
// the database client its driver, gqlgen no extension, and what the
// flash-sale path calls on every attempt allocates nothing.
func TestOffCostsNothing(t *testing.T) {
	off, err := tracing.New(context.Background(), tracing.Config{})
	if err != nil || off != nil || off.Enabled() {
		t.Fatalf("New without an endpoint = %v, %v; want nil (off)", off, err)
	}
	h := &handler{}
	if got := off.HTTP(func(*http.Request) bool { return true }, h); got != http.Handler(h) {
		t.Fatalf("HTTP wrapped the handler while off: %T", got)
	}
	if off.GraphQL() != nil {
		t.Fatal("a GraphQL extension while off")
	}
	d := nopDriver{}
	if got := off.SQL()(d); got != dialect.Driver(d) {
		t.Fatalf("SQL wrapped the driver while off: %T", got)
	}
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		c, span := off.Start(ctx, "seckill.admit")
		if off.Traceparent(c) != "" {
			t.Fatal("a traceparent while off")
		}
		span.End()
		_ = off.Flush(c)
	})
	if allocs != 0 {
		t.Fatalf("tracing off allocates %.0f times per attempt, want 0", allocs)
	}
	// The log handler adds nothing to a line outside a trace.
	var buf bytes.Buffer
	log := slog.New(tracing.LogHandler(slog.NewJSONHandler(&buf, nil)))
	log.InfoContext(ctx, "hello")
	if strings.Contains(buf.String(), "trace_id") {
		t.Fatalf("untraced line %s has a trace id", buf.String())
	}
}

// A traceparent is continued only from a trusted proxy; anyone else's
// request starts a trace of its own, linking the one it named.
func TestTraceparentOnlyFromTrustedProxies(t *testing.T) {
	tr, exp := recorder(t)
	trusted := edge.FromTrustedProxy([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")})
	var seen trace.SpanContext
	h := tr.HTTP(trusted, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = trace.SpanContextFromContext(r.Context())
		w.WriteHeader(http.StatusTeapot)
	}))
	const remoteTrace, remoteSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	send := func(peer string) tracetest.SpanStub {
		exp.Reset()
		r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/graphql", nil)
		r.RemoteAddr = peer
		r.Header.Set("traceparent", "00-"+remoteTrace+"-"+remoteSpan+"-01")
		h.ServeHTTP(httptest.NewRecorder(), r)
		spans := exp.GetSpans()
		if len(spans) != 1 {
			t.Fatalf("%d spans, want 1", len(spans))
		}
		if !spans[0].SpanContext.Equal(seen) {
			t.Fatal("the handler did not run in the request's span")
		}
		return spans[0]
	}

	s := send("10.1.2.3:5000")
	if s.SpanContext.TraceID().String() != remoteTrace || s.Parent.SpanID().String() != remoteSpan || !s.Parent.IsRemote() {
		t.Fatalf("from a trusted proxy: trace %s parent %s, want %s / %s", s.SpanContext.TraceID(), s.Parent.SpanID(), remoteTrace, remoteSpan)
	}
	if len(s.Links) != 0 {
		t.Fatalf("a continued trace links %d spans", len(s.Links))
	}
	if !hasAttr(s, "http.response.status_code", "418") {
		t.Fatalf("status not recorded: %v", s.Attributes)
	}

	for _, peer := range []string{"192.0.2.7:5000", "[2001:db8::1]:443"} {
		s = send(peer)
		if s.SpanContext.TraceID().String() == remoteTrace || s.Parent.IsValid() {
			t.Fatalf("from %s, untrusted: continued trace %s (parent %v)", peer, s.SpanContext.TraceID(), s.Parent.SpanID())
		}
		if len(s.Links) != 1 || s.Links[0].SpanContext.TraceID().String() != remoteTrace || s.Links[0].SpanContext.SpanID().String() != remoteSpan {
			t.Fatalf("from %s: links %+v, want the named trace", peer, s.Links)
		}
	}

	// Without any trusted proxy, no peer is trusted.
	if edge.FromTrustedProxy(nil)(httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/", nil)) {
		t.Fatal("trusted a peer with no trusted proxies")
	}
}

// Every line logged with a traced context carries the trace and span ids.
func TestLogLinesCarryTheTraceID(t *testing.T) {
	tr, _ := recorder(t)
	var buf bytes.Buffer
	log := slog.New(tracing.LogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "test")
	ctx, span := tr.Start(context.Background(), "request")
	log.InfoContext(ctx, "one")
	log.WithGroup("g").ErrorContext(ctx, "two", "k", "v")
	log.Info("untraced")
	span.End()

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	want := span.SpanContext().TraceID().String()
	for i, l := range lines[:2] {
		if !strings.Contains(l, `"trace_id":"`+want+`"`) || !strings.Contains(l, `"span_id":"`+span.SpanContext().SpanID().String()+`"`) {
			t.Fatalf("line %d %s lacks trace %s", i, l, want)
		}
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["trace_id"] != want || first["component"] != "test" {
		t.Fatalf("line %s: %v", lines[0], err)
	}
	if strings.Contains(lines[2], "trace_id") {
		t.Fatalf("a line without a context has a trace id: %s", lines[2])
	}
}

// The stream entry's traceparent reads back as the span it was written in;
// the linked span continues the first valid one and links them all.
func TestTraceparentAcrossAStream(t *testing.T) {
	tr, exp := recorder(t)
	ctxA, a := tr.Start(context.Background(), "admit a")
	ctxB, b := tr.Start(context.Background(), "admit b")
	tpA, tpB := tr.Traceparent(ctxA), tr.Traceparent(ctxB)
	a.End()
	b.End()
	if sc := tracing.SpanContextOf(tpA); !sc.Equal(trace.SpanContextFromContext(ctxA).WithRemote(true)) {
		t.Fatalf("traceparent %q reads back as %+v", tpA, sc)
	}
	for _, bad := range []string{"", "garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"} {
		if tracing.SpanContextOf(bad).IsValid() {
			t.Fatalf("%q read as a valid span context", bad)
		}
	}
	remotes := []trace.SpanContext{tracing.SpanContextOf("junk"), tracing.SpanContextOf(tpA), tracing.SpanContextOf(tpB)}
	_, batch := tr.StartLinked(context.Background(), "batch", remotes)
	batch.End()
	spans := exp.GetSpans()
	s := spans[len(spans)-1]
	if s.SpanContext.TraceID() != a.SpanContext().TraceID() || s.Parent.SpanID() != a.SpanContext().SpanID() {
		t.Fatalf("batch in trace %s under %s, want a's", s.SpanContext.TraceID(), s.Parent.SpanID())
	}
	if len(s.Links) != 2 || s.Links[0].SpanContext.SpanID() != a.SpanContext().SpanID() || s.Links[1].SpanContext.SpanID() != b.SpanContext().SpanID() {
		t.Fatalf("links %+v, want a and b", s.Links)
	}
}

func TestSpanNames(t *testing.T) {
	for q, want := range map[string]string{
		"INSERT INTO `tb_voucher_order` (`id`, `user_id`) VALUES (?, ?)":               "INSERT tb_voucher_order",
		"SELECT `t1`.`id` FROM `tb_shop` AS `t1` WHERE `t1`.`id` = ?":                  "SELECT tb_shop",
		`SELECT "t1"."id" FROM "tb_shop" AS "t1"`:                                      "SELECT tb_shop",
		"UPDATE `tb_seckill_voucher` SET `stock` = `stock` + ? WHERE `voucher_id` = ?": "UPDATE tb_seckill_voucher",
		"DELETE FROM `hmdp_outbox` WHERE `id` = ?":                                     "DELETE hmdp_outbox",
		"SELECT COUNT(*) FROM (SELECT 1 FROM `tb_blog`) AS t":                          "SELECT",
		"COMMIT": "COMMIT",
		"":       "SQL",
		"update tb_voucher_order set id = ? where user_id = ?": "UPDATE tb_voucher_order",
	} {
		if got := tracing.SpanNameOf(q); got != want {
			t.Errorf("%q named %q, want %q", q, got, want)
		}
	}
}

func TestTracesURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:4318":              "http://127.0.0.1:4318/v1/traces",
		"http://127.0.0.1:4318/":             "http://127.0.0.1:4318/v1/traces",
		"https://otel.example.com/custom/v1": "https://otel.example.com/custom/v1",
	} {
		if got, err := tracing.TracesURL(in); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"127.0.0.1:4318", "grpc://x:4317", "http://", "::"} {
		if _, err := tracing.TracesURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func hasAttr(s tracetest.SpanStub, key, value string) bool {
	for _, a := range s.Attributes {
		if string(a.Key) == key && a.Value.String() == value {
			return true
		}
	}
	return false
}
