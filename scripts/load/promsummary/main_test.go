package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/scripts/load/chart"
)

const t0 = 1_800_000_000

// cannedPrometheus answers query_range from testdata by what the query
// asks, and an empty matrix to any other query; it records the queries.
func cannedPrometheus(t *testing.T, files map[string]string) (*httptest.Server, *[]string) {
	t.Helper()
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/query_range" || r.ParseForm() != nil {
			http.NotFound(w, r)
			return
		}
		q := r.Form.Get("query")
		asked = append(asked, q)
		if r.Form.Get("start") != "1800000000.000" || r.Form.Get("end") != "1800000120.000" || r.Form.Get("step") != "2" {
			http.Error(w, "bad range "+r.Form.Encode(), http.StatusBadRequest)
			return
		}
		for part, file := range files {
			if strings.Contains(q, part) {
				b, err := os.ReadFile(filepath.Join("testdata", file))
				if err != nil {
					t.Error(err)
				}
				_, _ = w.Write(b)
				return
			}
		}
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

func summarize(t *testing.T, prom string) (html, stdout string, err error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "summary.html")
	var so bytes.Buffer
	err = run(context.Background(), []string{
		"-prom", prom, "-from", fmt.Sprint(t0), "-to", fmt.Sprint(t0 + 120), "-step", "2s",
		"-kill", fmt.Sprint(t0 + 32), "-kill-label", "kill -9 instance 2", "-intro", "3 instances behind HAProxy",
		"-out", out,
	}, &so)
	if err != nil {
		return "", so.String(), err
	}
	b, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return string(b), so.String(), nil
}

// section is the HTML of the chart titled title.
func section(t *testing.T, html, title string) string {
	t.Helper()
	i := strings.Index(html, "<h2>"+title+"</h2>")
	if i < 0 {
		t.Fatalf("no chart %q", title)
	}
	s := html[i:]
	if j := strings.Index(s, "</section>"); j >= 0 {
		s = s[:j]
	}
	return s
}

var polylines = regexp.MustCompile(`<polyline `)

