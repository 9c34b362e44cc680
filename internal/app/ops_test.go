package app

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

// httpGet is http.Get bound to ctx.
func httpGet(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, http.NoBody)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// httpPost is http.Post bound to ctx.
func httpPost(ctx context.Context, url, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	return http.DefaultClient.Do(req)
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := httpGet(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestHealthReadyMetrics(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		// ShopTypes is no operation of the web app: a configured name.
		ts := startServer(t, backend, func(c *config.Config) { c.MetricsOperations = []string{"ShopTypes"} })
		if code, _ := get(t, ts.URL+"/healthz"); code != 200 {
			t.Fatalf("healthz %d", code)
		}
		if code, _ := get(t, ts.URL+"/readyz"); code != 200 {
			t.Fatalf("readyz %d", code)
		}
		ts.ok("", `query ShopTypes { shopTypes { name } }`, nil, nil)
		// A document naming no field of the schema: one validation error.
		get(t, ts.URL+"/graphql?query="+url.QueryEscape("{ noSuchField }"))
		if code, _ := get(t, ts.URL+"/no-such-path"); code != http.StatusNotFound {
			t.Fatalf("unknown path %d", code)
		}
		code, body := get(t, ts.URL+"/metrics")
		for _, want := range []string{
			`hmdp_graphql_requests_total{operation="ShopTypes"} 1`,
			`hmdp_graphql_duration_seconds_count{operation="ShopTypes"} 1`,
			`hmdp_graphql_errors_total{code="GRAPHQL_VALIDATION_FAILED"} 1`,
			`hmdp_http_responses_total{code="404"} 1`,
			`hmdp_ready{backend="database"} 1`,
			`hmdp_ready{backend="redis"} 1`,
			`hmdp_redis_breaker_open 0`,
		} {
			if code != 200 || !strings.Contains(body, want) {
				t.Fatalf("metrics %d: no %s in\n%s", code, want, body)
			}
		}
		if strings.Contains(body, `hmdp_graphql_errors_total{code="INTERNAL_SERVER_ERROR"}`) {
			t.Fatalf("an internal error was counted:\n%s", body)
		}
	})
}

func TestNotReadyWhenADependencyIsDown(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	ts.app.miniRedis.Close()
	if code, _ := get(t, ts.URL+"/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with Redis down: %d", code)
	}
	// What the probe found is what the readiness alert reads.
	if v := metricValue(t, ts, `hmdp_ready{backend="redis"}`); v != 0 {
		t.Fatalf(`hmdp_ready{backend="redis"} = %v with Redis down`, v)
	}
	if v := metricValue(t, ts, `hmdp_ready{backend="database"}`); v != 1 {
		t.Fatalf(`hmdp_ready{backend="database"} = %v with the database up`, v)
	}
	if v := metricValue(t, ts, `hmdp_http_responses_total{code="503"}`); v != 1 {
		t.Fatalf(`hmdp_http_responses_total{code="503"} = %v after one 503`, v)
	}
	if code, _ := get(t, ts.URL+"/healthz"); code != 200 {
		t.Fatalf("healthz with Redis down: %d", code)
	}
}

func TestPlaygroundSwitch(t *testing.T) {
	t.Parallel()
	on := startServer(t, "embedded")
	if code, body := get(t, on.URL+"/"); code != 200 || !strings.Contains(body, "graphiql") {
		t.Fatalf("playground: %d %.200s", code, body)
	}
	off := startServer(t, "embedded", func(c *config.Config) { c.Playground = false })
	if code, _ := get(t, off.URL+"/"); code != http.StatusNotFound {
		t.Fatalf("playground switched off answers %d", code)
	}
}
