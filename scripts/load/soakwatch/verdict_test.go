package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/scripts/load/chart"
)

var t0 = time.Unix(1_800_000_000, 0)

// series is f sampled every 10 s for n samples.
func series(n int, f func(i int) float64) []chart.Point {
	ps := make([]chart.Point, n)
	for i := range ps {
		ps[i] = chart.Point{T: t0.Add(time.Duration(i) * 10 * time.Second), V: f(i)}
	}
	return ps
}

const mib = 1 << 20

func TestJudge(t *testing.T) {
	heap := rule{abs: 8 * mib, rel: 0.2}
	for _, c := range []struct {
		name   string
		points []chart.Point
		rule   rule
		want   string
	}{
		// A GC sawtooth around 40 MiB: up and down by 30 MiB, no trend.
		{"sawtooth", series(60, func(i int) float64 { return float64(40*mib + (i%4)*10*mib) }), heap, stateOK},
		// A leak: 1 MiB more every sample (10 s), 30 MiB a half.
		{"leak", series(60, func(i int) float64 { return float64(40*mib + i*mib) }), heap, stateGrows},
		// The same leak under the sawtooth.
		{"leak under sawtooth", series(60, func(i int) float64 { return float64(40*mib + i*mib + (i%4)*10*mib) }), heap, stateGrows},
		// A pool filling up in the first minutes, then full.
		{"warm-up", series(60, func(i int) float64 { return float64(min(i, 20)) * 20 }), rule{abs: 25, rel: 0.1}, stateWarming},
		// Growing, but by less than the floor: 10 goroutines a half.
		{"under the floor", series(60, func(i int) float64 { return 300 + float64(i)/3 }), rule{abs: 25, rel: 0.01}, stateOK},
		// Growing by more than the floor but less than its share of a big level.
		{"under the share", series(60, func(i int) float64 { return 100_000 + float64(i) }), rule{abs: 5, rel: 0.05}, stateOK},
		{"too few", series(5, func(i int) float64 { return float64(i) }), heap, stateTooFew},
		// Failed readings are left out, not read as 0 (which would look like a drop).
		{"gaps", series(60, func(i int) float64 {
			if i%7 == 3 {
				return math.NaN()
			}
			return float64(40*mib + i*mib)
		}), heap, stateGrows},
		{"mostly gaps", series(60, func(i int) float64 {
			if i > 4 {
				return math.NaN()
			}
			return float64(i)
		}), heap, stateTooFew},
	} {
		j := judge(c.points, c.rule)
		if j.state != c.want {
			t.Errorf("%s: %s (first half %+.0f, last half %+.0f, limit %.0f), want %s", c.name, j.state, j.first, j.last, j.limit, c.want)
		}
	}
}

func TestJudgeFigures(t *testing.T) {
	// 2 a second for 590 s: each half's fitted growth is 2 × 295.
	j := judge(series(60, func(i int) float64 { return 1000 + float64(i)*20 }), rule{abs: 100, rel: 0.5})
	if math.Abs(j.first-590) > 1e-6 || math.Abs(j.last-590) > 1e-6 || j.level != 1590 || j.limit != 795 || j.state != stateOK {
		t.Errorf("%+v", j)
	}
}

