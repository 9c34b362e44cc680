package tracing_test

import (
	"context"
	"errors"
	"testing"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hmdp/hmdp/ent"
	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Redis: a span per command and one per pipeline, only inside a trace; an
// EVALSHA named by its script; arguments never recorded.
func TestRedisSpans(t *testing.T) {
	testenv.ForEachKind(t, func(t *testing.T, kind string) {
		tr, exp := recorder(t)
		r := testenv.NewEmbeddedRedis(t)
		if kind == testenv.Real {
			r = testenv.NewRealRedis(t)
		}
		script := redis.NewScript("return ARGV[1]")
		names := func(sha string) string {
			if sha == script.Hash() {
				return "echo"
			}
			return ""
		}
		r.Client.AddHook(tr.RedisHook(names))
		ctx := context.Background()
		key := r.Key("k")
		if err := r.Client.Set(ctx, key, "secret-value", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if n := len(exp.GetSpans()); n != 0 {
			t.Fatalf("%d spans outside any trace, want 0", n)
		}

		ctx, root := tr.Start(ctx, "request")
		if err := r.Client.Get(ctx, key).Err(); err != nil {
			t.Fatal(err)
		}
		if err := r.Client.Get(ctx, r.Key("missing")).Err(); !errors.Is(err, redis.Nil) {
			t.Fatal(err)
		}
		if _, err := r.Client.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Get(ctx, key)
			p.Incr(ctx, r.Key("n"))
			p.Get(ctx, key)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := script.Run(ctx, r.Client, []string{key}, "secret-arg").Err(); err != nil {
			t.Fatal(err)
		}
		root.End()

		spans := exp.GetSpans()
		byName := map[string][]tracetest.SpanStub{}
		for _, s := range spans {
			byName[s.Name] = append(byName[s.Name], s)
			if s.Name != "request" && s.Parent.SpanID() != root.SpanContext().SpanID() {
				t.Errorf("%s is not a child of the request", s.Name)
			}
			for _, a := range s.Attributes {
				if v := a.Value.String(); v == "secret-value" || v == "secret-arg" {
					t.Errorf("%s recorded an argument: %s=%s", s.Name, a.Key, v)
				}
			}
		}
		if len(byName["redis GET"]) != 2 || len(byName["redis pipeline"]) != 1 {
			t.Fatalf("spans %v: want 2 GETs and 1 pipeline", names2(spans))
		}
		if byName["redis GET"][1].Status.Code != 0 {
			t.Fatal("a missing key (redis.Nil) marked the span failed")
		}
		p := byName["redis pipeline"][0]
		if !hasAttr(p, "db.operation.batch.size", "3") || !hasAttr(p, "db.redis.commands", `["GET","INCR"]`) {
			t.Fatalf("pipeline attributes %v", p.Attributes)
		}
		// Run sends EVALSHA, and EVAL when the script is not loaded yet.
		if len(byName["redis EVALSHA echo"]) != 1 {
			t.Fatalf("spans %v: want one EVALSHA named echo", names2(spans))
		}
	})
}

// SQL: a span per statement inside a trace, with its text (placeholders,
// not arguments), a transaction's statements and its COMMIT too.
func TestSQLSpans(t *testing.T) {
	tr, exp := recorder(t)
	run := func(t *testing.T, db *database.DB) {
		t.Helper()
		exp.Reset()
		ctx := context.Background()
		if _, err := db.Client.Shop.Query().Where(entshop.Name("untraced")).Count(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(exp.GetSpans()); n != 0 {
			t.Fatalf("%d spans outside any trace", n)
		}
		ctx, root := tr.Start(ctx, "request")
		if _, err := db.Client.Shop.Query().Where(entshop.Name("secret-name")).All(ctx); err != nil {
			t.Fatal(err)
		}
		err := database.WithTx(ctx, db.Client, func(tx *ent.Tx) error {
			_, err := tx.ExecContext(ctx, "UPDATE tb_shop SET comments = comments WHERE id = ?", -1)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		root.End()
		spans := exp.GetSpans()
		want := []string{"SELECT tb_shop", "UPDATE tb_shop", "COMMIT", "request"}
		if got := names2(spans); len(got) != len(want) {
			t.Fatalf("spans %v, want %v", got, want)
		}
		for i, s := range spans {
			if s.Name != want[i] {
				t.Fatalf("spans %v, want %v", names2(spans), want)
			}
			if s.Name != "request" && s.Parent.SpanID() != root.SpanContext().SpanID() {
				t.Errorf("%s is not a child of the request", s.Name)
			}
			for _, a := range s.Attributes {
				if a.Value.String() == "secret-name" {
					t.Errorf("%s recorded an argument", s.Name)
				}
			}
		}
		if !hasAttr(spans[1], "db.query.text", "UPDATE tb_shop SET comments = comments WHERE id = ?") {
			t.Fatalf("statement text %v", spans[1].Attributes)
		}
	}
	if testenv.EmbeddedWanted() {
		t.Run("sqlite", func(t *testing.T) { run(t, testenv.NewSQLite(t, ent.WrapDriver(tr.SQL()))) })
	}
	if testenv.RealMySQLDSN() != "" {
		t.Run("mysql", func(t *testing.T) { run(t, testenv.NewMySQL(t, ent.WrapDriver(tr.SQL()))) })
	}
}

func names2(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}
