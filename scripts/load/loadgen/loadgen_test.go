package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestIterations(t *testing.T) {
	for _, c := range []struct {
		a    arrival
		want int64
	}{
		{arrival{rate: 30, duration: 20 * time.Second}, 600},
		{arrival{rate: 40, duration: 60 * time.Second}, 2400},
		{arrival{rate: 3, duration: 1500 * time.Millisecond}, 5}, // due at 0, ⅓, ⅔, 1, 1⅓ s
		{arrival{rate: 0.5, duration: time.Second}, 1},
		{arrival{rate: 0, duration: time.Second}, 0},
	} {
		if got := c.a.iterations(); got != c.want {
			t.Errorf("%v/s for %v: %d iterations, want %d", c.a.rate, c.a.duration, got, c.want)
		}
	}
}

// The rate is held: every iteration is started, none before it is due, and
// the whole schedule takes about its duration.
func TestArrivalHoldsRate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	c := newClient(200, 10*time.Second)
	defer c.CloseIdleConnections()

	a := arrival{rate: 400, duration: 500 * time.Millisecond, maxVUs: 200}
	var mu sync.Mutex
	startedAt := map[int64]time.Time{}
	start := time.Now()
	run := a.start(context.Background(), start, func(ctx context.Context, i int64) {
		now := time.Now()
		mu.Lock()
		startedAt[i] = now
		mu.Unlock()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, http.NoBody)
		if _, _, err := timedDo(c, req, io.Discard); err != nil {
			t.Error(err)
		}
	})
	started, dropped := run.wait()
	elapsed := time.Since(start)
	if started != 200 || dropped != 0 {
		t.Fatalf("started %d, dropped %d; want 200, 0", started, dropped)
	}
	for i, at := range startedAt {
		// Nothing dropped, so the i-th started is the i-th due.
		if due := a.due(start, i); at.Before(due) {
			t.Errorf("iteration %d started %v before it was due", i, due.Sub(at))
		}
	}
	if elapsed < 490*time.Millisecond || elapsed > 4*time.Second {
		t.Errorf("500 ms of schedule took %v", elapsed)
	}
}

// An open loop: requests that do not answer do not hold the schedule back;
// at most maxVUs are in flight, and each iteration due while they are is
// dropped and counted.
func TestArrivalBoundsInFlightAndCountsDrops(t *testing.T) {
	release := make(chan struct{})
	var inFlight, most atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		inFlight.Add(-1)
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	c := newClient(10, 10*time.Second)
	defer c.CloseIdleConnections()

	// 100 iterations due over 250 ms, 10 VUs, and no request answers before
	// the schedule is over: 10 started, 90 dropped.
	a := arrival{rate: 400, duration: 250 * time.Millisecond, maxVUs: 10}
	var answered atomic.Int64
	start := time.Now()
	run := a.start(context.Background(), start, func(ctx context.Context, _ int64) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, http.NoBody)
		if status, _, err := timedDo(c, req, io.Discard); err == nil && status == http.StatusOK {
			answered.Add(1)
		}
	})
	select {
	case <-run.scheduled:
	case <-time.After(5 * time.Second):
		t.Fatal("the schedule waited for the requests in flight")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("250 ms of schedule took %v", took)
	}
	// Let the 10 requests reach the server before any answers.
	for deadline := time.Now().Add(5 * time.Second); inFlight.Load() < 10 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	close(release)
	started, dropped := run.wait()
	if started != 10 || dropped != 90 {
		t.Errorf("started %d, dropped %d; want 10, 90", started, dropped)
	}
	if n := answered.Load(); n != 10 {
		t.Errorf("%d answered, want 10", n)
	}
	if m := most.Load(); m != 10 {
		t.Errorf("%d requests in flight at most, want 10", m)
	}
}

func TestArrivalStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	a := arrival{rate: 100, duration: time.Hour, maxVUs: 5}
	var n atomic.Int64
	run := a.start(ctx, time.Now(), func(context.Context, int64) {
		if n.Add(1) == 3 {
			cancel()
		}
	})
	done := make(chan struct{})
	go func() { run.wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the schedule went on after the cancel")
	}
}

