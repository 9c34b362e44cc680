package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/blog"
)

func benchLogin(b *testing.B, app *App, sms *smsBox, phone string) (string, int64) {
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

// rssBytes is the process's resident set size.
func rssBytes() int64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// BenchmarkFeedDelivery5000: 500 followers of one author hold 10 websocket
// subscriptions each (5 000, graphql-transport-ws) on one instance. Each
// iteration publishes a blog and waits until all 5 000 received it; the
// latencies from createBlog returning to receipt (0 when the event arrived
// before the call returned) give p50/p99. Memory per idle subscription is
// the RSS delta of opening them divided by 5 000; the clients run in the same
// process, so this counts both ends and is an upper bound for the server.
func BenchmarkFeedDelivery5000(b *testing.B) {
	const users, perUser = 500, 10
	app, url, sms := benchServer(b, func(c *Config) { c.RateLimits = false })
	ctx := context.Background()
	_, authorID := benchLogin(b, app, sms, "13800000000")
	var tokens []string
	for i := range users {
		tok, id := benchLogin(b, app, sms, fmt.Sprintf("1380001%04d", i))
		if err := app.resolver.Follows.Set(ctx, id, authorID, true); err != nil {
			b.Fatal(err)
		}
		tokens = append(tokens, tok)
	}
	debug.FreeOSMemory() // return freed heap, so the RSS delta is the subscriptions'
	rss0, heap0, g0, st0 := rssBytes(), liveBytes(), runtime.NumGoroutine(), stackBytes()
	var conns []*websocket.Conn
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second,
		ReadBufferSize: 1024, WriteBufferPool: &sync.Pool{}} // keep the clients' share of the measured memory small
	wsURL := "ws" + strings.TrimPrefix(url, "http") + "/graphql"
	for _, tok := range tokens {
		for range perUser {
			c, _, err := d.Dial(wsURL, nil)
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
	b.Cleanup(func() {
		for _, c := range conns {
			_ = c.Close()
		}
	})
	for app.broker == nil || activeFeedItems(app) < users*perUser {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	debug.FreeOSMemory()
	perSub := float64(rssBytes()-rss0) / float64(users*perUser)
	perSubHeap := float64(liveBytes()-heap0) / float64(users*perUser)
	perSubG := float64(runtime.NumGoroutine()-g0) / float64(users*perUser)
	perSubStack := float64(stackBytes()-st0) / float64(users*perUser)
	if os.Getenv("HMDP_BENCH_STACKS") != "" {
		buf := make([]byte, 64<<20)
		_ = os.WriteFile(os.Getenv("HMDP_BENCH_STACKS"), buf[:runtime.Stack(buf, true)], 0o644)
	}

	// One reader per connection records when each blog arrived.
	type receipt struct {
		blog string
		at   time.Time
	}
	got := make(chan receipt, len(conns))
	var readers sync.WaitGroup
	for _, c := range conns {
		readers.Go(func() {
			for {
				var m wsMessage
				if err := c.ReadJSON(&m); err != nil {
					return
				}
				if m.Type != "next" {
					continue
				}
				var r struct {
					Data struct{ FeedItems struct{ ID string } }
				}
				_ = json.Unmarshal(m.Payload, &r)
				got <- receipt{r.Data.FeedItems.ID, time.Now()}
			}
		})
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		bl, err := app.resolver.Blogs.Create(ctx, authorID, blog.Input{Title: fmt.Sprint("b", i), Content: "c"})
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
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(perSub/1024, "KB-rss/idle-sub")
	b.ReportMetric(perSubHeap/1024, "KB-heap+stack/idle-sub")
	b.ReportMetric(perSubStack/1024, "KB-stack/idle-sub")
	b.ReportMetric(perSubG, "goroutines/idle-sub")
	for _, c := range conns {
		_ = c.Close()
	}
	readers.Wait()
}

// liveBytes is the heap in use plus goroutine stacks.
func liveBytes() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}

func stackBytes() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.StackInuse)
}

func activeFeedItems(app *App) int {
	mfs, _ := app.registry.Gather()
	for _, mf := range mfs {
		if mf.GetName() == "hmdp_subscriptions_active" {
			for _, m := range mf.GetMetric() {
				return int(m.GetGauge().GetValue())
			}
		}
	}
	return 0
}
