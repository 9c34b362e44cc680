package shop

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/internal/testenv"
)

// discoverShop is a shop of the test type, with the columns the orders use.
type discoverShop struct {
	id                           int64
	area                         string
	score, sold, comments, price int
}

// addDiscoverShops creates a type of its own and 23 shops in it with many
// ties in every sort column (so pages end inside runs of equal values), in
// three areas; one shop's price is NULL, as hmdp.sql allows.
func addDiscoverShops(t *testing.T, db *ent.Client) (typeID int64, shops []discoverShop, nullPrice int64) {
	t.Helper()
	ctx := context.Background()
	st, err := db.ShopType.Create().SetName("discover").SetIcon("").SetSort(99).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	areas := []string{"westLake", "gongshu", "binjiang"}
	for i := range 23 {
		d := discoverShop{area: areas[i%3], score: 40 + (i*7)%3*5, sold: (i * 5) % 4 * 100, comments: (i * 3) % 5, price: 50 + (i*11)%4*25}
		c := db.Shop.Create().SetName(fmt.Sprintf("d%02d", i)).SetTypeID(st.ID).SetArea(d.area).SetAddress("a").
			SetX(120).SetY(30).SetScore(d.score).SetSold(d.sold).SetComments(d.comments)
		if i != 7 {
			c.SetAvgPrice(int64(d.price))
		}
		sh, err := c.Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		d.id = sh.ID
		if i == 7 {
			nullPrice = sh.ID
		}
		shops = append(shops, d)
	}
	return st.ID, shops, nullPrice
}

// Each order pages through the type in (column, id) order, both descending
// or both ascending, for every page size: ties across page ends are neither
// repeated nor skipped; area and price filters narrow every order; price
// orders leave a NULL price out.
func TestDiscoverOrdersPageThroughTies(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		typeID, shops, nullPrice := addDiscoverShops(t, e.db.Client)
		col := map[enum.ShopSort]func(d discoverShop) int{
			enum.ShopSortID:           func(discoverShop) int { return 0 },
			enum.ShopSortScoreDesc:    func(d discoverShop) int { return d.score },
			enum.ShopSortSoldDesc:     func(d discoverShop) int { return d.sold },
			enum.ShopSortCommentsDesc: func(d discoverShop) int { return d.comments },
			enum.ShopSortPriceAsc:     func(d discoverShop) int { return d.price },
			enum.ShopSortPriceDesc:    func(d discoverShop) int { return d.price },
		}
		filters := map[string]*Filter{
			"none":         nil,
			"area":         {Area: ptr("gongshu")},
			"price":        {MinPrice: ptr(75), MaxPrice: ptr(100)},
			"area+price":   {Area: ptr("westLake"), MinPrice: ptr(100)},
			"maxPriceOnly": {MaxPrice: ptr(75)},
		}
		for order, value := range col {
			desc := order == enum.ShopSortScoreDesc || order == enum.ShopSortSoldDesc ||
				order == enum.ShopSortCommentsDesc || order == enum.ShopSortPriceDesc
			price := order == enum.ShopSortPriceAsc || order == enum.ShopSortPriceDesc
			for fname, f := range filters {
				var want []int64
				sorted := slices.Clone(shops)
				slices.SortFunc(sorted, func(a, b discoverShop) int {
					c := cmp.Or(cmp.Compare(value(a), value(b)), cmp.Compare(a.id, b.id))
					if desc {
						return -c
					}
					return c
				})
				for _, d := range sorted {
					switch {
					case f != nil && f.Area != nil && d.area != *f.Area,
						f != nil && (f.MinPrice != nil || f.MaxPrice != nil) && d.id == nullPrice,
						f != nil && f.MinPrice != nil && d.price < *f.MinPrice,
						f != nil && f.MaxPrice != nil && d.price > *f.MaxPrice,
						price && d.id == nullPrice:
						continue
					}
					want = append(want, d.id)
				}
				if len(want) < 3 {
					t.Fatalf("%v %s: only %d shops; the test data should give more", order, fname, len(want))
				}
				for _, first := range []int{1, 2, 3, 50} {
					got := collect(t, first, func(after *string) (*Page, error) {
						return s.Discover(ctx, typeID, nil, ptr(order), f, ptr(first), after)
					})
					ids := make([]int64, len(got))
					for i, g := range got {
						ids[i] = g.Node.ID
					}
					if !slices.Equal(ids, want) {
						t.Errorf("%v, filter %s, first %d:\n got  %v\n want %v", order, fname, first, ids, want)
					}
				}
			}
		}
	})
}