// k6's p(x): linear interpolation between the ranks around x·(n-1).
func TestPercentile(t *testing.T) {
	v := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct{ p, want float64 }{
		{0, 1}, {0.5, 5.5}, {0.9, 9.1}, {0.95, 9.55}, {0.99, 9.91}, {1, 10},
	} {
		if got := percentile(v, c.p); fmt.Sprintf("%.6f", got) != fmt.Sprintf("%.6f", c.want) {
			t.Errorf("p(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := percentile(nil, 0.5); got != 0 {
		t.Errorf("no samples: %v", got)
	}
	if got := percentile([]float64{7}, 0.99); got != 7 {
		t.Errorf("one sample: %v", got)
	}
	var tr trend
	for _, ms := range []int{30, 10, 20} {
		tr.add(time.Duration(ms) * time.Millisecond)
	}
	if got := percentile(tr.sorted(), 0.5); got != 20 {
		t.Errorf("median of 10, 20, 30 ms: %v", got)
	}
}

// The open loop against a server where 1 request in 10 is slow (at least
// 200 ms) and 1 in 4 fails: the counts are exact, the median is a fast one
// and the p99 a slow one.
func TestOpenLoopResult(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		i := n.Add(1)
		if i%10 == 0 {
			time.Sleep(200 * time.Millisecond)
		}
		if i%4 == 0 {
			http.Error(w, "no", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()

	res := openLoop(context.Background(), srv.URL, []byte(`{}`), arrival{rate: 200, duration: time.Second, maxVUs: 100})
	if res.requests != 200 || res.dropped != 0 || res.failed != 50 {
		t.Fatalf("requests %d, dropped %d, failed %d; want 200, 0, 50", res.requests, res.dropped, res.failed)
	}
	if p := percentile(res.lat, 0.99); p < 200 {
		t.Errorf("p99 %.1f ms, want the 200 ms requests", p)
	}
	if p := percentile(res.lat, 0.5); p >= 200 {
		t.Errorf("p50 %.1f ms, want a fast request", p)
	}
	m := regexp.MustCompile(`^RESULT rps=(\d+) p50_us=(\d+) p99_us=(\d+) failed=50 dropped=0$`).FindStringSubmatch(res.line())
	if m == nil {
		t.Fatalf("result line %q", res.line())
	}
	// 200 requests over at least 1.2 s (the last slow one ends 200 ms after the schedule).
	if rps, _ := strconv.Atoi(m[1]); rps < 20 || rps > 170 {
		t.Errorf("rps %d", rps)
	}
	if p99, _ := strconv.Atoi(m[3]); p99 < 200000 {
		t.Errorf("p99_us %d", p99)
	}
}

// Answers are classified as the k6 script did: a status other than 200 is
// HTTP_<status>, an unreadable body BAD_RESPONSE, GraphQL errors are kept.
func TestGQLErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "who", http.StatusUnauthorized)
			return
		}
		switch r.URL.Query().Get("case") {
		case "bad":
			_, _ = w.Write([]byte("not json"))
		case "sold":
			_, _ = w.Write([]byte(`{"errors":[{"message":"sold out","extensions":{"code":"OUT_OF_STOCK"}}],"data":null}`))
		default:
			_, _ = w.Write([]byte(`{"data":{"x":1}}`))
		}
	}))
	defer srv.Close()
	for _, c := range []struct{ q, token, code string }{
		{"", "nobody", "HTTP_401"},
		{"?case=bad", "tok", "BAD_RESPONSE"},
		{"?case=sold", "tok", "OUT_OF_STOCK"},
		{"", "tok", ""},
	} {
		g := &gqlClient{http: newClient(1, 5*time.Second), url: srv.URL + c.q}
		if got := g.do(context.Background(), "{x}", nil, c.token).code(); got != c.code {
			t.Errorf("%s %s: code %q, want %q", c.q, c.token, got, c.code)
		}
	}
	g := &gqlClient{http: newClient(1, 5*time.Second), url: "http://127.0.0.1:1/graphql"}
	if got := g.do(context.Background(), "{x}", nil, "").code(); got != "HTTP_0" {
		t.Errorf("no server: %q", got)
	}
}
