// Command soakwatch samples the instances and back ends of a soak (make
// soak, scripts/load/soak.sh) every -interval for -duration: per instance
// the heap in use, resident memory and goroutines (its /metrics) and open
// file descriptors (/proc/PID/fd); the Redis keys under the run's prefix
// and those of them without a TTL (SCAN, then PTTL in a pipeline, at most
// -max-scan keys), Redis' used_memory; the MySQL connections to the run's
// database. It prints a line per sample, then writes soak.csv and soak.html
// (a chart per measure) to -out and judges each series (verdict.go): it
// exits 1 when one grows in the last half of the run, or could not be read.
//
//	soakwatch -metrics "ADDR ..." -pids "PID ..." -redis ADDR -prefix P -mysql-dsn DSN -db NAME -out DIR
package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql" // the MySQL connections' count
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/scripts/load/chart"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "soakwatch:", err)
		os.Exit(1)
	}
}

// measure is one thing sampled, per instance or once, and how its growth
// is judged (judged false: drawn and listed, not judged).
type measure struct {
	key, title  string
	unit        chart.Unit
	perInstance bool
	judged      bool
	rule        rule
}

// The thresholds, each the least growth over the last half of the soak
// that fails it, and at least that share of the series' level.
var measures = []measure{
	{key: "heap", title: "Heap in use (go_memstats_heap_inuse_bytes)", unit: chart.Bytes, perInstance: true, judged: true, rule: rule{abs: 8 << 20, rel: 0.2}},
	{key: "rss", title: "Resident memory (process_resident_memory_bytes)", unit: chart.Bytes, perInstance: true, judged: true, rule: rule{abs: 16 << 20, rel: 0.2}},
	{key: "goroutines", title: "Goroutines (go_goroutines)", unit: chart.Count, perInstance: true, judged: true, rule: rule{abs: 25, rel: 0.1}},
	{key: "fds", title: "Open file descriptors (/proc/PID/fd)", unit: chart.Count, perInstance: true, judged: true, rule: rule{abs: 25, rel: 0.1}},
	{key: "redis_nottl", title: "Redis keys without a TTL, under the run's prefix", unit: chart.Count, judged: true, rule: rule{abs: 50, rel: 0.05}},
	{key: "redis_keys", title: "Redis keys under the run's prefix (with a TTL too: sessions live 30 minutes)", unit: chart.Count},
	{key: "redis_mem", title: "Redis used_memory", unit: chart.Bytes, judged: true, rule: rule{abs: 8 << 20, rel: 0.2}},
	{key: "mysql_conns", title: "MySQL connections to the run's database (information_schema.PROCESSLIST)", unit: chart.Count, judged: true, rule: rule{abs: 5, rel: 0.25}},
}