// The report: a growing series fails the soak and says so; a flat one
// does not; every measure has its chart.
func TestReport(t *testing.T) {
	var samples []sample
	for i := range 30 {
		s := sample{t: t0.Add(time.Duration(i) * 10 * time.Second), v: map[string]float64{}}
		for n := 1; n <= 2; n++ {
			s.v[key("heap", n)] = float64(50*mib + (i%3)*4*mib)
			s.v[key("rss", n)] = 120 * mib
			s.v[key("goroutines", n)] = 400
			s.v[key("fds", n)] = 90
		}
		s.v[key("goroutines", 2)] = float64(400 + 5*i) // a goroutine leak on instance 2
		s.v["redis_keys"], s.v["redis_nottl"], s.v["redis_mem"], s.v["mysql_conns"] = 2000, 900, 12*mib, 8
		samples = append(samples, s)
	}
	r := report(samples, 2, []string{"3 minutes"})
	if len(r.failed) != 1 || r.failed[0] != "goroutines instance 2 GROWS" {
		t.Errorf("failed %q", r.failed)
	}
	if len(r.page.Charts) != len(measures) {
		t.Errorf("%d charts, want one per measure (%d)", len(r.page.Charts), len(measures))
	}
	text := strings.Join(r.lines, "\n")
	for _, want := range []string{"goroutines instance 1", "GROWS", "redis_nottl", "mysql_conns"} {
		if !strings.Contains(text, want) {
			t.Errorf("verdict lines lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "redis_keys") {
		t.Error("redis_keys (sessions expire in 30 min) is not judged, so not in the verdict lines")
	}
	dir := t.TempDir()
	if err := writeFiles(dir, samples, r.page); err != nil {
		t.Fatal(err)
	}
}

func TestReportWithoutReadingsFails(t *testing.T) {
	var samples []sample
	for i := range 10 {
		samples = append(samples, sample{t: t0.Add(time.Duration(i) * time.Second), v: map[string]float64{"redis_mem": math.NaN()}})
	}
	r := report(samples, 1, nil)
	if len(r.failed) != 7 { // heap, rss, goroutines, fds of the instance; keys without TTL, memory, connections
		t.Errorf("failed %q", r.failed)
	}
}

func TestParseMetrics(t *testing.T) {
	text := `# HELP go_goroutines Number of goroutines that currently exist.
# TYPE go_goroutines gauge
go_goroutines 417
go_memstats_heap_inuse_bytes 5.1150848e+07
go_memstats_heap_inuse_bytes_other{x="1"} 3
process_resident_memory_bytes 1.23e+08
hmdp_subscriptions_active{kind="feed"} 67
`
	got, err := parseMetrics(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if got["go_goroutines"] != 417 || got["go_memstats_heap_inuse_bytes"] != 51150848 || got["process_resident_memory_bytes"] != 1.23e8 {
		t.Errorf("%v", got)
	}
	if _, err := parseMetrics(strings.NewReader("go_goroutines 3\n")); err == nil || !strings.Contains(err.Error(), "no ") {
		t.Errorf("missing series not reported: %v", err)
	}
}

// Keys without a TTL are counted under the prefix only, past SCAN's pages.
func TestCountKeys(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer func() { _ = rdb.Close() }()
	for i := range 2500 {
		k := "soak1:k" + strconv.Itoa(i)
		if err := mr.Set(k, "v"); err != nil {
			t.Fatal(err)
		}
		if i%5 != 0 { // 500 without TTL
			mr.SetTTL(k, time.Hour)
		}
	}
	for _, k := range []string{"other:key", "soak1*:trap"} { // another prefix; a glob character in a key is no pattern
		if err := mr.Set(k, "v"); err != nil {
			t.Fatal(err)
		}
	}
	mr.SetTTL("soak1*:trap", time.Hour)
	all, noTTL, complete, err := countKeys(t.Context(), rdb, "soak1:", 1_000_000)
	if err != nil || all != 2500 || noTTL != 500 || !complete {
		t.Errorf("all %d, no TTL %d, complete %v, err %v", all, noTTL, complete, err)
	}
	all, _, complete, err = countKeys(t.Context(), rdb, "soak1*", 1_000_000)
	if err != nil || all != 1 || !complete {
		t.Errorf("prefix with *: all %d, complete %v, err %v", all, complete, err)
	}
	all, _, complete, err = countKeys(t.Context(), rdb, "soak1:", 1000)
	if err != nil || complete || all < 1000 || all >= 2500 {
		t.Errorf("bounded: all %d, complete %v, err %v", all, complete, err)
	}
}
