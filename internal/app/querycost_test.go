package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

// The most a query may cost in SQL statements and Redis round trips,
// whatever its page sizes: the deepest query the depth limit admits, over
// pages of 5 and of 50 items. Each kind of read is one batch per level of
// the query at most (keys already loaded for the response are not read
// again), so the cost follows the query's shape, never the number of items.
// Measured: 8 to 19 statements and 5 to 12 round trips (the page queries,
// then a batch per kind and level: vouchers and their sales, shops, users,
// profiles; the session, visitor counts, likes, follow state, held orders;
// how the batches fall varies a little from run to run). Before batching,
// pages of 5 cost over 1200 statements and 690 round trips.
const (
	maxQuerySQL   = 30
	maxQueryRedis = 20
)

// costShops is how many shops (each with vouchers), blogs and orders
// seedQueryCost adds: enough for full pages of 50.
const costShops = 50

// startCountedWith is startCounted with a configuration edit.
func startCountedWith(t *testing.T, backend string, sqlCount *atomic.Int64, edit func(*config.Config)) *testServer {
	t.Helper()
	cfg := testConfig(t, backend)
	edit(&cfg)
	return startApp(t, backend, cfg, Options{
		DataloaderWait: 100 * time.Millisecond, // see startCounted
		EntOptions: []ent.Option{ent.TraceSQL(func(ctx context.Context, _ ...any) {
			if onBehalfOfRequest(ctx) {
				sqlCount.Add(1)
			}
		})},
	})
}

// seedQueryCost adds costShops shops of type 1 named costshopNN (through
// createShop, so the shop cache knows them) and writes straight to the
// database, for each shop, a normal voucher, a flash-sale voucher on sale and
// one whose sale has ended, a blog liked by some of six users (who have
// profiles), and an order of viewer's.
func seedQueryCost(t *testing.T, ts *testServer, viewer int64) {
	t.Helper()
	ctx, db := context.Background(), ts.app.db.Client
	now := time.Now().UTC().Truncate(time.Second)
	var users []int64
	for i := range 6 {
		u := db.User.Create().SetPhone(fmt.Sprintf("1370000%04d", i)).SetNickName(fmt.Sprint("cost", i)).SaveX(ctx)
		db.UserInfo.Create().SetID(u.ID).SetCity("杭州").ExecX(ctx)
		users = append(users, u.ID)
	}
	admin := ts.login("13900000000")
	for i := range costShops {
		// Through the API, so the shop cache's Bloom filter knows the shop.
		var created struct{ CreateShop struct{ ID string } }
		ts.ok(admin, `mutation($name: String!) { createShop(input: {name: $name, typeId: "1", address: "a", x: 120.1, y: 30.2}) { id } }`,
			map[string]any{"name": fmt.Sprintf("costshop%02d", i)}, &created)
		var shopID int64
		_, _ = fmt.Sscan(created.CreateShop.ID, &shopID)
		db.Voucher.Create().SetShopID(shopID).SetTitle("normal").SetPayValue(1).SetActualValue(2).
			SetType(0).SetStatus(1).ExecX(ctx)
		live := db.Voucher.Create().SetShopID(shopID).SetTitle("flash").SetPayValue(1).SetActualValue(2).
			SetType(1).SetStatus(1).SaveX(ctx)
		db.SeckillVoucher.Create().SetID(live.ID).SetStock(10).SetBeginTime(now.Add(-time.Hour)).
			SetEndTime(now.Add(time.Hour)).ExecX(ctx)
		ended := db.Voucher.Create().SetShopID(shopID).SetTitle("ended").SetPayValue(1).SetActualValue(2).
			SetType(1).SetStatus(1).SaveX(ctx)
		db.SeckillVoucher.Create().SetID(ended.ID).SetStock(10).SetBeginTime(now.Add(-2 * time.Hour)).
			SetEndTime(now.Add(-time.Hour)).ExecX(ctx)
		likers := users[:i%len(users)]
		b := db.Blog.Create().SetShopID(shopID).SetUserID(users[i%len(users)]).SetTitle(fmt.Sprint("blog", i)).
			SetContent("c").SetLiked(len(likers)).SaveX(ctx)
		for _, u := range likers {
			db.BlogLike.Create().SetBlogID(b.ID).SetUserID(u).ExecX(ctx)
		}
		db.Order.Create().SetID(int64(9_000_000_000 + i)).SetUserID(viewer).SetVoucherID(live.ID).
			SetStatus(enum.OrderUnpaid).ExecX(ctx)
	}
}

