package shop

import (
	"context"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/predicate"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/page"
)

// Filter narrows shops(typeId:) (GraphQL ShopFilter): one area of the type,
// and a range of the price per person in whole yuan (both ends included).
type Filter struct {
	Area     *string `json:"area"`
	MinPrice *int    `json:"minPrice"`
	MaxPrice *int    `json:"maxPrice"`
}

// MaxAreas is the most areas ShopAreas lists for one type.
const MaxAreas = 100

// maxPrice bounds a price filter (no price per person comes near it).
const maxPrice = 1_000_000

// sortColumns are the column each sort orders by, and whether it descends.
var sortColumns = map[enum.ShopSort]struct {
	col  string
	desc bool
}{
	enum.ShopSortScoreDesc:    {entshop.FieldScore, true},
	enum.ShopSortSoldDesc:     {entshop.FieldSold, true},
	enum.ShopSortCommentsDesc: {entshop.FieldComments, true},
	enum.ShopSortPriceAsc:     {entshop.FieldAvgPrice, false},
	enum.ShopSortPriceDesc:    {entshop.FieldAvgPrice, true},
}

// Discover pages the shops of a type in the given order (nil: nearest first
// with near, else by id), narrowed by filter (by distance too: see
// nearbyFiltered). Each order is a keyset on
// (column, id) that an index of tb_shop serves (ent/schema/shop.go), so a
// page reads first+1 index entries whatever page it is, plus, with a price
// range on another order, the entries of the type (and area) it skips.
func (s *Service) Discover(ctx context.Context, typeID int64, near *Near, sort *enum.ShopSort, filter *Filter, first *int, after *string) (*Page, error) {
	order := enum.ShopSortID
	if near != nil {
		order = enum.ShopSortDistance
	}
	if sort != nil {
		order = *sort
	}
	where, err := filter.predicate()
	if err != nil {
		return nil, err
	}
	switch {
	case order == enum.ShopSortDistance && near == nil:
		return nil, apperr.BadInput("near", "sort DISTANCE needs near")
	case order != enum.ShopSortDistance && near != nil:
		return nil, apperr.BadInput("near", "only with sort DISTANCE")
	case order == enum.ShopSortDistance && where != nil:
		return s.nearbyFiltered(ctx, typeID, *near, where, first, after)
	case order == enum.ShopSortDistance:
		return s.nearby(ctx, typeID, *near, first, after)
	}
	preds := []predicate.Shop{entshop.TypeID(typeID)}
	if where != nil {
		preds = append(preds, where...)
	}
	if order == enum.ShopSortID {
		return s.byID(ctx, entshop.And(preds...), first, after)
	}
	c, ok := sortColumns[order]
	if !ok {
		return nil, apperr.BadInput("sort", "unknown order")
	}
	return s.byColumn(ctx, preds, c.col, c.desc, first, after)
}

// predicate is the filter's condition (nil when it narrows nothing), or the
// error naming the field that is out of range.
func (f *Filter) predicate() ([]predicate.Shop, error) {
	if f == nil {
		return nil, nil
	}
	var out []predicate.Shop
	if f.Area != nil {
		area := strings.TrimSpace(*f.Area)
		switch {
		case area == "":
			return nil, apperr.BadInput("filter.area", "must not be empty")
		case utf8.RuneCountInString(area) > maxlen.ShopArea:
			return nil, apperr.BadInput("filter.area", "must be at most %d characters", maxlen.ShopArea)
		}
		out = append(out, entshop.Area(area))
	}
	if f.MinPrice != nil {
		if *f.MinPrice < 0 || *f.MinPrice > maxPrice {
			return nil, apperr.BadInput("filter.minPrice", "must be between 0 and %d", maxPrice)
		}
		out = append(out, entshop.AvgPriceGTE(int64(*f.MinPrice)))
	}
	if f.MaxPrice != nil {
		if *f.MaxPrice < 0 || *f.MaxPrice > maxPrice {
			return nil, apperr.BadInput("filter.maxPrice", "must be between 0 and %d", maxPrice)
		}
		if f.MinPrice != nil && *f.MaxPrice < *f.MinPrice {
			return nil, apperr.BadInput("filter.maxPrice", "must not be below minPrice")
		}
		out = append(out, entshop.AvgPriceLTE(int64(*f.MaxPrice)))
	}
	return out, nil
}

