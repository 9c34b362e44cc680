package app

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

const pureShopQuery = `query PublicShop($id: ID!) { shop(id: $id) { id name avgPrice ... on Shop { score } } }`

// rawPost sends body as a POST from peer (in process) and returns the status and body.
func rawPost(t *testing.T, ts *testServer, peer, token string, body []byte) (int, string) {
	t.Helper()
	status, got, _ := rawPostHeader(t, ts, peer, token, body)
	return status, got
}

func rawPostHeader(t *testing.T, ts *testServer, peer, token string, body []byte) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return rawDo(t, ts, peer, req)
}

func rawDo(t *testing.T, ts *testServer, peer string, req *http.Request) (int, string, http.Header) {
	t.Helper()
	client := &http.Client{Transport: handlerTransport{h: ts.app.Handler(), remoteAddr: peer}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(raw), res.Header
}

func requestBody(t *testing.T, query string, vars map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waitInvalidationsHeard waits until the instance has heard every near-cache
// invalidation of cache it sent (its own come back through Pub/Sub).
func waitInvalidationsHeard(t *testing.T, ts *testServer, cache string) {
	t.Helper()
	series := `hmdp_nearcache_invalidations_total{cache="` + cache + `",direction="`
	testenv.Eventually(t, 10*time.Second, "the instance hears its own "+cache+" invalidations", func() bool {
		return metricValue(t, ts, series+`received"}`) >= metricValue(t, ts, series+`sent"}`)
	})
}

// cacheCounts reads the response cache's counters.
func cacheCounts(t *testing.T, ts *testServer) (hit, stored, pass float64) {
	t.Helper()
	return metricValue(t, ts, `hmdp_response_cache_total{result="hit"}`),
		metricValue(t, ts, `hmdp_response_cache_total{result="stored"}`),
		metricValue(t, ts, `hmdp_response_cache_total{result="pass"}`)
}

// Anonymous shop(id) reads of the shop's own fields are answered from memory
// after the first, byte for byte, still counted as visits and as operations;
// an update is seen at once; nothing personal, live or failed is kept.
func TestResponseCacheAnswersRepeatedAnonymousReads(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend, func(c *config.Config) {
			c.NearCacheTTL = time.Hour
			c.MetricsOperations = []string{"PublicShop"} // labelled in hmdp_graphql_requests_total
		})
		admin := ts.login("13900000000")
		// A shop of its own, so the visitor count starts at zero on a shared Redis.
		id := must(gqlclient.CreateShop(ctx, ts.gql(admin), gqlclient.CreateShopInput{
			Name: "Kept", TypeId: "1", Address: "2 Road", X: 120.1, Y: 30.3}))(t).CreateShop.Id
		body := requestBody(t, pureShopQuery, map[string]any{"id": id})
		// createShop's own near-cache invalidation reaches this instance
		// through Pub/Sub, later on a loaded machine: heard after the first
		// read, it would retire the answer kept then.
		waitInvalidationsHeard(t, ts, "shop")

		want := `{"data":{"shop":{"id":"` + id + `","name":"Kept","avgPrice":0,"score":0}}}`
		peers := []string{"10.1.0.1:5000", "10.1.0.2:5000", "10.1.0.3:5000", "10.1.0.1:5001"}
		for i, peer := range peers {
			status, got := rawPost(t, ts, peer, "", body)
			if status != http.StatusOK || got != want {
				t.Fatalf("read %d: status %d body %s, want %s", i, status, got, want)
			}
		}
		if hit, stored, _ := cacheCounts(t, ts); hit != 3 || stored != 1 {
			t.Fatalf("after 4 reads: %v hits, %v stored; want 3 and 1", hit, stored)
		}
		if n := metricValue(t, ts, `hmdp_graphql_requests_total{operation="PublicShop"}`); n != 4 {
			t.Fatalf("hmdp_graphql_requests_total counts %v PublicShop operations, want 4", n)
		}
		// Three distinct addresses read it, three of the four from memory.
		if uv := must(gqlclient.Shop(ctx, ts.gql(admin), id))(t).Shop.UvToday; uv != 3+1 { // +1: this read
			t.Fatalf("uvToday %d, want 4", uv)
		}

		// Not kept: a logged-in reader, a live field, a directive, an error,
		// a mutation. Each runs every time.
		_, _, passBefore := cacheCounts(t, ts)
		live := requestBody(t, `query($id: ID!) { shop(id: $id) { id uvToday } }`, map[string]any{"id": id})
		directive := requestBody(t, `query($id: ID!, $s: Boolean!) { shop(id: $id) { id name @include(if: $s) } }`, map[string]any{"id": id, "s": true})
		typed := requestBody(t, `query($id: ID!) { shop(id: $id) { id type { name } } }`, map[string]any{"id": id})
		bad := requestBody(t, `query { shop(id: "x") { id } }`, nil)
		for range 2 {
			for _, b := range [][]byte{live, directive, typed, bad} {
				rawPost(t, ts, "10.1.0.9:1", "", b)
			}
			if _, got := rawPost(t, ts, "10.1.0.9:1", admin, body); got != want {
				t.Fatalf("logged-in read: %s", got)
			}
		}
		if hit, stored, pass := cacheCounts(t, ts); hit != 3 || stored != 1 || pass-passBefore != 10 {
			t.Fatalf("uncacheable requests: %v hits, %v stored, %v passed; want 3, 1, 10", hit, stored, pass-passBefore)
		}

		// An update is read at once by the next anonymous request.
		must(gqlclient.UpdateShop(ctx, ts.gql(admin), id, gqlclient.UpdateShopInput{Name: new("Kept 2")}))(t)
		waitInvalidationsHeard(t, ts, "shop") // as above: heard late, it would retire the next kept answer
		want2 := `{"data":{"shop":{"id":"` + id + `","name":"Kept 2","avgPrice":0,"score":0}}}`
		for range 2 {
			if _, got := rawPost(t, ts, "10.1.0.1:5000", "", body); got != want2 {
				t.Fatalf("after updateShop: %s, want %s", got, want2)
			}
		}
		if hit, stored, _ := cacheCounts(t, ts); hit != 4 || stored != 2 {
			t.Fatalf("after the update: %v hits, %v stored; want 4 and 2", hit, stored)
		}

		// Cache-Control: nothing personal or uncacheable is stored by HTTP caches.
		if _, _, h := rawPostHeader(t, ts, "10.1.0.1:5000", admin, body); h.Get("Cache-Control") != "private, no-store" {
			t.Errorf("logged-in answer: Cache-Control %q, want private, no-store", h.Get("Cache-Control"))
		}
		for _, b := range [][]byte{body, live} {
			if _, _, h := rawPostHeader(t, ts, "10.1.0.1:5000", "", b); h.Get("Cache-Control") != "no-store" {
				t.Errorf("anonymous POST answer: Cache-Control %q, want no-store", h.Get("Cache-Control"))
			}
		}

		// GET requests are kept under their own key; their answers carry an
		// ETag, and a conditional request is answered 304 and still counted.
		get := func(peer, ifNoneMatch string) (int, string, http.Header) {
			t.Helper()
			q := url.Values{"query": {pureShopQuery}, "variables": {`{"id":"` + id + `"}`}}
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/graphql?"+q.Encode(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if ifNoneMatch != "" {
				req.Header.Set("If-None-Match", ifNoneMatch)
			}
			return rawDo(t, ts, peer, req)
		}
		hit0, stored0, _ := cacheCounts(t, ts)
		_, first, h1 := get("10.1.0.1:5000", "")
		_, second, h2 := get("10.1.0.1:5000", "")
		if first != want2 || second != want2 {
			t.Fatalf("GET: %s then %s, want %s", first, second, want2)
		}
		if h1.Get("Cache-Control") != "public, no-cache" || h2.Get("Cache-Control") != "public, no-cache" || h2.Get("ETag") == "" {
			t.Fatalf("GET headers: %v then %v", h1, h2)
		}
		status, empty, h3 := get("10.1.0.4:5000", h2.Get("ETag"))
		if status != http.StatusNotModified || empty != "" || h3.Get("ETag") != h2.Get("ETag") {
			t.Fatalf("conditional GET: status %d body %q headers %v, want 304", status, empty, h3)
		}
		if status, _, _ := get("10.1.0.5:5000", `"other"`); status != http.StatusOK {
			t.Fatalf("GET with another ETag: status %d, want 200", status)
		}
		if hit, stored, _ := cacheCounts(t, ts); hit-hit0 != 3 || stored-stored0 != 1 {
			t.Fatalf("after four GETs: %v hits, %v stored; want 3 and 1", hit-hit0, stored-stored0)
		}
		if uv := must(gqlclient.Shop(ctx, ts.gql(admin), id))(t).Shop.UvToday; uv != 7 { // + 10.1.0.9 (the uncacheable reads), 10.1.0.4 (only through a 304), 10.1.0.5
			t.Fatalf("uvToday %d, want 7", uv)
		}
		// A live field over GET is never stored by HTTP caches.
		q := url.Values{"query": {`query($id: ID!) { shop(id: $id) { id uvToday } }`}, "variables": {`{"id":"` + id + `"}`}}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/graphql?"+q.Encode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, h := rawDo(t, ts, "10.1.0.1:5000", req); h.Get("Cache-Control") != "no-store" || h.Get("ETag") != "" {
			t.Fatalf("live GET answer headers: %v", h)
		}
	})
}