// Bad sort and filter arguments name the field.
func TestDiscoverArgumentErrors(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		near := &Near{X: 120.15, Y: 30.33}
		cases := map[string]func() error{
			"near": func() error {
				_, err := s.Discover(ctx, 1, nil, ptr(enum.ShopSortDistance), nil, nil, nil)
				return err
			},
			"near ": func() error { // near with another order
				_, err := s.Discover(ctx, 1, near, ptr(enum.ShopSortScoreDesc), nil, nil, nil)
				return err
			},
			"filter.area": func() error {
				_, err := s.Discover(ctx, 1, nil, nil, &Filter{Area: ptr(" ")}, nil, nil)
				return err
			},
			"filter.area ": func() error {
				_, err := s.Discover(ctx, 1, nil, nil, &Filter{Area: ptr(strings.Repeat("区", 129))}, nil, nil)
				return err
			},
			"filter.minPrice": func() error {
				_, err := s.Discover(ctx, 1, nil, nil, &Filter{MinPrice: ptr(-1)}, nil, nil)
				return err
			},
			"filter.maxPrice": func() error {
				_, err := s.Discover(ctx, 1, nil, nil, &Filter{MinPrice: ptr(100), MaxPrice: ptr(50)}, nil, nil)
				return err
			},
			"first": func() error {
				_, err := s.Discover(ctx, 1, nil, ptr(enum.ShopSortScoreDesc), nil, ptr(51), nil)
				return err
			},
			"after": func() error {
				bad := "xyz"
				_, err := s.Discover(ctx, 1, nil, ptr(enum.ShopSortScoreDesc), nil, nil, &bad)
				return err
			},
			"sort": func() error {
				_, err := s.Discover(ctx, 1, nil, ptr(enum.ShopSort(99)), nil, nil, nil)
				return err
			},
		}
		for field, run := range cases {
			if err := run(); !isField(err, strings.TrimSpace(field)) {
				t.Errorf("%q: %v", field, err)
			}
		}
		// A cursor whose value is not a number is not one of these lists'.
		p, err := s.Discover(ctx, 1, near, nil, nil, ptr(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if c := p.Info.EndCursor.String(); true {
			if _, err := s.Discover(ctx, 1, nil, ptr(enum.ShopSortPriceAsc), nil, nil, &c); !isField(err, "after") {
				t.Errorf("distance cursor on a price order: %v", err)
			}
		}
		// The default orders are unchanged: id without near, distance with it.
		if p, err := s.Discover(ctx, 1, near, nil, nil, ptr(2), nil); err != nil || p.Edges[0].Node.Distance == nil {
			t.Errorf("near without sort is not by distance: %v", err)
		}
	})
}

// shopAreas lists a type's distinct areas in order, without empty ones.
func TestShopAreas(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		typeID, _, _ := addDiscoverShops(t, e.db.Client)
		if _, err := e.db.Client.Shop.Create().SetName("no area").SetTypeID(typeID).SetAddress("a").SetX(1).SetY(1).Save(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := s.Areas(ctx, typeID)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"binjiang", "gongshu", "westLake"}; !slices.Equal(got, want) {
			t.Fatalf("areas %v, want %v", got, want)
		}
		if got, err := s.Areas(ctx, 424242); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("unknown type: %v %v", got, err)
		}
	})
}

