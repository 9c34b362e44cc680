package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/blog"
)

func benchLogin(b *testing.B, app *App, sms *smsBox, phone string) (string, int64) {
	b.Helper()
	ctx := context.Background()
	if err := app.auth.SendCode(ctx, phone, "127.0.0.1"); err != nil {
		b.Fatal(err)
	}
	tok, u, err := app.auth.LoginWithCode(ctx, phone, sms.code(phone))
	if err != nil {
		b.Fatal(err)
	}
	return tok, u.ID
}

// BenchmarkFeedDelivery5000: 500 followers of one author hold 10 websocket
// subscriptions each (5 000, graphql-transport-ws) on one server instance.
// That instance is a process of its own (this test binary re-executed as the
// server), so its memory is measured apart from the clients' and the two do
// not share a scheduler or a garbage collector. The benchmark process holds
// the clients and a second instance that makes the blogs; events reach the
// subscribers' instance through Redis, as between any two instances.
//
// Each iteration publishes a blog and waits until all 5 000 received it; the
// latencies from createBlog returning to receipt (0 when the event arrived
// before the call returned) give p50/p99. Memory per idle subscription is the
// server process's RSS delta of opening them, after a garbage collection,
// divided by 5 000, with the split into heap and stacks; "clients" is the
// clients' share (heap and stacks), which the benchmark counted too when
// clients and server shared a process.
func BenchmarkFeedDelivery5000(b *testing.B) {
	const users, perUser = 500, 10
	const n = users * perUser
	cfg := benchConfig(b)
	cfg.RateLimits = false
	if cfg.MySQLDSN == "" {
		// Embedded: both processes use the SQLite file in DataDir and this Redis.
		cfg.RedisAddrs = []string{miniredis.RunT(b).Addr()}
	}
	app, _, sms := benchApp(b, cfg)
	ctx := context.Background()
	_, authorID := benchLogin(b, app, sms, "13800000000")
	var tokens []string
	for i := range users {
		tok, id := benchLogin(b, app, sms, fmt.Sprintf("1380001%04d", i))
		if err := app.resolver.FollowService.Set(ctx, id, authorID, true); err != nil {
			b.Fatal(err)
		}
		tokens = append(tokens, tok)
	}

	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	// The test binary serves as the real one would, with the stack setting
	// the real binary makes for itself (server/stacks.go).
	srv := startProcess(b, exe, processEnv(cfg, benchServeEnv+"=1", "HMDP_RATE_LIMITS=false", "GODEBUG=adaptivestackstart=0"))
	before := measureIdle(b, srv)
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second,
		ReadBufferSize: 1024, WriteBufferPool: &sync.Pool{}} // keep the clients' share small
	wsURL := "ws" + strings.TrimPrefix(srv.url, "http") + "/graphql"
	var conns []*websocket.Conn
	b.Cleanup(func() {
		for _, c := range conns {
			_ = c.Close()
		}
	})
	for _, tok := range tokens {
		for range perUser {
			c, res, err := d.Dial(wsURL, nil)
			if res != nil {
				_ = res.Body.Close() // the handshake response, already read by the dialer
			}
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, c)
			_ = c.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{"authorization": "Bearer " + tok}})
			var ack wsMessage
			if err := c.ReadJSON(&ack); err != nil || ack.Type != "connection_ack" {
				b.Fatalf("ack: %v %v", ack, err)
			}
			_ = c.WriteJSON(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": `subscription { feedItems { id title } }`}})
		}
	}
	for scrape(b, srv.url)[`hmdp_subscriptions_active{kind="feedItems"}`] < n {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	after := measureIdle(b, srv)

	// One reader per connection records when each blog arrived (and answers
	// the server's pings, as a real client must, or the server drops it).
	type receipt struct {
		blog string
		at   time.Time
	}
	got := make(chan receipt, len(conns))
	var readers sync.WaitGroup
	for _, c := range conns {
		readers.Go(func() {
			for {
				var m struct { // decoded in one pass: the clients share the cores with the server
					Type    string
					Payload struct {
						Data struct{ FeedItems struct{ ID string } }
					}
				}
				if err := c.ReadJSON(&m); err != nil {
					return
				}
				switch m.Type {
				case "ping":
					_ = c.WriteJSON(wsMessage{Type: "pong"})
				case "next":
					got <- receipt{m.Payload.Data.FeedItems.ID, time.Now()}
				}
			}
		})
	}
	var lat []time.Duration
	profiling := os.Getenv("HMDP_BENCH_PROFILE") != ""
	if profiling { // the server's CPU profile covers the deliveries only
		_ = srv.cmd.Process.Signal(syscall.SIGUSR2)
	}
	b.ResetTimer()
	for i := range b.N {
		bl, err := app.resolver.BlogService.Create(ctx, authorID, blog.Input{Title: fmt.Sprint("b", i), Content: "c"})
		if err != nil {
			b.Fatal(err)
		}
		returned := time.Now()
		want := strconv.FormatInt(bl.ID, 10)
		for range conns {
			select {
			case r := <-got:
				if r.blog != want {
					b.Fatalf("got blog %s, want %s", r.blog, want)
				}
				lat = append(lat, max(0, r.at.Sub(returned)))
			case <-time.After(30 * time.Second):
				b.Fatal("not every subscriber got the blog")
			}
		}
	}
	b.StopTimer()
	if profiling {
		_ = srv.cmd.Process.Signal(syscall.SIGUSR2)
		srv.waitLog(b, "profiled", 30*time.Second)
	}
	slices.Sort(lat)
	per := func(x, y float64) float64 { return (y - x) / n }
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(per(before.rss, after.rss)/1024, "KB-rss/idle-sub")
	b.ReportMetric(per(before.heap, after.heap)/1024, "KB-heap/idle-sub")
	b.ReportMetric(per(before.stack, after.stack)/1024, "KB-stack/idle-sub")
	b.ReportMetric(per(before.goroutines, after.goroutines), "goroutines/idle-sub")
	b.ReportMetric(per(before.clients, after.clients)/1024, "KB-clients/idle-sub")
	for _, c := range conns {
		_ = c.Close()
	}
	readers.Wait()
	conns = nil // the cleanup's closure outlives this run (b.N = 1, then b.N): let the next measure without them
}

