package app

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

// shopTypeFood is shop type 1 of the seed data, as ShopFields shows it.
var shopTypeFood = gqlclient.ShopFieldsTypeShopType{Id: "1", Name: "美食"}

// Coordinates as read back from the database: equal to those written up to
// the float64 rounding of the store.
var approxFloats = cmpopts.EquateApprox(0, 1e-9)

// shop(id), shopTypes and uvToday.
func TestShopQueries(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		anon := ts.gql("")
		got := must(gqlclient.Shop(ctx, anon, "1"))(t).Shop
		want := &gqlclient.ShopFields{
			Id: "1", Name: "103茶餐厅", Type: shopTypeFood,
			X: 120.149192, Y: 30.316078, AvgPrice: 80, Distance: nil, UvToday: 1,
		}
		if got == nil || len(got.Images) != 2 {
			t.Fatalf("shop 1: %+v, want two images", got)
		}
		if diff := cmp.Diff(want, got, approxFloats, cmpopts.IgnoreFields(gqlclient.ShopFields{}, "Images")); diff != "" {
			t.Errorf("shop 1 (-want +got):\n%s", diff)
		}
		if sh := must(gqlclient.Shop(ctx, anon, "424242"))(t).Shop; sh != nil {
			t.Fatalf("missing shop: %+v, want null", sh)
		}
		// Same anonymous client again: still one visitor; a user adds one.
		if uv := must(gqlclient.Shop(ctx, anon, "1"))(t).Shop.UvToday; uv != 1 {
			t.Fatalf("uvToday after a repeat: %d, want 1", uv)
		}
		user := ts.gql(ts.login("13800000001"))
		if uv := must(gqlclient.Shop(ctx, user, "1"))(t).Shop.UvToday; uv != 2 {
			t.Fatalf("uvToday after a user: %d, want 2", uv)
		}

		types := must(gqlclient.ShopTypes(ctx, anon))(t).ShopTypes
		wantTypes := []gqlclient.ShopTypesShopTypesShopType{ // ordered by sort
			{Id: "1", Name: "美食", Icon: "/types/ms.png", Sort: 1},
			{Id: "2", Name: "KTV", Icon: "/types/KTV.png", Sort: 2},
			{Id: "3", Name: "丽人·美发", Icon: "/types/lrmf.png", Sort: 3},
			{Id: "10", Name: "美睫·美甲", Icon: "/types/mjmj.png", Sort: 4},
			{Id: "5", Name: "按摩·足疗", Icon: "/types/amzl.png", Sort: 5},
			{Id: "6", Name: "美容SPA", Icon: "/types/spa.png", Sort: 6},
			{Id: "7", Name: "亲子游乐", Icon: "/types/qzyl.png", Sort: 7},
			{Id: "8", Name: "酒吧", Icon: "/types/jiuba.png", Sort: 8},
			{Id: "9", Name: "轰趴馆", Icon: "/types/hpg.png", Sort: 9},
			{Id: "4", Name: "健身运动", Icon: "/types/jsyd.png", Sort: 10},
		}
		if diff := cmp.Diff(wantTypes, types); diff != "" {
			t.Errorf("shopTypes (-want +got):\n%s", diff)
		}
		// The cache shows in the metrics.
		res, err := httpGet(t.Context(), ts.URL+"/metrics")
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
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		anon := ts.gql("")
		near := &gqlclient.GeoInput{X: 120.149993, Y: 30.334229}
		var all []gqlclient.ShopItem
		var after *string
		for range 20 {
			page := must(gqlclient.Shops(ctx, anon, "1", near, new(3), after))(t).Shops
			for _, e := range page.Edges {
				all = append(all, e.Node)
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			after = page.PageInfo.EndCursor
		}
		seen := map[string]bool{}
		for i, s := range all {
			if s.Distance == nil || *s.Distance > 5000 || (i > 0 && *s.Distance < *all[i-1].Distance) || seen[s.Id] {
				t.Fatalf("#%d %+v (order, radius or repeat)", i, s)
			}
			seen[s.Id] = true
		}
		if len(all) < 8 {
			t.Fatalf("%d shops nearby", len(all))
		}
		plain := must(gqlclient.Shops(ctx, anon, "1", nil, nil, nil))(t).Shops
		if len(plain.Edges) < 8 {
			t.Fatalf("by type: %d shops", len(plain.Edges))
		}
		if diff := cmp.Diff(gqlclient.ShopItem{Id: "1", Name: "103茶餐厅"}, plain.Edges[0].Node); diff != "" {
			t.Errorf("by type, first shop (-want +got):\n%s", diff)
		}
		found := must(gqlclient.SearchShops(ctx, anon, "茶餐厅", nil, nil))(t).SearchShops
		if len(found.Edges) == 0 || !strings.Contains(found.Edges[0].Node.Name, "茶餐厅") {
			t.Fatalf("search: %+v", found)
		}
		for _, c := range []struct {
			name  string
			near  *gqlclient.GeoInput
			first *int
			field string
		}{
			{"first over 50", nil, new(51), "first"},
			{"latitude out of range", &gqlclient.GeoInput{X: 120, Y: 95}, nil, "near.y"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := gqlclient.Shops(ctx, anon, "1", c.near, c.first, nil)
				wantField(t, err, c.field)
			})
		}
	})
}