// Selections nesting at most d levels below their field (d >= 1), each field
// whose value is read per parent included, with aliases that repeat reads
// (which the response's loaders share).
func shopSel(d int) string {
	s := "id name uvToday visitors: uvToday"
	if d >= 2 {
		s += " type { name } vouchers { " + voucherSel(d-1) + " } again: vouchers { id }"
	}
	return s
}

func voucherSel(d int) string {
	s := "id title type status"
	if d >= 2 {
		s += " seckill { stock } shop { " + shopSel(d-1) + " }"
	}
	return s
}

func userSel(d int) string {
	s := "id nickName followedByMe followerCount followeeCount"
	if d >= 2 {
		s += " info { city credits }"
	}
	return s
}

func blogSel(d int) string {
	s := "id title images liked likedByMe"
	if d >= 2 {
		s += " author { " + userSel(d-1) + " } topLikers { " + userSel(d-1) + " } shop { " + shopSel(d-1) + " }"
	}
	return s
}

// costQuery is the query whose fields nest depth levels: shops found by
// name and by type, hot blogs and the viewer's orders, pages of $n.
func costQuery(depth int) string {
	d := depth - 3 // below edges { node { ... } }
	return `query($n: Int) {
  searchShops(name: "costshop", first: $n) { edges { node { ` + shopSel(d) + ` } } pageInfo { hasNextPage } }
  byType: shops(typeId: "1", first: $n) { edges { node { ` + shopSel(d) + ` } } }
  hotBlogs(first: $n) { edges { node { ` + blogSel(d) + ` } } }
  myOrders(first: $n) { edges { node { id status user { ` + userSel(d-1) + ` } voucher { ` + voucherSel(d-1) + ` } } } }
}`
}