// statements records the SELECTs of tb_shop an ent client sends, with their arguments
// (ent's debug driver prints them as "query=… args=[…]").
type statements struct {
	mu   sync.Mutex
	last []string
}

func (s *statements) log(args ...any) {
	line := fmt.Sprint(args...)
	if strings.Contains(line, "query=SELECT") && strings.Contains(line, "FROM `tb_shop` WHERE") {
		s.mu.Lock()
		s.last = append(s.last, line)
		s.mu.Unlock()
	}
}

// take returns the statements since the last take, as SQL and arguments.
func (s *statements) take(t *testing.T) [][2]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][2]any
	for _, line := range s.last {
		_, q, _ := strings.Cut(line, "query=")
		q, rawArgs, _ := strings.Cut(q, " args=[")
		rawArgs = strings.TrimSuffix(strings.TrimSpace(rawArgs), "]")
		var args []any
		for _, a := range strings.Fields(rawArgs) {
			if n, err := strconv.ParseInt(a, 10, 64); err == nil {
				args = append(args, n)
			} else {
				args = append(args, a)
			}
		}
		out = append(out, [2]any{q, args})
	}
	s.last = nil
	return out
}

// explain is MariaDB's plan of a statement's first table.
func explain(t *testing.T, db *sql.DB, query string, args []any) map[string]string {
	t.Helper()
	r, err := db.QueryContext(context.Background(), "EXPLAIN "+query, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	defer r.Close()
	cols, _ := r.Columns()
	if !r.Next() {
		t.Fatal("EXPLAIN returned nothing")
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := r.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	plan := map[string]string{}
	for i, c := range cols {
		plan[c] = vals[i].String
	}
	return plan
}

// On a real MariaDB, the statement of every order, first page and after a
// cursor, with and without an area, reads one index of tb_shop in order
// (no filesort, no table scan), so a page costs first+1 index entries
// however many shops the type has.
func TestDiscoverOrdersUseIndexes(t *testing.T) {
	if testenv.RealMySQLDSN() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN")
	}
	st := &statements{}
	db := testenv.NewMySQL(t, ent.Debug(), ent.Log(st.log))
	ctx := context.Background()
	const types, perType = 10, 300
	for ty := 1; ty <= types; ty++ {
		if _, err := db.Client.ShopType.Create().SetName("t").SetIcon("").SetSort(ty).Save(ctx); err != nil {
			t.Fatal(err)
		}
		rows := make([]*ent.ShopCreate, perType)
		for i := range perType {
			rows[i] = db.Client.Shop.Create().SetName("s").SetTypeID(int64(ty)).SetArea("area" + strconv.Itoa(i%12)).
				SetAddress("a").SetX(120).SetY(30).SetScore(i % 50).SetSold(i * 7 % 1000).SetComments(i * 3 % 500).SetAvgPrice(int64(i % 200))
		}
		if err := db.Client.Shop.CreateBulk(rows...).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SQL.ExecContext(ctx, "ANALYZE TABLE tb_shop"); err != nil {
		t.Fatal(err)
	}
	s := env{db: db, redis: testenv.NewEmbeddedRedis(t), q: &queries{}}.instance(t, nil)
	st.take(t)
	for order, col := range map[enum.ShopSort]string{
		enum.ShopSortID: "", enum.ShopSortScoreDesc: "score", enum.ShopSortSoldDesc: "sold",
		enum.ShopSortCommentsDesc: "comments", enum.ShopSortPriceAsc: "avg_price", enum.ShopSortPriceDesc: "avg_price",
	} {
		for _, f := range []*Filter{nil, {Area: ptr("area3")}, {MinPrice: ptr(10), MaxPrice: ptr(150)}} {
			p, err := s.Discover(ctx, 4, nil, ptr(order), f, ptr(10), nil)
			if err != nil {
				t.Fatal(err)
			}
			c := p.Info.EndCursor.String()
			if _, err := s.Discover(ctx, 4, nil, ptr(order), f, ptr(10), &c); err != nil {
				t.Fatal(err)
			}
			want := map[bool]string{false: "idx_shop_type_" + col, true: "idx_shop_type_area_" + col}[f != nil && f.Area != nil]
			if col == "" {
				want = map[bool]string{false: "foreign_key_type", true: "idx_shop_type_area"}[f != nil && f.Area != nil]
			}
			stmts := st.take(t)
			if len(stmts) != 2 {
				t.Fatalf("%v: %d statements, want 2: %v", order, len(stmts), stmts)
			}
			for _, stmt := range stmts {
				plan := explain(t, db.SQL, stmt[0].(string), stmt[1].([]any))
				// In id order MariaDB may walk the primary key from the cursor
				// instead (also in order: it stops after first+1 matches).
				key := plan["key"] == want || (col == "" && plan["key"] == "PRIMARY")
				if !key || plan["type"] == "ALL" || strings.Contains(plan["Extra"], "filesort") {
					t.Errorf("%v filter %+v: %s\n uses %v, want key %s without filesort", order, f, stmt[0], plan, want)
				}
			}
		}
	}
}

// Nearest first with a filter: the shops within the radius that match, in
// (distance, id) order, through pages of every size, also when a page may
// look at only a few shops of the GEO set (the page then ends early at the
// last one it looked at, and the next goes on from there).
func TestNearbyFiltered(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		x, y := 120.149993, 30.334229
		rows, err := e.db.Client.Shop.Query().Where(entshop.TypeID(1)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		type hit struct {
			id   int64
			dist float64
		}
		for name, f := range map[string]*Filter{
			"area":  {Area: ptr("大关")},
			"price": {MaxPrice: ptr(80)},
			"both":  {Area: ptr("大关"), MinPrice: ptr(50)},
		} {
			var want []hit
			for _, r := range rows {
				d := haversine(x, y, r.X, r.Y)
				switch {
				case d >= 5000,
					f.Area != nil && r.Area != *f.Area,
					f.MinPrice != nil && r.AvgPrice < int64(*f.MinPrice),
					f.MaxPrice != nil && r.AvgPrice > int64(*f.MaxPrice):
					continue
				}
				want = append(want, hit{r.ID, d})
			}
			slices.SortFunc(want, func(a, b hit) int { return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.id, b.id)) })
			if len(want) < 2 || len(want) == len(rows) {
				t.Fatalf("%s: %d of %d shops match; the filter should keep some, not all", name, len(want), len(rows))
			}
			for _, scan := range []int{500, 3} {
				old := maxNearbyScan
				maxNearbyScan = scan
				for _, first := range []int{1, 2, 50} {
					// A page that looked at its most without a match is empty,
					// and says more follow.
					var got []Edge
					var after *string
					for pages := 0; ; pages++ {
						p, err := s.Discover(ctx, 1, &Near{X: x, Y: y}, nil, f, ptr(first), after)
						if err != nil || pages > len(rows) || len(p.Edges) > first {
							t.Fatalf("%s, scan %d, first %d: page %d: %v", name, scan, first, pages, err)
						}
						got = append(got, p.Edges...)
						if !p.Info.HasNextPage {
							break
						}
						c := p.Info.EndCursor.String()
						after = &c
					}
					if len(got) != len(want) {
						t.Fatalf("%s, scan %d, first %d: %d shops, want %d", name, scan, first, len(got), len(want))
					}
					for i, g := range got {
						if g.Node.ID != want[i].id || g.Node.Distance == nil || math.Abs(*g.Node.Distance-want[i].dist) > 1 {
							t.Fatalf("%s, scan %d, first %d: #%d is shop %d, want %d", name, scan, first, i, g.Node.ID, want[i].id)
						}
					}
				}
				maxNearbyScan = old
			}
		}
	})
}
