package app

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestHealthReadyMetrics(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		if code, _ := get(t, ts.URL+"/healthz"); code != 200 {
			t.Fatalf("healthz %d", code)
		}
		if code, _ := get(t, ts.URL+"/readyz"); code != 200 {
			t.Fatalf("readyz %d", code)
		}
		ts.ok("", `query ShopTypes { shopTypes { name } }`, nil, nil)
		code, body := get(t, ts.URL+"/metrics")
		if code != 200 || !strings.Contains(body, `hmdp_graphql_requests_total{operation="ShopTypes"} 1`) ||
			!strings.Contains(body, `hmdp_graphql_duration_seconds_count{operation="ShopTypes"} 1`) {
			t.Fatalf("metrics %d:\n%s", code, body)
		}
	})
}

func TestNotReadyWhenADependencyIsDown(t *testing.T) {
	ts := startServer(t, "embedded")
	ts.app.miniRedis.Close()
	if code, _ := get(t, ts.URL+"/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with Redis down: %d", code)
	}
	if code, _ := get(t, ts.URL+"/healthz"); code != 200 {
		t.Fatalf("healthz with Redis down: %d", code)
	}
}

func TestMetricsOperationNamesAreBounded(t *testing.T) {
	m := newGraphQLMetrics(newRegistry())
	if m.label("") != "anonymous" || m.label("bad name!") != "other" {
		t.Fatal("labels for anonymous / malformed names")
	}
	for i := range maxOperationNames + 10 {
		m.label("Op" + itoa(i))
	}
	if m.label("OneMore") != "other" || m.label("Op1") != "Op1" {
		t.Fatal("names past the cap are not folded into other")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestPlaygroundSwitch(t *testing.T) {
	on := startServer(t, "embedded")
	if code, body := get(t, on.URL+"/"); code != 200 || !strings.Contains(body, "graphiql") {
		t.Fatalf("playground: %d %.200s", code, body)
	}
	off := startServer(t, "embedded", func(c *Config) { c.Playground = false })
	if code, _ := get(t, off.URL+"/"); code != http.StatusNotFound {
		t.Fatalf("playground switched off answers %d", code)
	}
}
