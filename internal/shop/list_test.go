package shop

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/testenv"
)

// haversine in metres on Redis's earth radius (src/geohash_helper.c).
func haversine(lon1, lat1, lon2, lat2 float64) float64 {
	const r = 6372797.560856
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(a))
}

// collect pages through a connection, first at a time.
func collect(t *testing.T, first int, next func(after *string) (*Page, error)) []Edge {
	t.Helper()
	var all []Edge
	var after *string
	for range 100 {
		p, err := next(after)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Edges) > first {
			t.Fatalf("page of %d > first %d", len(p.Edges), first)
		}
		all = append(all, p.Edges...)
		if !p.Info.HasNextPage {
			return all
		}
		if len(p.Edges) == 0 {
			t.Fatal("empty page with hasNextPage")
		}
		s := p.Info.EndCursor.String()
		after = &s
	}
	t.Fatal("too many pages")
	return nil
}

// Nearby order and distances over the hmdp.sql shops match a haversine
// computed here (±1 m), through pages of 2 and 3 without gaps or repeats.
func TestNearbyMatchesHaversineAcrossPages(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		x, y := 120.149993, 30.334229 // the write-ups' example point
		rows, err := e.db.Client.Shop.Query().Where(entshop.TypeID(1)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		type want struct {
			id   int64
			dist float64
		}
		var wants []want
		for _, r := range rows {
			wants = append(wants, want{r.ID, haversine(x, y, r.X, r.Y)})
		}
		slices.SortFunc(wants, func(a, b want) int { return cmp.Compare(a.dist, b.dist) })
		for _, radius := range []float64{5000, 1500} {
			var inside []want
			for _, w := range wants {
				if math.Abs(w.dist-radius) < 1 {
					t.Fatalf("shop %d lies on the radius; pick another", w.id)
				}
				if w.dist < radius {
					inside = append(inside, w)
				}
			}
			if radius == 5000 && len(inside) < 8 {
				t.Fatalf("only %d shops of type 1 within 5 km", len(inside))
			}
			for _, first := range []int{2, 3, 50} {
				// Also with searches cut short, so the widening path runs.
				if first == 3 {
					defer func(n int) { geoMinCount = n }(geoMinCount)
					geoMinCount = 1
				}
				got := collect(t, first, func(after *string) (*Page, error) {
					return s.ByType(ctx, 1, &Near{X: x, Y: y, RadiusMeters: &radius}, &first, after)
				})
				if len(got) != len(inside) {
					t.Fatalf("radius %v, first %d: %d shops, want %d", radius, first, len(got), len(inside))
				}
				for i, g := range got {
					d := g.Node.Distance
					if g.Node.ID != inside[i].id || d == nil || math.Abs(*d-inside[i].dist) > 1 {
						t.Fatalf("radius %v, first %d, #%d: shop %d at %v, want shop %d at %.2f",
							radius, first, i, g.Node.ID, d, inside[i].id, inside[i].dist)
					}
				}
			}
		}
	})
}

// Shops at exactly the same spot page without gaps or repeats (the cursor
// orders ties by id), and the GEO set is rebuilt from MySQL when lost.
func TestNearbyTiesAndRebuild(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		admin := auth.WithViewer(ctx, &auth.Viewer{UserID: 1, Admin: true})
		var made []int64
		for range 7 {
			sh, err := s.Create(admin, CreateInput{Name: "same spot", TypeID: 2, Address: "here", X: 121.5, Y: 31.2})
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, sh.ID)
		}
		check := func() {
			t.Helper()
			got := collect(t, 2, func(after *string) (*Page, error) {
				return s.ByType(ctx, 2, &Near{X: 121.5, Y: 31.2}, ptr(2), after)
			})
			var ids []int64
			for _, g := range got {
				ids = append(ids, g.Node.ID)
			}
			if !slices.Equal(ids, made) {
				t.Fatalf("got %v, want %v", ids, made)
			}
		}
		check()
		e.redis.Client.Del(ctx, s.geo.key(2))
		check()
		// Searches cut short inside the run of equal distances must widen, not skip.
		defer func(n int) { geoMinCount = n }(geoMinCount)
		geoMinCount = 1
		check()
	})
}

