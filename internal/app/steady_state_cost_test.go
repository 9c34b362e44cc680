package app

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/testenv"
)

// With HMDP_PAGE_COST_VIEWS=n (and the real back ends), each of the web
// app's Shop, Home and HotBlogs operations is sent n times anonymous and n
// times logged in to a warm server: no request may run a SQL statement, and
// the CPU per request of this process (server in process plus client) and,
// with HMDP_PAGE_COST_MYSQLD_PID, of the MySQL server is logged
// (docs/BENCHMARKS.md). Other users of that MySQL server count too.
func TestWebAppPagesCost(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("HMDP_PAGE_COST_VIEWS"))
	if n <= 0 {
		t.Skip("HMDP_PAGE_COST_VIEWS not set: a measurement, run on demand")
	}
	cfg := testConfig(t, testenv.Real)
	cfg.RateLimits = false
	var stmts atomic.Int64
	ts := startApp(t, testenv.Real, cfg, Options{EntOptions: []ent.Option{ent.TraceSQL(func(ctx context.Context, _ ...any) {
		if onBehalfOfRequest(ctx) {
			stmts.Add(1)
		}
	})}})
	buyer := ts.login("13800000001")
	sizes, err := testenv.WebAppPageSizes("../..")
	if err != nil {
		t.Fatal(err)
	}
	mysqld := os.Getenv("HMDP_PAGE_COST_MYSQLD_PID")
	for _, name := range []string{"Shop", "Home", "HotBlogs"} {
		doc := webAppOp(t, name)
		vars := map[string]any{"id": "1", "first": sizes[name]}
		if name == "Home" {
			vars = nil
		}
		for _, tok := range []string{"", buyer} {
			ts.ok(tok, doc, vars, nil) // warm
		}
		stmts.Store(0)
		self, db := procCPU("self"), procCPU(mysqld)
		for range n {
			ts.ok("", doc, vars, nil)
			ts.ok(buyer, doc, vars, nil)
		}
		reqs := float64(2 * n)
		t.Logf("%s: %.2f statements/request; CPU/request: this process %.0f µs, mysqld %.0f µs",
			name, float64(stmts.Load())/reqs, float64(procCPU("self")-self)*1e4/reqs, float64(procCPU(mysqld)-db)*1e4/reqs)
		if s := stmts.Load(); s != 0 {
			t.Errorf("%s: %d statements in %d warm requests, want 0", name, s, 2*n)
		}
	}
}

// procCPU is a process's utime+stime in clock ticks (1/100 s); 0 for none.
func procCPU(pid string) int64 {
	if pid == "" {
		return 0
	}
	raw, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndex(s, ")")+2:])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return u + st
}
