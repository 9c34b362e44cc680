package seckill

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/testenv"
	"github.com/hmdp/hmdp/internal/tracing"
	"github.com/hmdp/hmdp/lua"
)

// An order's life is one story across the stream: each admission's span
// goes into its stream entry, the batch that persists the entries continues
// the first one's trace and links every admission, and the MySQL insert and
// the orderUpdates hand-over are the batch's children.
func TestTraceFollowsAnOrder(t *testing.T) {
	testenv.ForEachKind(t, func(t *testing.T, kind string) {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
		tr := tracing.Use(tp)
		b := testenv.Backends{Name: kind}
		if kind == testenv.Real {
			b.DB, b.Redis = testenv.NewMySQL(t, ent.WrapDriver(tr.SQL())), testenv.NewRealRedis(t)
		} else {
			b.DB, b.Redis = testenv.NewSQLite(t, ent.WrapDriver(tr.SQL())), testenv.NewEmbeddedRedis(t)
		}
		b.Redis.Client.AddHook(tr.RedisHook(lua.NameOf))

		var mu sync.Mutex
		var announcedIn []trace.SpanContext
		cfg := fast
		cfg.Tracing = tr
		cfg.OnPersisted = func(ctx context.Context, _ []Persisted) {
			mu.Lock()
			defer mu.Unlock()
			announcedIn = append(announcedIn, trace.SpanContextFromContext(ctx))
		}
		f := newService(t, b, cfg)
		v := f.sale(t, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))

		// Three buyers, each in a request's trace, admitted before any
		// consumer runs: one batch persists them.
		admitted := map[string]trace.SpanContext{} // order id -> its admission span
		for user := int64(1); user <= 3; user++ {
			ctx, req := tr.Start(context.Background(), "request")
			id, err := f.s.Seckill(ctx, user, v)
			req.End()
			if err != nil {
				t.Fatal(err)
			}
			admitted[strconv.FormatInt(id, 10)] = trace.SpanContext{}
		}
		// A refusal is an answer, recorded without failing its span.
		if _, err := f.s.Seckill(context.Background(), 1, v); err == nil {
			t.Fatal("a second order of buyer 1 was admitted")
		}
		spans := exp.GetSpans()
		for _, s := range spans {
			if s.Name != "seckill.admit" {
				continue
			}
			if id, ok := attr(s, "hmdp.order.id"); ok {
				if s.Parent.SpanID() == (trace.SpanID{}) {
					t.Fatal("an admission outside its request's trace")
				}
				admitted[id] = s.SpanContext
			} else if refusal, _ := attr(s, "hmdp.refusal"); refusal != "ALREADY_ORDERED" || s.Status.Code != 0 {
				t.Fatalf("the refused attempt's span: refusal %q, status %v", refusal, s.Status)
			}
		}
		// The stream entries carry their admission's traceparent.
		msgs, err := b.Redis.Client.XRange(context.Background(), KeysOf(b.Redis.Prefix, v).Orders, "-", "+").Result()
		if err != nil || len(msgs) != 3 {
			t.Fatalf("%d entries, %v", len(msgs), err)
		}
		for _, m := range msgs {
			tp, _ := m.Values["tp"].(string)
			order, _ := m.Values["order"].(string)
			sc := tracing.SpanContextOf(tp)
			if want := admitted[order]; !want.IsValid() || sc.SpanID() != want.SpanID() || sc.TraceID() != want.TraceID() {
				t.Fatalf("entry %v carries %v, want its admission %v", m.Values, sc, want)
			}
		}

		exp.Reset()
		f.s.Start()
		f.waitPersisted(t, v, 3)
		var persist []tracetest.SpanStub
		testenv.Eventually(t, 10*time.Second, "the batch's span ends", func() bool {
			persist = nil
			for _, s := range exp.GetSpans() {
				if s.Name == "seckill.persist" {
					persist = append(persist, s)
				}
			}
			linked := 0
			for _, p := range persist {
				linked += len(p.Links)
			}
			return linked == 3
		})
		batches := map[trace.SpanID]bool{}
		linked := map[trace.SpanID]bool{}
		for _, p := range persist {
			batches[p.SpanContext.SpanID()] = true
			first := p.Links[0].SpanContext
			if p.SpanContext.TraceID() != first.TraceID() || p.Parent.SpanID() != first.SpanID() {
				t.Fatalf("batch in trace %s under %s, want its first order's admission %s/%s",
					p.SpanContext.TraceID(), p.Parent.SpanID(), first.TraceID(), first.SpanID())
			}
			for _, l := range p.Links {
				linked[l.SpanContext.SpanID()] = true
			}
		}
		for id, sc := range admitted {
			if !linked[sc.SpanID()] {
				t.Fatalf("order %s's admission is linked by no batch", id)
			}
		}

		var inserts, announces int
		for _, s := range exp.GetSpans() {
			switch s.Name {
			case "INSERT tb_voucher_order":
				inserts++
				if !batches[s.Parent.SpanID()] {
					t.Fatal("the insert is not a child of a batch")
				}
			case "seckill.orderUpdates":
				announces++
				if !batches[s.Parent.SpanID()] {
					t.Fatal("the orderUpdates hand-over is not a child of a batch")
				}
				mu.Lock()
				in := announcedIn
				mu.Unlock()
				found := false
				for _, sc := range in {
					found = found || sc.SpanID() == s.SpanContext.SpanID()
				}
				if !found {
					t.Fatal("OnPersisted did not run in the orderUpdates span")
				}
			}
		}
		if inserts == 0 || announces == 0 {
			t.Fatalf("%d inserts, %d orderUpdates spans; spans %v", inserts, announces, spanNames(exp.GetSpans()))
		}
	})
}

func attr(s tracetest.SpanStub, key string) (string, bool) {
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			return a.Value.String(), true
		}
	}
	return "", false
}

func spanNames(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}