// Two instances with hour-long near caches: an update on one is read by the
// other's next anonymous request once the invalidation arrives, although the
// other kept the old answer.
func TestResponseCacheFollowsUpdatesOnAnotherInstance(t *testing.T) {
	t.Parallel()
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("two instances share back ends only when they are real")
	}
	cfg := testConfig(t, "real")
	cfg.NearCacheTTL = time.Hour
	a, b := startServerWith(t, "real", cfg), startServerWith(t, "real", cfg)
	body := requestBody(t, pureShopQuery, map[string]any{"id": "5"})
	_, before := rawPost(t, b, "10.2.0.1:1", "", body)
	if _, again := rawPost(t, b, "10.2.0.1:1", "", body); again != before {
		t.Fatalf("second read differs: %s vs %s", again, before)
	}
	if hit, _, _ := cacheCounts(t, b); hit != 1 {
		t.Fatalf("%v hits on b, want 1", hit)
	}
	must(gqlclient.UpdateShop(t.Context(), a.gql(a.login("13900000000")), "5", gqlclient.UpdateShopInput{AvgPrice: new(4343)}))(t)
	testenv.Eventually(t, 10*time.Second, "b answers with the update", func() bool {
		_, got := rawPost(t, b, "10.2.0.1:1", "", body)
		return bytes.Contains([]byte(got), []byte(`"avgPrice":4343`))
	})
}