// byColumn pages the shops matching preds by (col, id), both descending or
// both ascending: the cursor is the last shop's (id, col value), and the next
// page starts strictly after it. A shop whose col is NULL (avg_price may be,
// in hmdp.sql) has no place in the order and is left out.
func (s *Service) byColumn(ctx context.Context, preds []predicate.Shop, col string, desc bool, first *int, after *string) (*Page, error) {
	n, err := pageSize(first)
	if err != nil {
		return nil, err
	}
	cur, err := decodeCursor(after)
	if err != nil {
		return nil, err
	}
	q := s.db.Shop.Query().Where(preds...).Where(func(sel *sql.Selector) { sel.Where(sql.NotNull(sel.C(col))) })
	if cur != nil {
		v, err := page.Int(cur.Value)
		if err != nil {
			return nil, err
		}
		q = q.Where(func(sel *sql.Selector) {
			past, tie := sql.GT, sql.GT
			if desc {
				past, tie = sql.LT, sql.LT
			}
			sel.Where(sql.Or(past(sel.C(col), v), sql.And(sql.EQ(sel.C(col), v), tie(sel.C(entshop.FieldID), cur.ID))))
		})
	}
	dir := ent.Asc
	if desc {
		dir = ent.Desc
	}
	rows, err := q.Order(dir(col, entshop.FieldID)).Limit(n + 1).All(database.LagTolerant(ctx))
	if err != nil {
		return nil, err
	}
	cursor := func(sh *ent.Shop) page.Cursor { return page.Cursor{ID: sh.ID, Value: columnValue(sh, col)} }
	p := &Page{Edges: []Edge{}, Info: page.Make(len(rows), n, func(i int) page.Cursor { return cursor(rows[i]) })}
	for _, sh := range rows[:min(n, len(rows))] {
		p.Edges = append(p.Edges, Edge{Node: sh, Cursor: cursor(sh)})
	}
	return p, nil
}

// columnValue is the value of a sort column of sh, for its cursor.
func columnValue(sh *ent.Shop, col string) int64 {
	switch col {
	case entshop.FieldScore:
		return int64(sh.Score)
	case entshop.FieldSold:
		return int64(sh.Sold)
	case entshop.FieldComments:
		return int64(sh.Comments)
	default:
		return sh.AvgPrice
	}
}

// Areas lists the areas (商区) of a type's shops, in the collation's order,
// at most MaxAreas of them: the filter chips of shops(filter: {area}).
func (s *Service) Areas(ctx context.Context, typeID int64) ([]string, error) {
	areas, err := s.db.Shop.Query().Where(entshop.TypeID(typeID), entshop.AreaNEQ("")).
		Unique(true).Order(ent.Asc(entshop.FieldArea)).Limit(MaxAreas).
		Select(entshop.FieldArea).Strings(database.LagTolerant(ctx))
	if err != nil {
		return nil, err
	}
	if areas == nil {
		areas = []string{}
	}
	return areas, nil
}

// maxNearbyScan bounds the shops of the GEO set one filtered nearby page
// looks at (a variable so tests can make it small).
var maxNearbyScan = 500

// nearbyFiltered is nearby narrowed by a filter: the GEO set gives the
// nearest shops after the cursor, MySQL keeps those the filter matches, and
// the set is asked for four times as many while too few match. A page looks
// at no more than maxNearbyScan shops: if that many match too rarely, it
// ends early, with hasNextPage and its end cursor at the last shop looked at,
// so the next page goes on from there and no shop is skipped or repeated.
func (s *Service) nearbyFiltered(ctx context.Context, typeID int64, near Near, where []predicate.Shop, first *int, after *string) (*Page, error) {
	n, err := pageSize(first)
	if err != nil {
		return nil, err
	}
	radius, err := nearRadius(near)
	if err != nil {
		return nil, err
	}
	cur, err := distanceCursor(after)
	if err != nil {
		return nil, err
	}
	if err := s.geo.ensure(ctx, typeID); err != nil {
		return nil, err
	}
	cursor := func(h geoHit) page.Cursor { return page.Cursor{ID: h.id, Value: h.dist} }
	for want := n; ; want *= 4 {
		hits, err := s.nearestAfter(ctx, typeID, near, radius, cur, want)
		if err != nil {
			return nil, err
		}
		all := len(hits) <= want // nearestAfter returns more only when more exist
		cut := len(hits) > maxNearbyScan
		hits = hits[:min(len(hits), maxNearbyScan)]
		ids := make([]int64, len(hits))
		for i, h := range hits {
			ids[i] = h.id
		}
		rows, err := s.db.Shop.Query().Where(entshop.IDIn(ids...)).Where(where...).All(database.LagTolerant(ctx))
		if err != nil {
			return nil, err
		}
		byID := make(map[int64]*ent.Shop, len(rows))
		for _, r := range rows {
			byID[r.ID] = r
		}
		var matched []geoHit
		for _, h := range hits {
			if byID[h.id] != nil {
				matched = append(matched, h)
			}
		}
		if len(matched) <= n && !all && !cut {
			continue // too few matched among these: look further
		}
		p := &Page{Edges: []Edge{}, Info: page.Make(len(matched), n, func(i int) page.Cursor { return cursor(matched[i]) })}
		if len(matched) <= n && cut {
			// Looked at as many as a page may: go on from the last one.
			last := cursor(hits[len(hits)-1])
			p.Info.HasNextPage, p.Info.EndCursor = true, &last
		}
		for _, h := range matched[:min(n, len(matched))] {
			sh := byID[h.id]
			sh.Distance = &h.dist
			p.Edges = append(p.Edges, Edge{Node: sh, Cursor: cursor(h)})
		}
		return p, nil
	}
}