// The /metrics series read per instance, by measure.
var metricNames = map[string]string{
	"heap":       "go_memstats_heap_inuse_bytes",
	"rss":        "process_resident_memory_bytes",
	"goroutines": "go_goroutines",
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("soakwatch", flag.ContinueOnError)
	metricsAddrs := fs.String("metrics", "", "the instances' metrics listeners, host:port, space separated")
	pids := fs.String("pids", "", "the instances' process ids, in the same order")
	redisAddr := fs.String("redis", "", "Redis host:port")
	prefix := fs.String("prefix", "", "the run's Redis key prefix")
	dsn := fs.String("mysql-dsn", "", "MySQL DSN (any database; information_schema is read)")
	dbName := fs.String("db", "", "the run's MySQL database")
	interval := fs.Duration("interval", 10*time.Second, "time between samples")
	duration := fs.Duration("duration", 10*time.Minute, "how long the load runs from now: the samples stop an interval before its end")
	maxScan := fs.Int("max-scan", 200_000, "keys SCANned per sample at most (the counts are of those then)")
	out := fs.String("out", "", "directory to write soak.csv and soak.html to")
	var intro []string
	fs.Func("intro", "a paragraph of the report (repeatable)", func(s string) error { intro = append(intro, s); return nil })
	if err := fs.Parse(args); err != nil {
		return err
	}
	s := &sampler{metrics: strings.Fields(*metricsAddrs), prefix: *prefix, dbName: *dbName, maxScan: *maxScan,
		http: &http.Client{Timeout: 5 * time.Second}}
	for _, p := range strings.Fields(*pids) {
		n, err := strconv.Atoi(p)
		if err != nil {
			return fmt.Errorf("-pids: %w", err)
		}
		s.pids = append(s.pids, n)
	}
	if len(s.metrics) == 0 || len(s.pids) != len(s.metrics) || *redisAddr == "" || *prefix == "" || *dsn == "" || *dbName == "" || *out == "" {
		return errors.New("needs -metrics, -pids (as many), -redis, -prefix, -mysql-dsn, -db and -out")
	}
	s.rdb = redis.NewClient(&redis.Options{Addr: *redisAddr})
	defer func() { _ = s.rdb.Close() }()
	db, err := sql.Open("mysql", *dsn)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	db.SetMaxOpenConns(1)
	s.db = db

	var samples []sample
	end := time.Now().Add(*duration)
	tick := time.NewTicker(*interval)
	defer tick.Stop()
	fmt.Fprintln(stdout, header(len(s.metrics)))
	for {
		smp := s.take(ctx)
		samples = append(samples, smp)
		fmt.Fprintln(stdout, row(smp, samples[0].t, len(s.metrics)))
		for _, e := range smp.errs {
			fmt.Fprintln(stdout, "  ", e)
		}
		// The last sample an interval before the end: while the load still
		// runs (one taken as it stops would read as a fall, hiding a rise).
		if !time.Now().Add(*interval).Before(end) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	rep := report(samples, len(s.metrics), intro)
	if err := writeFiles(*out, samples, rep.page); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	for _, l := range rep.lines {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(*out, "soak.html"))
	if len(rep.failed) > 0 {
		return fmt.Errorf("FAIL: %s", strings.Join(rep.failed, "; "))
	}
	fmt.Fprintln(stdout, "soak OK: no series grows in the last half")
	return nil
}

// sampler reads the measures.
type sampler struct {
	metrics []string
	pids    []int
	rdb     redis.UniversalClient
	prefix  string
	db      *sql.DB
	dbName  string
	http    *http.Client
	maxScan int
}

// sample is one round of readings: series key ("heap/1", "redis_mem") to
// value, NaN where a reading failed (errs says why).
type sample struct {
	t    time.Time
	v    map[string]float64
	errs []string
}

// key names a series: a measure, and the instance (1-based) when per instance.
func key(m string, instance int) string {
	if instance == 0 {
		return m
	}
	return m + "/" + strconv.Itoa(instance)
}

func (s *sampler) take(ctx context.Context) sample {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	smp := sample{t: time.Now(), v: map[string]float64{}}
	fail := func(what string, err error) { smp.errs = append(smp.errs, what+": "+err.Error()) }
	for i, addr := range s.metrics {
		n := i + 1
		vals, err := s.scrape(ctx, addr)
		if err != nil {
			fail("instance "+strconv.Itoa(n)+" metrics", err)
		}
		for m, name := range metricNames {
			v, ok := vals[name]
			if !ok {
				v = math.NaN()
			}
			smp.v[key(m, n)] = v
		}
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.pids[i]))
		if err != nil {
			fail("instance "+strconv.Itoa(n)+" fds", err)
			smp.v[key("fds", n)] = math.NaN()
		} else {
			smp.v[key("fds", n)] = float64(len(fds))
		}
	}
	all, noTTL, complete, err := countKeys(ctx, s.rdb, s.prefix, s.maxScan)
	if err != nil {
		fail("redis keys", err)
		all, noTTL = -1, -1
	} else if !complete {
		smp.errs = append(smp.errs, fmt.Sprintf("redis keys: counted the first %d only (-max-scan)", s.maxScan))
	}
	smp.v["redis_keys"], smp.v["redis_nottl"] = nan(all), nan(noTTL)
	mem, err := usedMemory(ctx, s.rdb)
	if err != nil {
		fail("redis used_memory", err)
		mem = math.NaN()
	}
	smp.v["redis_mem"] = mem
	var conns int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ?", s.dbName).Scan(&conns); err != nil {
		fail("mysql connections", err)
		conns = -1
	}
	smp.v["mysql_conns"] = nan(conns)
	return smp
}

// nan is n, or NaN for -1 (not read).
func nan(n int) float64 {
	if n < 0 {
		return math.NaN()
	}
	return float64(n)
}

// scrape reads an instance's /metrics and returns the values of the
// unlabelled series named in metricNames.
func (s *sampler) scrape(ctx context.Context, addr string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", http.NoBody)
	if err != nil {
		return nil, err
	}
	res, err := s.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return parseMetrics(res.Body)
}

// parseMetrics picks metricNames' series out of Prometheus' text format
// (unlabelled gauges: "name value").
func parseMetrics(r io.Reader) (map[string]float64, error) {
	want := map[string]bool{}
	for _, n := range metricNames {
		want[n] = true
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !want[f[0]] {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return out, fmt.Errorf("%s: %w", f[0], err)
		}
		out[f[0]] = v
	}
	if err := sc.Err(); err != nil {
		return out, err
	}
	for n := range want {
		if _, ok := out[n]; !ok {
			return out, fmt.Errorf("no %s", n)
		}
	}
	return out, nil
}

// countKeys counts the keys under prefix and those without a TTL: SCAN,
// then PTTL of each batch in one pipeline, at most limit keys (complete
// false when it stopped there).
func countKeys(ctx context.Context, rdb redis.UniversalClient, prefix string, limit int) (all, noTTL int, complete bool, err error) {
	match := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `]`, `\]`).Replace(prefix) + "*"
	var cursor uint64
	for {
		var keys []string
		keys, cursor, err = rdb.Scan(ctx, cursor, match, 1000).Result()
		if err != nil {
			return all, noTTL, false, err
		}
		if len(keys) > 0 {
			pipe := rdb.Pipeline()
			ttls := make([]*redis.DurationCmd, len(keys))
			for i, k := range keys {
				ttls[i] = pipe.PTTL(ctx, k)
			}
			if _, err := pipe.Exec(ctx); err != nil {
				return all, noTTL, false, err
			}
			for _, c := range ttls {
				switch c.Val() {
				case -2: // gone since the SCAN
				case -1:
					all++
					noTTL++
				default:
					all++
				}
			}
		}
		if cursor == 0 {
			return all, noTTL, true, nil
		}
		if all >= limit {
			return all, noTTL, false, nil
		}
	}
}

// usedMemory is INFO memory's used_memory.
func usedMemory(ctx context.Context, rdb redis.UniversalClient) (float64, error) {
	info, err := rdb.Info(ctx, "memory").Result()
	if err != nil {
		return math.NaN(), err
	}
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			return strconv.ParseFloat(v, 64)
		}
	}
	return math.NaN(), errors.New("INFO memory has no used_memory")
}
