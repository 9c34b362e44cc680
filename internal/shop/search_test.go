package shop

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/ent/shopsearch"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// searchIDs pages through searchShops(name: q), first at a time.
func searchIDs(t *testing.T, s *Service, q string, first int) []int64 {
	t.Helper()
	got := collect(t, first, func(after *string) (*Page, error) { return s.Search(context.Background(), q, "", ptr(first), after) })
	ids := make([]int64, len(got))
	for i, g := range got {
		ids[i] = g.Node.ID
	}
	return ids
}

// Every word must match (name, area or address, any case), and a word may be
// the pinyin of the name or area, in full or as initials: "haidilao" and
// "海底捞 水晶城" find the seeded 海底捞 (shop 5) and nothing else.
func TestSearchWordsAndPinyin(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		for q, want := range map[string][]int64{
			"haidilao":               {5},
			"HaiDiLao":               {5},
			"hdl":                    {5},
			"海底捞 水晶城":                {5},
			"  海底捞   水晶城  ":          {5},
			"haidilao shuijingcheng": {5}, // the name's pinyin holds the mall's too
			"海底捞 上塘路":                {5}, // a word of the address
			"海底捞 大关":                 {5}, // the area
			"海底捞 daguan":             {5}, // the area's pinyin
			"海底捞 西湖":                 nil,
			"haidilao ktv":           nil,
			"水晶城":                    {5, 11},
			"ktv 水晶城":                {11},
		} {
			for _, first := range []int{1, 10} {
				if got := searchIDs(t, s, q, first); !slices.Equal(got, want) {
					t.Errorf("%q (first %d): got %v, want %v", q, first, got, want)
				}
			}
		}
	})
}

// A shop is found by its new name's pinyin as soon as createShop or
// updateShop returns, and no longer by the old one's; a shop written around
// the service (SQL) is found once an instance has started.
func TestSearchRowsFollowWrites(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		sh, err := s.Create(asAdmin(ctx), CreateInput{Name: "小龙坎火锅", TypeID: 1, Area: ptr("滨江"), Address: "江南大道1号", X: 120.2, Y: 30.2})
		if err != nil {
			t.Fatal(err)
		}
		if got := searchIDs(t, s, "xiaolongkan binjiang", 10); !slices.Equal(got, []int64{sh.ID}) {
			t.Fatalf("created shop by pinyin: %v", got)
		}
		if _, err := s.Update(asAdmin(ctx), sh.ID, UpdateInput{Name: ptr("大龙燚火锅")}); err != nil {
			t.Fatal(err)
		}
		if got := searchIDs(t, s, "xiaolongkan", 10); len(got) != 0 {
			t.Fatalf("old name still found: %v", got)
		}
		if got := searchIDs(t, s, "dly 江南大道", 10); !slices.Equal(got, []int64{sh.ID}) {
			t.Fatalf("updated shop by initials and address: %v", got)
		}
		// Written by SQL, past the service: no row until an instance starts.
		raw, err := e.db.Client.Shop.Create().SetName("外婆家").SetTypeID(1).SetAddress("湖滨路").SetX(120).SetY(30).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := searchIDs(t, s, "waipojia", 10); len(got) != 0 {
			t.Fatalf("found before any row was written: %v", got)
		}
		if err := e.db.Client.Shop.Update().Where(entshop.ID(5)).SetName("海底捞火锅(湖滨店)").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		s2 := e.instance(t, nil)
		if got := searchIDs(t, s2, "waipojia", 10); !slices.Equal(got, []int64{raw.ID}) {
			t.Fatalf("shop written by SQL after a start: %v", got)
		}
		if got := searchIDs(t, s2, "haidilao hubin", 10); !slices.Equal(got, []int64{5}) {
			t.Fatalf("row of a shop renamed by SQL not refreshed at start: %v", got)
		}
		shops, _ := e.db.Client.Shop.Query().Count(ctx)
		rows, _ := e.db.Client.ShopSearch.Query().Where(shopsearch.IDGT(0)).Count(ctx)
		if rows != shops {
			t.Fatalf("%d search rows for %d shops", rows, shops)
		}
	})
}

// A query is bounded before it reaches MySQL: at most 5 words and 64
// characters, not empty; each limit names the field.
func TestSearchLimits(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		for _, q := range []string{"", "   ", "a b c d e f", strings.Repeat("海", MaxSearchRunes+1)} {
			if _, err := s.Search(ctx, q, "", nil, nil); !isField(err, "name") {
				t.Errorf("%q: %v", q, err)
			}
		}
		if _, err := s.Search(ctx, "a b c d e", "", nil, nil); err != nil {
			t.Errorf("five words: %v", err)
		}
		if _, err := s.Search(ctx, strings.Repeat("海", MaxSearchRunes), "", nil, nil); err != nil {
			t.Errorf("64 characters: %v", err)
		}
		if _, err := s.Search(ctx, "海底捞", "", ptr(0), nil); !isField(err, "first") {
			t.Errorf("first 0: %v", err)
		}
	})
}

// Each client address may search SearchLimit times; a refused search reads
// nothing, and a query refused for its arguments is not counted.
func TestSearchIsRateLimitedPerAddress(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, func(c *Config) {
			c.Limiter = ratelimit.New(e.redis.Client, e.redis.Prefix, true)
			c.SearchLimit = ratelimit.Limit{Events: 3, Per: time.Minute}
		})
		ctx := context.Background()
		if _, err := s.Search(ctx, "a b c d e f", "10.0.0.1", nil, nil); !isField(err, "name") {
			t.Fatalf("six words: %v", err)
		}
		for i := range 3 {
			if _, err := s.Search(ctx, "haidilao", "10.0.0.1", nil, nil); err != nil {
				t.Fatalf("search %d: %v", i, err)
			}
		}
		before := e.q.all.Load()
		_, err := s.Search(ctx, "haidilao", "10.0.0.1", nil, nil)
		if ae, ok := apperr.As(err); !ok || ae.Code != apperr.RateLimited || ae.RetryAfterMs <= 0 {
			t.Fatalf("fourth search: %v", err)
		}
		if n := e.q.all.Load() - before; n != 0 {
			t.Fatalf("a refused search ran %d statements", n)
		}
		if _, err := s.Search(ctx, "haidilao", "10.0.0.2", nil, nil); err != nil {
			t.Fatalf("another address: %v", err)
		}
	})
}
