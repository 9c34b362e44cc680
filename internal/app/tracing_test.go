package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/internal/tracing"
)

// logBuffer is a log destination tests read back, written from any goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines are the JSON log lines whose msg is msg.
func (b *logBuffer) lines(msg string) []map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for l := range strings.SplitSeq(b.buf.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// startTracedApp is startApp with tracing recorded by tr, the server's own
// logger (NewLogger's handler) writing to logs, and the log-only SMS
// sender: login codes are read back from the log, as an operator would.
// The in-process client connects from 127.0.0.1, the proxy one from
// 10.0.0.1 (HMDP_TRUSTED_PROXIES=10.0.0.0/8).
func startTracedApp(t *testing.T, backend string, tr *tracing.Tracing, logs *logBuffer) (ts *testServer, proxied *http.Client) {
	t.Helper()
	cfg := testConfig(t, backend)
	cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	log := slog.New(tracing.LogHandler(slog.NewJSONHandler(logs, nil)))
	a, err := New(context.Background(), cfg, log, Options{Seckill: fastSeckill, Tracing: tr,
		Sender: auth.LogSender{Log: log}, WebsocketHeartbeat: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	h := a.Handler()
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		a.Stop()
		hs.Close()
		a.Close()
	})
	ts = &testServer{t: t, URL: hs.URL, app: a, backend: backend,
		client: &http.Client{Transport: handlerTransport{h: h, remoteAddr: "127.0.0.1:40000"}}}
	return ts, &http.Client{Transport: handlerTransport{h: h, remoteAddr: "10.0.0.1:40000"}}
}

// loginFromLog signs phone in with the code the server logged.
func loginFromLog(ts *testServer, logs *logBuffer, phone string) string {
	ts.t.Helper()
	ctx, anon := ts.t.Context(), ts.gql("")
	must(gqlclient.SendCode(ctx, anon, phone))(ts.t)
	var code string
	for _, l := range logs.lines("sms code sent") {
		if l["phone"] == phone {
			code, _ = l["code"].(string)
		}
	}
	out := must(gqlclient.Login(ctx, anon, phone, &code, nil))(ts.t)
	return out.Login.Token
}

// One flash-sale purchase is one trace, from the HTTP request through the
// GraphQL operation and resolver to the admission, and on across the stream
// to the batch that persisted it, its MySQL insert and the orderUpdates
// hand-over; a query's trace shows its SQL statements and Redis calls but
// no span per list element; the log line of a request carries its trace id;
// a traceparent is continued only from a trusted proxy.
func TestTracingInProcess(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
		logs := &logBuffer{}
		ts, proxied := startTracedApp(t, backend, tracing.Use(tp), logs)

		admin := loginFromLog(ts, logs, "13900000000")
		// The code's log line names the trace of the request that sent it.
		sent := logs.lines("sms code sent")
		traceID, _ := sent[len(sent)-1]["trace_id"].(string)
		if len(traceID) != 32 {
			t.Fatalf("the sendCode log line has no trace id: %v", sent[len(sent)-1])
		}
		names := namesIn(exp.GetSpans(), traceID)
		if !names["POST /graphql"] || !names["mutation SendCode"] || !names["Mutation.sendCode"] {
			t.Fatalf("the log line's trace %s has spans %v", traceID, names)
		}

		var created createdVoucher
		ts.ok(admin, createVoucherMutation, map[string]any{"in": map[string]any{
			"shopId": "1", "title": "flash", "payValue": 100, "actualValue": 1000,
			"seckill": map[string]any{"stock": 5, "beginTime": time.Now().Add(-time.Minute).Format(time.RFC3339),
				"endTime": time.Now().Add(time.Hour).Format(time.RFC3339)},
		}}, &created)
		sale, err := strconv.ParseInt(created.CreateVoucher.ID, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		buyer := loginFromLog(ts, logs, "13800000123")
		exp.Reset()
		orderID := ts.seckill(buyer, sale)

		var admit tracetest.SpanStub
		for _, s := range exp.GetSpans() {
			if s.Name == "seckill.admit" {
				admit = s
			}
		}
		if !admit.SpanContext.IsValid() {
			t.Fatalf("no admission span among %v", spanNames(exp.GetSpans()))
		}
		purchase := admit.SpanContext.TraceID().String()
		var spans map[string]tracetest.SpanStub
		testenv.Eventually(t, 15*time.Second, "the order's batch, insert and orderUpdates spans", func() bool {
			spans = byName(exp.GetSpans(), purchase)
			_, p := spans["seckill.persist"]
			_, i := spans["INSERT tb_voucher_order"]
			_, u := spans["seckill.orderUpdates"]
			return p && i && u
		})
		chain := []string{"POST /graphql", "mutation", "Mutation.seckillVoucher", "seckill.admit"}
		for i := 1; i < len(chain); i++ {
			if spans[chain[i]].Parent.SpanID() != spans[chain[i-1]].SpanContext.SpanID() {
				t.Fatalf("%s is not a child of %s; trace %v", chain[i], chain[i-1], keys(spans))
			}
		}
		if !hasRedisScript(exp.GetSpans(), purchase, "seckill_admit") {
			t.Fatalf("no EVALSHA seckill_admit span in the purchase's trace %v", keys(spans))
		}
		persist := spans["seckill.persist"]
		if persist.Parent.SpanID() != admit.SpanContext.SpanID() || len(persist.Links) != 1 ||
			persist.Links[0].SpanContext.SpanID() != admit.SpanContext.SpanID() {
			t.Fatalf("batch under %s linking %+v, want the admission %s", persist.Parent.SpanID(), persist.Links, admit.SpanContext.SpanID())
		}
		if id, _ := attrOf(admit, "hmdp.order.id"); id != orderID {
			t.Fatalf("admission of order %s, want %s", id, orderID)
		}
		for _, child := range []string{"INSERT tb_voucher_order", "seckill.orderUpdates"} {
			if spans[child].Parent.SpanID() != persist.SpanContext.SpanID() {
				t.Fatalf("%s is not a child of the batch", child)
			}
		}
		if q, _ := attrOf(spans["INSERT tb_voucher_order"], "db.query.text"); !strings.Contains(q, "tb_voucher_order") || strings.Contains(q, orderID) {
			t.Fatalf("insert text %q: want the statement without its arguments", q)
		}

		// A query: its SQL, none per list element, no variables.
		exp.Reset()
		ts.ok(buyer, `query TracedOrders($f: Int) { myOrders(first: $f) { edges { node { id voucher { id title } } } } }`,
			map[string]any{"f": 5}, nil)
		op := find(exp.GetSpans(), "query TracedOrders")
		if !op.SpanContext.IsValid() {
			t.Fatalf("no operation span among %v", spanNames(exp.GetSpans()))
		}
		spans = byName(exp.GetSpans(), op.SpanContext.TraceID().String())
		sqls := 0
		for _, s := range exp.GetSpans() {
			if _, ok := attrOf(s, "db.query.text"); ok && s.SpanContext.TraceID() == op.SpanContext.TraceID() {
				sqls++
			}
			for _, a := range s.Attributes {
				if strings.Contains(a.Value.String(), `"f"`) {
					t.Fatalf("%s recorded the variables: %s", s.Name, a.Value.String())
				}
			}
		}
		if sqls == 0 || spans["Query.myOrders"].Parent.SpanID() != op.SpanContext.SpanID() {
			t.Fatalf("query trace: %d SQL spans, spans %v", sqls, keys(spans))
		}
		if _, ok := spans["VoucherOrder.voucher"]; ok {
			t.Fatal("a span per list element (VoucherOrder.voucher)")
		}

		// traceparent: continued from the trusted proxy only.
		const remote = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		for _, c := range []struct {
			client  *http.Client
			trusted bool
		}{{ts.client, false}, {proxied, true}} {
			exp.Reset()
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/graphql",
				strings.NewReader(`{"query":"query Traced { shopTypes { id } }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("traceparent", remote)
			ts.sendWith(c.client, req)
			root := find(exp.GetSpans(), "POST /graphql")
			continued := root.SpanContext.TraceID().String() == "4bf92f3577b34da6a3ce929d0e0e4736"
			if continued != c.trusted || (!c.trusted && len(root.Links) != 1) {
				t.Fatalf("trusted %v: continued %v, links %+v", c.trusted, continued, root.Links)
			}
		}
	})
}

// With no endpoint nothing is installed: no provider, and a flash-sale
// stream entry carries only its order (no trace field).
func TestTracingOffByDefault(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, testenv.Embedded)
	// No consumers: the entry stays in the stream to be looked at.
	ts := startApp(t, testenv.Embedded, cfg, Options{Operator: true})
	if ts.app.tracing != nil || ts.app.ownTracing {
		t.Fatal("tracing on without HMDP_OTLP_ENDPOINT")
	}
	buyer := ts.login("13800000125")
	sale := ts.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	ts.seckill(buyer, sale)
	msgs, err := ts.redis().XRange(t.Context(), seckill.KeysOf(cfg.RedisPrefix, sale).Orders, "-", "+").Result()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%d entries, %v", len(msgs), err)
	}
	if len(msgs[0].Values) != 3 {
		t.Fatalf("entry %v: want order, user and voucher only", msgs[0].Values)
	}
}

// TestTracingJaeger sends the spans to a real Jaeger (scripts/jaeger.sh
// starts one: make test-tracing) and reads them back through its query API:
// one seckillVoucher is one trace holding the admission script, the batch
// that persisted the order and its MySQL insert; a query's trace holds its
// SQL statements.
func TestTracingJaeger(t *testing.T) {
	query, otlp := os.Getenv("HMDP_TEST_JAEGER_URL"), os.Getenv("HMDP_TEST_OTLP_ENDPOINT")
	if query == "" || otlp == "" {
		t.Skip("HMDP_TEST_JAEGER_URL and HMDP_TEST_OTLP_ENDPOINT are not set: run it under scripts/jaeger.sh (make test-tracing)")
	}
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		cfg.OTLPEndpoint = otlp
		cfg.TraceService = "hmdp-test-" + backend + "-" + testenv.RandomHex(4)
		ts := startSaleServer(t, backend, cfg, fastSeckill)
		if !ts.app.ownTracing {
			t.Fatal("HMDP_OTLP_ENDPOINT did not turn tracing on")
		}
		buyer := ts.login("13800000124")
		sale := ts.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		orderID := ts.seckill(buyer, sale)
		ts.waitStatus(buyer, orderID, "UNPAID")
		ts.ok(buyer, `query TracedOrders { myOrders(first: 5) { edges { node { id } } } }`, nil, nil)

		var found string
		testenv.Eventually(t, 30*time.Second, "Jaeger to hold the purchase's and the query's traces", func() bool {
			if err := ts.app.tracing.Flush(t.Context()); err != nil {
				t.Logf("flush: %v", err)
			}
			traces, err := jaegerTraces(t.Context(), query, cfg.TraceService)
			if err != nil {
				t.Logf("jaeger: %v", err)
				return false
			}
			purchase, read := false, false
			for _, tr := range traces {
				purchase = purchase || tr.isPurchase(orderID)
				read = read || (tr.has("query TracedOrders") && tr.hasTag("db.query.text"))
			}
			found = fmt.Sprintf("%d traces: %v", len(traces), summaries(traces))
			return purchase && read
		})
		t.Log(found)
	})
}

type jaegerTrace struct {
	TraceID string `json:"traceID"`
	Spans   []struct {
		SpanID        string `json:"spanID"`
		OperationName string `json:"operationName"`
		References    []struct {
			RefType string `json:"refType"`
			SpanID  string `json:"spanID"`
		} `json:"references"`
		Tags []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"tags"`
	} `json:"spans"`
}

func (tr jaegerTrace) has(op string) bool {
	for _, s := range tr.Spans {
		if s.OperationName == op {
			return true
		}
	}
	return false
}

func (tr jaegerTrace) hasTag(key string) bool {
	for _, s := range tr.Spans {
		for _, tag := range s.Tags {
			if tag.Key == key {
				return true
			}
		}
	}
	return false
}

// isPurchase: the trace holds order id's admission (with its script), the
// batch that persisted it referring to the admission, and the insert.
func (tr jaegerTrace) isPurchase(orderID string) bool {
	admit := ""
	for _, s := range tr.Spans {
		for _, tag := range s.Tags {
			if s.OperationName == "seckill.admit" && tag.Key == "hmdp.order.id" && fmt.Sprint(tag.Value) == orderID {
				admit = s.SpanID
			}
		}
	}
	if admit == "" || !tr.has("redis pipeline") && !tr.has("redis EVALSHA seckill_admit") {
		return false
	}
	for _, s := range tr.Spans {
		if s.OperationName != "seckill.persist" {
			continue
		}
		for _, r := range s.References {
			if r.SpanID == admit {
				return tr.has("INSERT tb_voucher_order")
			}
		}
	}
	return false
}

func summaries(traces []jaegerTrace) []string {
	var out []string
	for _, tr := range traces {
		ops := make([]string, 0, len(tr.Spans))
		for _, s := range tr.Spans {
			ops = append(ops, s.OperationName)
		}
		out = append(out, strings.Join(ops, ","))
	}
	return out
}

// jaegerTraces reads the service's traces of the last hour from Jaeger's
// query API.
func jaegerTraces(ctx context.Context, base, service string) ([]jaegerTrace, error) {
	u := strings.TrimRight(base, "/") + "/api/traces?" + url.Values{
		"service": {service}, "limit": {"200"}, "lookback": {"1h"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out struct {
		Data []jaegerTrace `json:"data"`
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", u, res.Status)
	}
	dec := json.NewDecoder(res.Body)
	dec.UseNumber() // order ids are beyond a float64's exact integers
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out.Data, nil
}

func find(spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	for _, s := range spans {
		if s.Name == name {
			return s
		}
	}
	return tracetest.SpanStub{}
}

// byName is the spans of one trace by name (the last of each name).
func byName(spans tracetest.SpanStubs, traceID string) map[string]tracetest.SpanStub {
	out := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		if s.SpanContext.TraceID().String() == traceID {
			out[s.Name] = s
		}
	}
	return out
}

func namesIn(spans tracetest.SpanStubs, traceID string) map[string]bool {
	out := map[string]bool{}
	for n := range byName(spans, traceID) {
		out[n] = true
	}
	return out
}

func keys(m map[string]tracetest.SpanStub) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func spanNames(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

func attrOf(s tracetest.SpanStub, key string) (string, bool) {
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			return a.Value.String(), true
		}
	}
	return "", false
}

// hasRedisScript: the trace holds an EVALSHA of script, alone or in a pipeline.
func hasRedisScript(spans tracetest.SpanStubs, traceID, script string) bool {
	for _, s := range spans {
		if s.SpanContext.TraceID().String() != traceID {
			continue
		}
		if s.Name == "redis EVALSHA "+script {
			return true
		}
		if cmds, ok := attrOf(s, "db.redis.commands"); ok && strings.Contains(cmds, "EVALSHA "+script) {
			return true
		}
	}
	return false
}