// createShop / updateShop: admin only, validated, visible at once.
func TestShopMutations(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		anon := ts.gql("")
		in := gqlclient.CreateShopInput{Name: "Tea Lab", TypeId: "1", Address: "1 Road", X: 120.15, Y: 30.334, AvgPrice: new(3500)}
		_, err := gqlclient.CreateShop(ctx, anon, in)
		wantCode(t, err, "UNAUTHENTICATED")
		_, err = gqlclient.CreateShop(ctx, ts.gql(ts.login("13800000002")), in)
		wantCode(t, err, "FORBIDDEN")
		admin := ts.gql(ts.login("13900000000"))
		for _, c := range []struct {
			field string
			edit  func(*gqlclient.CreateShopInput)
		}{
			{"input.name", func(in *gqlclient.CreateShopInput) { in.Name = "" }},
			{"input.x", func(in *gqlclient.CreateShopInput) { in.X = -181 }},
			{"input.avgPrice", func(in *gqlclient.CreateShopInput) { in.AvgPrice = new(-1) }},
			{"input.typeId", func(in *gqlclient.CreateShopInput) { in.TypeId = "999" }},
		} {
			t.Run(c.field, func(t *testing.T) {
				bad := in
				c.edit(&bad)
				_, err := gqlclient.CreateShop(ctx, admin, bad)
				wantField(t, err, c.field)
			})
		}

		created := must(gqlclient.CreateShop(ctx, admin, in))(t).CreateShop
		id := created.Id
		want := gqlclient.ShopFields{
			Id: id, Name: "Tea Lab", Type: shopTypeFood, Images: nil,
			X: 120.15, Y: 30.334, AvgPrice: 3500, Distance: nil, UvToday: 0,
		}
		if diff := cmp.Diff(want, created, approxFloats, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("createShop (-want +got):\n%s", diff)
		}
		want.UvToday = 1 // counted by this read
		if diff := cmp.Diff(&want, must(gqlclient.Shop(ctx, anon, id))(t).Shop, approxFloats, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("created shop read back (-want +got):\n%s", diff)
		}
		nearby := must(gqlclient.Shops(ctx, anon, "1", &gqlclient.GeoInput{X: 120.15, Y: 30.334, RadiusMeters: new(5.0)}, nil, nil))(t).Shops
		if len(nearby.Edges) != 1 || nearby.Edges[0].Node.Id != id || *nearby.Edges[0].Node.Distance > 1 {
			t.Fatalf("nearby the new shop: %+v", nearby)
		}

		// Only the fields given change.
		updated := must(gqlclient.UpdateShop(ctx, admin, id, gqlclient.UpdateShopInput{Name: new("Tea Lab 2")}))(t).UpdateShop
		want.Name = "Tea Lab 2"
		if diff := cmp.Diff(want, updated, approxFloats, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("updateShop (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(&want, must(gqlclient.Shop(ctx, anon, id))(t).Shop, approxFloats, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("updated shop read back (-want +got):\n%s", diff)
		}
		_, err = gqlclient.UpdateShop(ctx, admin, "424242", gqlclient.UpdateShopInput{Name: new("x")})
		wantCode(t, err, "NOT_FOUND")
	})
}

// Two servers sharing MySQL and Redis: 200 concurrent cold reads load the
// shop once between them, and an update on one is read on the other.
func TestShopTwoInstances(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		if backend != "real" {
			t.Skip("embedded servers each have their own Redis")
		}
		ctx := t.Context()
		cfg := testConfig(t, backend)
		// Near caches that outlive the test: only the Pub/Sub invalidation
		// can make b see a's update.
		cfg.NearCacheTTL = time.Hour
		a, b := startServerWith(t, backend, cfg), startServerWith(t, backend, cfg)
		admin := a.gql(a.login("13900000000"))
		errs := make(chan error, 200)
		for i := range 200 {
			go func() {
				ts := a
				if i%2 == 1 {
					ts = b
				}
				r, err := gqlclient.Shop(ctx, ts.gql(""), "4")
				if err == nil && (r.Shop == nil || r.Shop.Id != "4") {
					err = fmt.Errorf("shop 4 read as %+v", r.Shop)
				}
				errs <- err
			}()
		}
		for range 200 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		loads := metricValue(t, a, `hmdp_cache_loads_total{cache="shop"}`) + metricValue(t, b, `hmdp_cache_loads_total{cache="shop"}`)
		if loads != 1 {
			t.Fatalf("%v loads across both servers, want 1", loads)
		}
		must(gqlclient.UpdateShop(ctx, admin, "4", gqlclient.UpdateShopInput{AvgPrice: new(4242)}))(t)
		// The invalidation reaches b asynchronously (on a Redis Cluster through
		// the cluster bus): wait for it, with a deadline far below the hour.
		anonB := b.gql("")
		testenv.Eventually(t, 10*time.Second, "the update on the other instance", func() bool {
			return must(gqlclient.Shop(ctx, anonB, "4"))(t).Shop.AvgPrice == 4242
		})
	})
}

func metricValue(t *testing.T, ts *testServer, series string) float64 {
	t.Helper()
	res, err := httpGet(t.Context(), ts.URL+"/metrics")
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