// A created shop is readable at once (the Bloom filter learned it), listed
// by type, and found nearby; moving it to another type and place moves it
// between the GEO sets.
func TestCreateAndMoveShop(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		// Build type 1's GEO set before the create, so the create must update it.
		if _, err := s.ByType(ctx, 1, &Near{X: 120.15, Y: 30.33}, nil, nil); err != nil {
			t.Fatal(err)
		}
		sh, err := s.Create(asAdmin(ctx), CreateInput{Name: " New Place ", TypeID: 1, Images: []string{"/a.jpg", "/b.jpg"},
			Address: "1 Road", X: 120.15, Y: 30.33, AvgPrice: ptr(int64(1200)), OpenHours: ptr("9-5")})
		if err != nil {
			t.Fatal(err)
		}
		if sh.Name != "New Place" || sh.Images != "/a.jpg,/b.jpg" || sh.AvgPrice != 1200 {
			t.Fatalf("%+v", sh)
		}
		if got, err := s.Get(ctx, sh.ID); err != nil || got == nil || got.Name != "New Place" {
			t.Fatalf("read after create: %v %v", got, err)
		}
		near, err := s.ByType(ctx, 1, &Near{X: 120.15, Y: 30.33, RadiusMeters: ptr(10.0)}, nil, nil)
		if err != nil || len(near.Edges) != 1 || near.Edges[0].Node.ID != sh.ID || *near.Edges[0].Node.Distance > 1 {
			t.Fatalf("nearby after create: %+v %v", near, err)
		}
		byType := collect(t, 50, func(after *string) (*Page, error) { return s.ByType(ctx, 1, nil, ptr(50), after) })
		if byType[len(byType)-1].Node.ID != sh.ID || byType[0].Node.Distance != nil {
			t.Fatal("not listed by type (or a distance outside nearby search)")
		}
		// Build type 3's set, then move the shop there and far away.
		if _, err := s.ByType(ctx, 3, &Near{X: 116.4, Y: 39.9}, nil, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Update(asAdmin(ctx), sh.ID, UpdateInput{TypeID: ptr(int64(3)), X: ptr(116.4), Y: ptr(39.9)}); err != nil {
			t.Fatal(err)
		}
		if p, _ := s.ByType(ctx, 1, &Near{X: 120.15, Y: 30.33, RadiusMeters: ptr(10.0)}, nil, nil); len(p.Edges) != 0 {
			t.Fatal("still in type 1's set")
		}
		if p, _ := s.ByType(ctx, 3, &Near{X: 116.4, Y: 39.9, RadiusMeters: ptr(10.0)}, nil, nil); len(p.Edges) != 1 || p.Edges[0].Node.ID != sh.ID {
			t.Fatalf("not in type 3's set: %+v", p)
		}
	})
}

// Bad input names the field and writes nothing.
func TestShopInputValidation(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		ok := CreateInput{Name: "n", TypeID: 1, Address: "a", X: 120, Y: 30}
		cases := map[string]func(in *CreateInput){
			"input.name":     func(in *CreateInput) { in.Name = "  " },
			"input.x":        func(in *CreateInput) { in.X = 181 },
			"input.y":        func(in *CreateInput) { in.Y = -86 },
			"input.avgPrice": func(in *CreateInput) { in.AvgPrice = ptr(int64(-1)) },
			"input.typeId":   func(in *CreateInput) { in.TypeID = 999 },
			"input.address":  func(in *CreateInput) { in.Address = "" },
			"input.images":   func(in *CreateInput) { in.Images = []string{"a,b"} },
		}
		before, _ := e.db.Client.Shop.Query().Count(ctx)
		for field, edit := range cases {
			in := ok
			edit(&in)
			_, err := s.Create(asAdmin(ctx), in)
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Code != apperr.BadUserInput || ae.Field != field {
				t.Errorf("%s: got %v", field, err)
			}
		}
		if _, err := s.Update(asAdmin(ctx), 1, UpdateInput{Name: ptr("")}); !isField(err, "input.name") {
			t.Errorf("update empty name: %v", err)
		}
		if _, err := s.Update(asAdmin(ctx), 1, UpdateInput{AvgPrice: ptr(int64(-5))}); !isField(err, "input.avgPrice") {
			t.Errorf("update negative price: %v", err)
		}
		if _, err := s.Update(asAdmin(ctx), 424242, UpdateInput{Name: ptr("x")}); !errors.Is(err, apperr.New(apperr.NotFound, "")) {
			t.Errorf("update unknown shop: %v", err)
		}
		after, _ := e.db.Client.Shop.Query().Count(ctx)
		if after != before {
			t.Fatalf("shops %d -> %d after rejected input", before, after)
		}
		if sh, _ := e.db.Client.Shop.Get(ctx, 1); sh.Name != "103茶餐厅" || sh.AvgPrice != 80 {
			t.Fatalf("shop 1 changed by a rejected update: %+v", sh)
		}
		// Paging arguments.
		if _, err := s.ByType(ctx, 1, nil, ptr(51), nil); !isField(err, "first") {
			t.Errorf("first 51: %v", err)
		}
		if _, err := s.ByType(ctx, 1, nil, nil, ptr("garbage")); !isField(err, "after") {
			t.Errorf("bad cursor: %v", err)
		}
		if _, err := s.ByType(ctx, 1, &Near{X: 200, Y: 30}, nil, nil); !isField(err, "near.x") {
			t.Errorf("near.x: %v", err)
		}
		if _, err := s.ByType(ctx, 1, &Near{X: 120, Y: 30, RadiusMeters: ptr(-1.0)}, nil, nil); !isField(err, "near.radiusMeters") {
			t.Errorf("radius: %v", err)
		}
	})
}