// idleMemory is the server process's memory, and the clients'.
type idleMemory struct {
	rss, heap, stack, goroutines float64 // the server's
	// clients is this process's live heap and stacks: its resident size
	// would not do, as the runtime keeps what an earlier run of the
	// benchmark function (b.N = 1, then b.N) freed.
	clients float64
}

// measureIdle collects garbage in both processes, then reads their resident
// sizes and the server's Go memory statistics.
func measureIdle(b *testing.B, srv *serverProcess) idleMemory {
	b.Helper()
	if err := srv.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		b.Fatal(err)
	}
	srv.waitLog(b, "freed", 30*time.Second)
	m := idleMemory{rss: float64(rssBytes(strconv.Itoa(srv.cmd.Process.Pid)))}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.clients = float64(ms.HeapAlloc + ms.StackInuse)
	s := scrape(b, srv.url)
	m.heap, m.stack, m.goroutines = s["go_memstats_heap_inuse_bytes"], s["go_memstats_stack_inuse_bytes"], s["go_goroutines"]
	return m
}

// rssBytes is the resident set size of process pid.
func rssBytes(pid string) int64 {
	raw, err := os.ReadFile("/proc/" + pid + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// scrape reads a server's /metrics: sample value by series (name{labels}).
func scrape(b *testing.B, url string) map[string]float64 {
	b.Helper()
	resp, err := httpGet(b.Context(), url+"/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		series, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(series, "#") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			out[series] = v
		}
	}
	return out
}