// Once an instance knows a sale sold out, every buyer's attempt gets the same
// OUT_OF_STOCK: the answer is kept and given from memory to any logged-in
// buyer, still counted; never to an anonymous client; and a unit given back
// (a cancelled order) ends it at once, so the next buyer gets the unit.
func TestResponseCacheAnswersKnownSoldOut(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		sk := fastSeckill
		sk.SoldOutTTL = time.Hour // only the release may end "known sold out"
		ts := startSaleServer(t, backend, testConfig(t, backend), sk)
		v := ts.createSale(1, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
		buyers := ts.users(8)
		body := requestBody(t, seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)})
		first := ts.seckill(buyers[0], v)

		var soldOut string
		for i, b := range buyers[1:6] {
			status, got, h := rawPostHeader(t, ts, "10.3.0.1:1", b, body)
			if status != http.StatusOK || !strings.Contains(got, `"OUT_OF_STOCK"`) || h.Get("Cache-Control") != "private, no-store" {
				t.Fatalf("buyer %d: status %d body %s headers %v", i+1, status, got, h)
			}
			if soldOut == "" {
				soldOut = got
			} else if got != soldOut {
				t.Fatalf("buyer %d got %s, buyer 1 %s", i+1, got, soldOut)
			}
		}
		// Buyer 1 learnt it from Redis (not kept: the instance did not know
		// yet when the attempt began), buyer 2 from the instance (kept),
		// buyers 3-5 from memory.
		if hit, stored, _ := cacheCounts(t, ts); hit != 3 || stored != 1 {
			t.Fatalf("%v hits, %v stored; want 3 and 1", hit, stored)
		}
		if n := metricValue(t, ts, `hmdp_seckill_requests_total{result="out_of_stock"}`); n != 5 {
			t.Fatalf("%v out_of_stock attempts counted, want 5", n)
		}
		if _, got := rawPost(t, ts, "10.3.0.1:1", "", body); !strings.Contains(got, `"UNAUTHENTICATED"`) {
			t.Fatalf("anonymous attempt: %s", got)
		}

		// The first buyer cancels: the unit is back, and the next attempt takes it.
		ts.waitStatus(buyers[0], first, "UNPAID")
		ts.ok(buyers[0], cancelMutation, map[string]any{"id": first}, nil)
		testenv.Eventually(t, 10*time.Second, "the released unit is sold again", func() bool {
			_, got := rawPost(t, ts, "10.3.0.1:1", buyers[6], body)
			return strings.Contains(got, `"orderId"`)
		})
		if _, got := rawPost(t, ts, "10.3.0.1:1", buyers[7], body); !strings.Contains(got, `"OUT_OF_STOCK"`) {
			t.Fatalf("after the unit was sold again: %s", got)
		}
	})
}

// Without the near cache no shop answer is kept (none could ever be used).
func TestResponseCacheNeedsTheNearCacheForShops(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.NearCacheTTL = 0 })
	body := requestBody(t, pureShopQuery, map[string]any{"id": "1"})
	for range 3 {
		if status, got := rawPost(t, ts, "10.4.0.1:1", "", body); status != http.StatusOK || !strings.Contains(got, `"shop":{"id":"1"`) {
			t.Fatalf("status %d body %s", status, got)
		}
	}
	if hit, stored, pass := cacheCounts(t, ts); hit != 0 || stored != 0 || pass != 3 {
		t.Fatalf("%v hits, %v stored, %v passed; want 0, 0, 3", hit, stored, pass)
	}
}