func TestSummaryFromCannedQueryRange(t *testing.T) {
	srv, asked := cannedPrometheus(t, map[string]string{
		"ALERTS": "alerts.json",
		"sum by (operation) (rate(hmdp_graphql_requests_total": "operations.json",
		"go_goroutines":                        "goroutines.json",
		"histogram_quantile(0.99, sum by (le)": "p99.json",
	})
	html, stdout, err := summarize(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if len(*asked) != 1+countQueries() {
		t.Errorf("%d queries asked, want ALERTS and %d", len(*asked), countQueries())
	}
	for _, q := range *asked {
		if strings.Contains(q, "$") {
			t.Errorf("placeholder left in %s", q)
		}
	}
	for _, q := range *asked {
		if strings.HasPrefix(q, "go_goroutines") && q != `go_goroutines{job="hmdp"}` {
			t.Errorf("goroutines asked as %s", q)
		}
	}

	// Alerts: each state with when, in seconds since the start.
	for _, want := range []string{
		"<td>HmdpInstanceDown</td><td>pending</td><td>instance=127.0.0.1:21313,job=hmdp</td><td>&#43;34s</td><td>&#43;92s</td>",
		"<td>HmdpInstanceDown</td><td>firing</td><td>instance=127.0.0.1:21313,job=hmdp</td><td>&#43;94s</td><td>&#43;98s</td>",
		"<p>3 instances behind HAProxy</p>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	if !strings.Contains(stdout, "alert HmdpInstanceDown firing instance=127.0.0.1:21313,job=hmdp +94s +98s") {
		t.Errorf("stdout:\n%s", stdout)
	}

	// Ten operations: the seven busiest, then the other three summed.
	ops := section(t, html, "GraphQL operations per second, by operation")
	if n := len(polylines.FindAllString(ops, -1)); n != 8 {
		t.Errorf("%d lines of operations, want 8", n)
	}
	if !strings.Contains(ops, "ShopPage</td><td>102/s</td><td>104/s</td><td>104/s</td>") {
		t.Errorf("busiest operation's legend (mean, max, last of 100..104) missing:\n%s", ops)
	}
	// 30+20+10 at the first step, 3 more at each next one.
	if !strings.Contains(ops, "3 others</td><td>66/s</td><td>72/s</td><td>72/s</td>") {
		t.Errorf("the three least busy should be summed:\n%s", ops)
	}
	if i, j := strings.Index(ops, ">ShopPage<"), strings.Index(ops, ">Login<"); i < 0 || j < i {
		t.Error("legend not busiest first")
	}

	// The killed instance's line breaks where it answered no scrape.
	g := section(t, html, "Goroutines, per instance")
	if n := len(polylines.FindAllString(g, -1)); n != 4 {
		t.Errorf("%d goroutine lines, want 4 (instance 2 in two stretches)", n)
	}
	if !strings.Contains(g, `class="mark"`) || !strings.Contains(g, "kill -9 instance 2") {
		t.Error("the kill is not marked")
	}

	// NaN (no requests yet) is a gap, not a zero.
	lat := section(t, html, "Latency of queries and mutations")
	if !strings.Contains(lat, "p99</td><td>") || strings.Contains(lat, "p99</td><td>0</td>") {
		t.Errorf("p99 legend:\n%s", lat)
	}
	if !strings.Contains(lat, "p99</td><td>50.3 ms</td><td>90 ms</td><td>70 ms</td>") {
		t.Errorf("p99 figures over the 58 samples that are numbers:\n%s", lat)
	}

	// Charts without data say so.
	if !strings.Contains(section(t, html, "Dead letters, by reason"), "no data") {
		t.Error("empty dead letters chart should say no data")
	}
}

func countQueries() int {
	n := 0
	for _, s := range specs {
		n += len(s.Queries)
	}
	return n
}

// A query Prometheus refuses fails the summary, naming the chart.
func TestSummaryFailsOnAQueryError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if strings.Contains(r.Form.Get("query"), "process_open_fds") {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"1:1: parse error"}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`))
	}))
	defer srv.Close()
	_, _, err := summarize(t, srv.URL)
	if err == nil || !strings.Contains(err.Error(), "Open file descriptors") || !strings.Contains(err.Error(), "parse error") {
		t.Errorf("err = %v", err)
	}
}

func TestName(t *testing.T) {
	m := map[string]string{"instance": "a:1", "result": "ok"}
	for pattern, want := range map[string]string{
		"{instance}":                      "a:1",
		"p99 {instance}":                  "p99 a:1",
		"attempts {result} at {instance}": "attempts ok at a:1",
		"{reason}":                        "(none)",
		"waiting":                         "waiting",
	} {
		if got := name(pattern, m); got != want {
			t.Errorf("name(%q) = %q, want %q", pattern, got, want)
		}
	}
}

func TestPointsMarkMissingSteps(t *testing.T) {
	s := sample{Values: [][2]any{{float64(t0), "1"}, {float64(t0 + 2), "2"}, {float64(t0 + 10), "3"}, {float64(t0 + 12), "NaN"}}}
	p := s.points(2 * time.Second)
	if len(p) != 5 || !math.IsNaN(p[2].V) || p[2].T.Unix() != t0+4 || p[3].V != 3 || !math.IsNaN(p[4].V) {
		t.Errorf("points %v", p)
	}
}

// Every query of the summary is one the Prometheus of make load accepts:
// run against a real one (Debian's prometheus package) when it is installed.
func TestQueriesParseOnRealPrometheus(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (Debian: apt-get install prometheus)")
	}
	dir := t.TempDir()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	base := "http://" + addr
	for i := 0; ; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/-/ready", http.NoBody)
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if i == 300 {
			t.Fatalf("prometheus did not get ready:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	c := &client{base: base, http: http.DefaultClient}
	end := time.Now()
	start := end.Add(-time.Minute)
	sel := selectors{job: "hmdp", window: 5 * time.Second}
	for _, s := range specs {
		if _, err := s.chart(context.Background(), c, sel, start, end, time.Second); err != nil {
			t.Errorf("%s: %v", s.Title, err)
		}
	}
	if _, err := c.alerts(context.Background(), start, end, time.Second); err != nil {
		t.Error(err)
	}
	// and the check can fail: a broken query is refused
	if _, err := c.queryRange(context.Background(), "sum(rate(x[5s]", start, end, time.Second); err == nil {
		t.Error("a broken query was accepted")
	}
}

func TestDropZeros(t *testing.T) {
	at := func(vs ...float64) []chart.Point {
		out := make([]chart.Point, len(vs))
		for i, v := range vs {
			out[i] = chart.Point{T: time.Unix(t0+int64(i), 0), V: v}
		}
		return out
	}
	ok := chart.Series{Name: "ok", Points: at(0, 5, 3)}
	bad := chart.Series{Name: "bad_token", Points: at(0, 0, math.NaN())}
	gone := chart.Series{Name: "rate_limited", Points: at(0, 0, 0)}
	got, note := dropZeros([]chart.Series{bad, ok, gone}, "attempts")
	if len(got) != 1 || got[0].Name != "ok" || note != "attempts; 0 all along, not drawn: bad_token, rate_limited" {
		t.Errorf("%d series, note %q", len(got), note)
	}
	// All zero: all drawn (the chart says they were 0, not "no data").
	if got, note := dropZeros([]chart.Series{bad, gone}, ""); len(got) != 2 || note != "" {
		t.Errorf("all zero: %d series, note %q", len(got), note)
	}
}
