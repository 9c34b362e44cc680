package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

const (
	shopQuery = `query($id: ID!) { shop(id: $id) { id name type { id name } images x y avgPrice distance uvToday } }`
	nearQuery = `query($t: ID!, $near: GeoInput, $first: Int, $after: String) {
		shops(typeId: $t, near: $near, first: $first, after: $after) {
			edges { cursor node { id name distance } } pageInfo { hasNextPage endCursor } } }`
	createShopMutation = `mutation($in: CreateShopInput!) { createShop(input: $in) { id name x y avgPrice type { id } } }`
	updateShopMutation = `mutation($id: ID!, $in: UpdateShopInput!) { updateShop(id: $id, input: $in) { id name avgPrice } }`
)

type shopOut struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"type"`
	Images   []string `json:"images"`
	X, Y     float64
	AvgPrice int      `json:"avgPrice"`
	Distance *float64 `json:"distance"`
	UVToday  int      `json:"uvToday"`
}

type connOut struct {
	Edges []struct {
		Cursor string  `json:"cursor"`
		Node   shopOut `json:"node"`
	} `json:"edges"`
	PageInfo struct {
		HasNextPage bool    `json:"hasNextPage"`
		EndCursor   *string `json:"endCursor"`
	} `json:"pageInfo"`
}

func (ts *testServer) shop(token, id string) *shopOut {
	ts.t.Helper()
	var out struct{ Shop *shopOut }
	ts.ok(token, shopQuery, map[string]any{"id": id}, &out)
	return out.Shop
}

// shop(id), shopTypes and uvToday over HTTP.
func TestShopQueries(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		sh := ts.shop("", "1")
		if sh == nil || sh.Name != "103茶餐厅" || sh.Type.ID != "1" || sh.Type.Name == "" || len(sh.Images) != 2 ||
			sh.AvgPrice != 80 || sh.Distance != nil || sh.UVToday != 1 {
			t.Fatalf("shop 1: %+v", sh)
		}
		if ts.shop("", "424242") != nil {
			t.Fatal("missing shop not null")
		}
		// Same anonymous client again: still one visitor; a user adds one.
		if sh := ts.shop("", "1"); sh.UVToday != 1 {
			t.Fatalf("uv after a repeat: %d", sh.UVToday)
		}
		tok := ts.login("13800000001")
		if sh := ts.shop(tok, "1"); sh.UVToday != 2 {
			t.Fatalf("uv after a user: %d", sh.UVToday)
		}
		var types struct {
			ShopTypes []struct {
				ID   string `json:"id"`
				Sort int    `json:"sort"`
			} `json:"shopTypes"`
		}
		ts.ok("", `{ shopTypes { id name icon sort } }`, nil, &types)
		if len(types.ShopTypes) != 10 {
			t.Fatalf("%d types", len(types.ShopTypes))
		}
		// The cache shows in the metrics.
		res, err := http.Get(ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		for _, want := range []string{
			`hmdp_cache_requests_total{cache="shop",result="hit"}`,
			`hmdp_cache_requests_total{cache="shop",result="rejected"}`,
			`hmdp_cache_loads_total{cache="shop"} 1`,
			`hmdp_cache_loads_total{cache="shop_type"} 1`,
		} {
			if !strings.Contains(string(body), want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
}

// shops(near:) pages nearest first with distances; searchShops; bad arguments.
func TestShopsConnections(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		near := map[string]any{"x": 120.149993, "y": 30.334229}
		var all []shopOut
		var after any
		for range 20 {
			var out struct{ Shops connOut }
			ts.ok("", nearQuery, map[string]any{"t": "1", "near": near, "first": 3, "after": after}, &out)
			for _, e := range out.Shops.Edges {
				all = append(all, e.Node)
			}
			if !out.Shops.PageInfo.HasNextPage {
				break
			}
			after = *out.Shops.PageInfo.EndCursor
		}
		seen := map[string]bool{}
		for i, s := range all {
			if s.Distance == nil || *s.Distance > 5000 || (i > 0 && *s.Distance < *all[i-1].Distance) || seen[s.ID] {
				t.Fatalf("#%d %+v (order, radius or repeat)", i, s)
			}
			seen[s.ID] = true
		}
		if len(all) < 8 {
			t.Fatalf("%d shops nearby", len(all))
		}
		var plain struct{ Shops connOut }
		ts.ok("", nearQuery, map[string]any{"t": "1"}, &plain)
		if len(plain.Shops.Edges) < 8 || plain.Shops.Edges[0].Node.Distance != nil || plain.Shops.Edges[0].Node.ID != "1" {
			t.Fatalf("by type: %+v", plain.Shops)
		}
		var found struct{ SearchShops connOut }
		ts.ok("", `query($n: String!) { searchShops(name: $n) { edges { node { id name } } pageInfo { hasNextPage } } }`,
			map[string]any{"n": "茶餐厅"}, &found)
		if len(found.SearchShops.Edges) == 0 || !strings.Contains(found.SearchShops.Edges[0].Node.Name, "茶餐厅") {
			t.Fatalf("search: %+v", found)
		}
		e := ts.fails("", nearQuery, map[string]any{"t": "1", "first": 51}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "first" {
			t.Fatalf("field %v", e.Extensions["field"])
		}
		e = ts.fails("", nearQuery, map[string]any{"t": "1", "near": map[string]any{"x": 120, "y": 95}}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "near.y" {
			t.Fatalf("field %v", e.Extensions["field"])
		}
	})
}

// createShop / updateShop: admin only, validated, visible at once.
func TestShopMutations(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		in := map[string]any{"name": "Tea Lab", "typeId": "1", "address": "1 Road", "x": 120.15, "y": 30.334, "avgPrice": 3500}
		ts.fails("", createShopMutation, map[string]any{"in": in}, "UNAUTHENTICATED")
		ts.fails(ts.login("13800000002"), createShopMutation, map[string]any{"in": in}, "FORBIDDEN")
		admin := ts.login("13900000000")
		for field, bad := range map[string]map[string]any{
			"input.name":     {"name": ""},
			"input.x":        {"x": -181},
			"input.avgPrice": {"avgPrice": -1},
			"input.typeId":   {"typeId": "999"},
		} {
			b := map[string]any{}
			for k, v := range in {
				b[k] = v
			}
			for k, v := range bad {
				b[k] = v
			}
			e := ts.fails(admin, createShopMutation, map[string]any{"in": b}, "BAD_USER_INPUT")
			if e.Extensions["field"] != field {
				t.Errorf("%s: field %v", field, e.Extensions["field"])
			}
		}
		var created struct{ CreateShop shopOut }
		ts.ok(admin, createShopMutation, map[string]any{"in": in}, &created)
		id := created.CreateShop.ID
		if sh := ts.shop("", id); sh == nil || sh.Name != "Tea Lab" || sh.AvgPrice != 3500 {
			t.Fatalf("created shop: %+v", sh)
		}
		var out struct{ Shops connOut }
		ts.ok("", nearQuery, map[string]any{"t": "1", "near": map[string]any{"x": 120.15, "y": 30.334, "radiusMeters": 5}}, &out)
		if len(out.Shops.Edges) != 1 || out.Shops.Edges[0].Node.ID != id || *out.Shops.Edges[0].Node.Distance > 1 {
			t.Fatalf("nearby the new shop: %+v", out.Shops)
		}
		ts.ok(admin, updateShopMutation, map[string]any{"id": id, "in": map[string]any{"name": "Tea Lab 2"}}, nil)
		if sh := ts.shop("", id); sh.Name != "Tea Lab 2" {
			t.Fatalf("after update: %+v", sh)
		}
		ts.fails(admin, updateShopMutation, map[string]any{"id": "424242", "in": map[string]any{"name": "x"}}, "NOT_FOUND")
	})
}

// Two servers sharing MySQL and Redis: 200 concurrent cold reads over HTTP
// load the shop once between them, and an update on one is read on the other.
func TestShopTwoInstances(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		if backend != "real" {
			t.Skip("embedded servers each have their own Redis")
		}
		cfg := testConfig(t, backend)
		// Near caches that outlive the test: only the Pub/Sub invalidation
		// can make b see a's update.
		cfg.NearCacheTTL = time.Hour
		a, b := startServerWith(t, backend, cfg), startServerWith(t, backend, cfg)
		admin := a.login("13900000000")
		errs := make(chan string, 200)
		for i := range 200 {
			go func() {
				ts := a
				if i%2 == 1 {
					ts = b
				}
				r := ts.do("", shopQuery, map[string]any{"id": "4"})
				if len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"id":"4"`) {
					errs <- string(r.Data)
					return
				}
				errs <- ""
			}()
		}
		for range 200 {
			if e := <-errs; e != "" {
				t.Fatal(e)
			}
		}
		loads := metricValue(t, a, `hmdp_cache_loads_total{cache="shop"}`) + metricValue(t, b, `hmdp_cache_loads_total{cache="shop"}`)
		if loads != 1 {
			t.Fatalf("%v loads across both servers, want 1", loads)
		}
		a.ok(admin, updateShopMutation, map[string]any{"id": "4", "in": map[string]any{"avgPrice": 4242}}, nil)
		// The invalidation reaches b asynchronously (on a Redis Cluster through
		// the cluster bus): wait for it, with a deadline far below the hour.
		testenv.Eventually(t, 10*time.Second, "the update on the other instance", func() bool { return b.shop("", "4").AvgPrice == 4242 })
	})
}

func metricValue(t *testing.T, ts *testServer, series string) float64 {
	t.Helper()
	res, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	return 0 // a labelled series appears only once counted
}