func isField(err error, field string) bool {
	var ae *apperr.Error
	return errors.As(err, &ae) && ae.Code == apperr.BadUserInput && ae.Field == field
}

// searchShops: name contains, % and _ match only themselves, paged.
func TestSearchShopsEscapesWildcards(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		for _, n := range []string{"100% Tea", "1000 Teas", "a_b Bar", "axb Bar"} {
			if _, err := s.Create(asAdmin(ctx), CreateInput{Name: n, TypeID: 1, Address: "a", X: 120, Y: 30}); err != nil {
				t.Fatal(err)
			}
		}
		names := func(q string) []string {
			got := collect(t, 1, func(after *string) (*Page, error) { return s.Search(ctx, q, "", ptr(1), after) })
			var out []string
			for _, g := range got {
				out = append(out, g.Node.Name)
			}
			return out
		}
		if got := names("0%"); !slices.Equal(got, []string{"100% Tea"}) {
			t.Errorf("0%%: %v", got)
		}
		if got := names("a_b"); !slices.Equal(got, []string{"a_b Bar"}) {
			t.Errorf("a_b: %v", got)
		}
		if got := names("Tea"); !slices.Equal(got, []string{"100% Tea", "1000 Teas"}) {
			t.Errorf("Tea: %v", got)
		}
		if got := names("茶餐厅"); len(got) == 0 {
			t.Error("seed shop not found")
		}
		if _, err := s.Search(ctx, " ", "", nil, nil); !isField(err, "name") {
			t.Errorf("empty name: %v", err)
		}
	})
}

// uvToday counts distinct visitors: users by id, anonymous readers by IP.
func TestUVToday(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		user := func(id int64) Visitor { return Visitor{UserID: id, Address: "10.9.9.9"} }
		ip := func(a string) Visitor { return Visitor{Address: a} }
		for _, v := range []Visitor{user(1), user(1), user(2), ip("10.0.0.1"), ip("10.0.0.1"), ip("10.0.0.2"), user(2)} {
			if _, err := s.View(ctx, 5, v); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.UVToday(ctx, 5); err != nil || n != 4 {
			t.Fatalf("uv %d %v, want 4", n, err)
		}
		if n, _ := s.UVToday(ctx, 6); n != 0 {
			t.Fatalf("shop 6: %d", n)
		}
		// A missing shop counts nobody.
		if _, err := s.View(ctx, 424242, user(3)); err != nil {
			t.Fatal(err)
		}
		if n := e.redis.Client.Exists(ctx, s.uvKey(424242, s.now())).Val(); n != 0 {
			t.Fatal("uv counted for a missing shop")
		}
		if ttl := e.redis.Client.TTL(ctx, s.uvKey(5, s.now())).Val(); ttl <= 0 || ttl > uvKeyTTL {
			t.Fatalf("uv key ttl %v", ttl)
		}
		// Another instance's visitor arrives within its flush interval.
		other := e.instance(t, nil)
		if _, err := other.View(ctx, 5, user(9)); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 3*time.Second, "the other instance's visitor", func() bool {
			n, _ := s.UVToday(ctx, 5)
			return n == 5
		})
	})
}

// A nearby cursor at distance 0 (a shop right at near) reads back: the
// cursor's encoding leaves a zero value out.
func TestNearbyCursorAtDistanceZero(t *testing.T) {
	for _, d := range []float64{0, 12.5} {
		s := page.Cursor{ID: 5, Value: d}.String()
		got, err := distanceCursor(&s)
		if err != nil || got == nil || got.id != 5 || got.dist != d {
			t.Fatalf("distance %v: %+v %v", d, got, err)
		}
	}
	s := page.Cursor{ID: 5, Value: "x"}.String()
	if _, err := distanceCursor(&s); !isField(err, "after") {
		t.Fatalf("a string value: %v", err)
	}
}