// The deepest query the depth limit admits, over pages of 5 and of 50,
// costs at most maxQuerySQL statements and maxQueryRedis round trips: every
// per-parent read (a shop's vouchers, a voucher's sale and shop, a shop's
// type and visitors, users, their profiles and follow state, likes) is
// batched. The complexity limit is lifted for it (the default refuses it at
// 50, as checked here); under the default limit, the deepest query it
// admits at each page size stays within the same bounds.
func TestQueryCostIsBoundedWhateverThePageSize(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		for _, limited := range []bool{false, true} {
			t.Run(fmt.Sprintf("complexity_limited=%v", limited), func(t *testing.T) {
				var sqlCount atomic.Int64
				ts := startCountedWith(t, backend, &sqlCount, func(c *config.Config) {
					if !limited {
						c.MaxComplexity = 1 << 40
					}
					// The warm request's copies (near cache, session) must still
					// be there for the measured one, however slow the machine
					// (writes drop them as ever).
					c.NearCacheTTL, c.SessionCacheTTL = time.Hour, time.Minute
				})
				// Counted on the client the app uses: on a Redis Cluster a
				// pipeline goes to the masters holding its keys in parallel,
				// one round trip of latency, and counts once.
				rc := requestRoundTrips()
				ts.redis().AddHook(rc)
				viewer := ts.login("13800000001")
				var me struct{ Me struct{ ID string } }
				ts.ok(viewer, meQuery, nil, &me)
				var viewerID int64
				_, _ = fmt.Sscan(me.Me.ID, &viewerID)
				seedQueryCost(t, ts, viewerID)

				maxDepth, maxRedis := ts.app.cfg.MaxDepth, int64(maxQueryRedis)
				for _, n := range []int{5, 50} {
					depth := maxDepth
					if limited {
						// The deepest query the default complexity limit admits at n.
						for ; depth > 4; depth-- {
							r := ts.do(viewer, costQuery(depth), map[string]any{"n": n})
							if r.code() != "COMPLEXITY_LIMIT_EXCEEDED" {
								break
							}
						}
					}
					q := costQuery(depth)
					ts.ok(viewer, q, map[string]any{"n": n}, nil) // warm the scripts and caches once
					s0, r0 := sqlCount.Load(), rc.N()
					var out struct {
						SearchShops struct{ Edges []json.RawMessage }
						ByType      struct{ Edges []json.RawMessage }
						HotBlogs    struct{ Edges []json.RawMessage }
						MyOrders    struct{ Edges []json.RawMessage }
					}
					ts.ok(viewer, q, map[string]any{"n": n}, &out)
					s, r := sqlCount.Load()-s0, rc.N()-r0
					t.Logf("page size %d, depth %d: %d SQL statements, %d Redis round trips", n, depth, s, r)
					for name, got := range map[string]int{"searchShops": len(out.SearchShops.Edges), "shops": len(out.ByType.Edges),
						"hotBlogs": len(out.HotBlogs.Edges), "myOrders": len(out.MyOrders.Edges)} {
						if got != n {
							t.Fatalf("%s: %d items, want %d", name, got, n)
						}
					}
					if s > maxQuerySQL || r > maxRedis {
						t.Fatalf("page size %d, depth %d: %d SQL statements and %d Redis round trips (%q), want at most %d and %d",
							n, depth, s, r, rc.Since(r0), maxQuerySQL, maxRedis)
					}
				}
				if limited {
					ts.fails(viewer, costQuery(maxDepth), map[string]any{"n": 50}, "COMPLEXITY_LIMIT_EXCEEDED")
				}
			})
		}
	})
}

// Lists cost their length: first (or its default), or a fixed length.
func TestComplexityMultipliesLists(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.MaxComplexity = 150 })
	// 20 (its own query) + 1 + 10 blogs × 3 = 51; at first: 50, 171.
	ts.ok("", `{ hotBlogs { edges { node { id } } } }`, nil, nil)
	e := ts.fails("", `{ hotBlogs(first: 50) { edges { node { id } } } }`, nil, "COMPLEXITY_LIMIT_EXCEEDED")
	if !strings.Contains(e.Message, "complexity 171,") {
		t.Fatalf("message %q", e.Message)
	}
	// Shop.vouchers counts 10 vouchers: 1 + 1 + 10 × (1 + 1 + 10 × 1) = 122.
	ts.ok("", `{ shop(id: "1") { vouchers { shop { vouchers { id } } } } }`, nil, nil)
	ts.fails("", `{ shop(id: "1") { vouchers { shop { vouchers { shop { id } } } } } }`, nil, "COMPLEXITY_LIMIT_EXCEEDED")
	// A first out of range costs little: the resolver refuses it.
	ts.fails("", `{ hotBlogs(first: 1000000) { edges { node { id } } } }`, nil, "BAD_USER_INPUT")
}

// A page of 50 shops as the typed test client asks for it fits the default
// limit (the web app's own operations are checked against it, from its
// sources, by graphapi's TestWebAppOperationsFitTheComplexityLimit).
func TestDefaultComplexityAdmitsTheTestClientPage(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	ts.ok("", `{ shops(typeId: "1", first: 50) { edges { node { id name images area address avgPrice sold comments score type { name } } } } }`, nil, nil)
}

// 100 aliases of a field that reads a page are refused before anything runs.
func TestManyAliasesAreRefused(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		ts := startCountedWith(t, backend, &sqlCount, func(*config.Config) {})
		for _, field := range []string{
			`hotBlogs(first: 1) { edges { node { id } } }`,
			`shops(typeId: "1", first: 1) { edges { node { id } } }`,
			`shop(id: "1") { vouchers { id title } }`,
		} {
			var b strings.Builder
			b.WriteString("{")
			for i := range 100 {
				fmt.Fprintf(&b, " a%d: %s", i, field)
			}
			b.WriteString(" }")
			s0 := sqlCount.Load()
			e := ts.fails("", b.String(), nil, "COMPLEXITY_LIMIT_EXCEEDED")
			if !strings.Contains(e.Message, "exceeds the limit of 2000") {
				t.Fatalf("%s: message %q", field, e.Message)
			}
			if n := sqlCount.Load() - s0; n != 0 {
				t.Fatalf("%s: a refused operation ran %d statements", field, n)
			}
		}
	})
}

// gqlgen takes one operation per POST; a batch (a JSON array) is refused
// with HTTP 400 and a code of its own, without echoing the body.
func TestBatchedRequestsAreRefused(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	for _, body := range []string{
		`[{"query":"{ shopTypes { name } }"},{"query":"{ shopTypes { id } }"}]`,
		"  \n[" + strings.Repeat(`{"query":"{ me { id } }"},`, 20) + `{"query":"{ me { id } }"}]`,
		`[]`,
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := ts.inProcess().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		var out gqlResponse
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("body %q: %v", raw, err)
		}
		if res.StatusCode != http.StatusBadRequest || out.code() != "BATCHING_NOT_SUPPORTED" || len(out.Errors) != 1 {
			t.Fatalf("batch answered %d %s", res.StatusCode, raw)
		}
		if bytes.Contains(raw, []byte("shopTypes")) || bytes.Contains(raw, []byte("me {")) {
			t.Fatalf("the refusal echoes the body: %s", raw)
		}
	}
	// One operation, even after blanks, still works.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/graphql", strings.NewReader(" \n{\"query\":\"{ shopTypes { name } }\"}"))
	req.Header.Set("Content-Type", "application/json")
	if r := ts.sendWith(ts.inProcess(), req); r.Status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("single operation: %d %+v", r.Status, r.Errors)
	}
}

// Aliases of a single-object read share it: 100 aliases each of shop(id),
// user(id) and blog(id) cost what one of each does (the near cache is off,
// so every shop(id) would reach Redis).
func TestAliasesShareReads(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		var sqlCount atomic.Int64
		ts := startCountedWith(t, backend, &sqlCount, func(c *config.Config) { c.NearCacheTTL = 0 })
		rc := requestRoundTrips()
		testenv.AddHook(ts.redis(), rc)
		var b strings.Builder
		b.WriteString("{")
		for i := range 100 {
			fmt.Fprintf(&b, ` s%d: shop(id: "1") { id name } u%d: user(id: "1") { id nickName } b%d: blog(id: "1") { id title }`, i, i, i)
		}
		b.WriteString(" }")
		ts.ok("", `{ shop(id: "1") { id } }`, nil, nil) // load the shop into the Redis cache
		s0, r0 := sqlCount.Load(), rc.N()
		var out map[string]struct{ ID string }
		ts.ok("", b.String(), nil, &out)
		s, r := sqlCount.Load()-s0, rc.N()-r0
		t.Logf("300 aliases: %d SQL statements, %d Redis round trips %q", s, r, rc.Since(r0))
		if len(out) != 300 || out["s99"].ID != "1" || out["u99"].ID != "1" || out["b99"].ID != "1" {
			t.Fatalf("answer %v", out)
		}
		// One statement for the users and one for the blogs; the shop's
		// Bloom filter check and cache read.
		maxRedis := int64(2)
		if masters := len(ts.app.cfg.RedisAddrs); masters > 1 {
			maxRedis += int64(masters - 1)
		}
		if s > 2 || r > maxRedis {
			t.Fatalf("300 aliases cost %d SQL statements and %d Redis round trips (%q), want at most 2 and %d", s, r, rc.Since(r0), maxRedis)
		}
	})
}
