package shop

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/predicate"
	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/page"
)

// geoMinCount is the fewest members one GEO search asks for (a variable so
// tests can make searches come back cut short).
var geoMinCount = 64

// Paging limits of every shop connection (docs/API.md).
const (
	DefaultFirst  = page.Default
	MaxFirst      = page.Max // but first must be at least 1
	DefaultRadius = 5000.0
	// maxLatitude is the limit of Redis GEO (EPSG:3857).
	maxLatitude = 85.05112878
)

// Near is the centre and radius of a nearby search.
type Near struct {
	X, Y float64
	// RadiusMeters is the search radius; nil means 5000 m.
	RadiusMeters *float64
}

// Edge is a shop with its cursor (GraphQL ShopEdge).
type Edge struct {
	Cursor page.Cursor
	Node   *ent.Shop
}

// Page is one page of shops (GraphQL ShopConnection).
type Page struct {
	Edges []Edge
	Info  page.Info
}

// decodeCursor reads a shop list's cursor: the shop id, and for nearby
// search the distance as the value. Unlike page.After, an empty after is
// refused (as it always was on the shop lists).
func decodeCursor(after *string) (*page.Cursor, error) {
	if after == nil {
		return nil, nil
	}
	c, err := page.Decode(*after)
	if err != nil {
		return nil, apperr.BadInput("after", "not a cursor of this list")
	}
	return &c, nil
}

func pageSize(first *int) (int, error) {
	if first == nil {
		return DefaultFirst, nil
	}
	if *first < 1 || *first > MaxFirst {
		return 0, apperr.BadInput("first", "must be between 1 and %d", MaxFirst)
	}
	return *first, nil
}

// byID pages shops matching where in id order.
func (s *Service) byID(ctx context.Context, where predicate.Shop, first *int, after *string) (*Page, error) {
	n, err := pageSize(first)
	if err != nil {
		return nil, err
	}
	cur, err := decodeCursor(after)
	if err != nil {
		return nil, err
	}
	q := s.db.Shop.Query().Where(where)
	if cur != nil {
		if cur.Value != nil {
			return nil, apperr.BadInput("after", "not a cursor of this list")
		}
		q = q.Where(entshop.IDGT(cur.ID))
	}
	rows, err := q.Order(ent.Asc(entshop.FieldID)).Limit(n + 1).All(database.LagTolerant(ctx))
	if err != nil {
		return nil, err
	}
	p := &Page{Edges: []Edge{}, Info: page.Make(len(rows), n, func(i int) page.Cursor { return page.Cursor{ID: rows[i].ID} })}
	for _, sh := range rows[:min(n, len(rows))] {
		p.Edges = append(p.Edges, Edge{Node: sh, Cursor: page.Cursor{ID: sh.ID}})
	}
	return p, nil
}

// ByType pages the shops of a type in id order, or, with near, nearest first
// within the radius.
func (s *Service) ByType(ctx context.Context, typeID int64, near *Near, first *int, after *string) (*Page, error) {
	return s.Discover(ctx, typeID, near, nil, nil, first, after)
}

// nearby pages a type's shops by distance, from its GEO set. The cursor is
// the (distance, id) of the last shop shown; a page holds the shops after it
// in (distance, id) order, so pages neither skip nor repeat shops, even ones
// at equal distances.
func (s *Service) nearby(ctx context.Context, typeID int64, near Near, first *int, after *string) (*Page, error) {
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
	hits, err := s.nearestAfter(ctx, typeID, near, radius, cur, n)
	if err != nil {
		return nil, err
	}
	return s.nearbyPage(ctx, hits, n)
}

// nearRadius checks near and returns its radius (DefaultRadius when unset).
func nearRadius(near Near) (float64, error) {
	radius := DefaultRadius
	if near.RadiusMeters != nil {
		radius = *near.RadiusMeters
	}
	switch {
	case math.IsNaN(near.X) || near.X < -180 || near.X > 180:
		return 0, apperr.BadInput("near.x", "longitude must be between -180 and 180")
	case math.IsNaN(near.Y) || near.Y < -maxLatitude || near.Y > maxLatitude:
		return 0, apperr.BadInput("near.y", "latitude must be between -%v and %v", maxLatitude, maxLatitude)
	case math.IsNaN(radius) || radius <= 0 || radius > 20_000_000:
		return 0, apperr.BadInput("near.radiusMeters", "must be above 0 and at most 20000000")
	}
	return radius, nil
}

// geoHit is a shop found by distance.
type geoHit struct {
	id   int64
	dist float64
}

// distanceCursor decodes a nearby page's cursor: the last shop shown, nil for
// the first page.
func distanceCursor(after *string) (*geoHit, error) {
	cur, err := decodeCursor(after)
	if err != nil || cur == nil {
		return nil, err
	}
	var d float64
	switch v := cur.Value.(type) {
	case nil: // a cursor leaves a zero value out: a shop right at near
	case float64:
		d = v
	default:
		return nil, apperr.BadInput("after", "not a cursor of this list")
	}
	return &geoHit{id: cur.ID, dist: d}, nil
}

// nearestAfter returns the shops after cur (nil: from the nearest) in
// (distance, id) order: at least n+1 of them when the radius holds that
// many, so the page knows whether another follows. It asks the GEO set for
// twice as many members each time an answer falls short.
func (s *Service) nearestAfter(ctx context.Context, typeID int64, near Near, radius float64, cur *geoHit, n int) ([]geoHit, error) {
	var hits []geoHit
	for count := max(geoMinCount, 2*(n+1)); ; count *= 2 {
		locs, err := s.geo.nearest(ctx, typeID, near.X, near.Y, radius, count)
		if err != nil {
			return nil, err
		}
		complete := len(locs) < count
		// A full answer may have cut a run of equal distances short: keep
		// only distances below the last one, which are all there.
		var edge float64
		if !complete {
			edge = locs[len(locs)-1].Dist
		}
		hits = hits[:0]
		for _, l := range locs {
			id, err := strconv.ParseInt(l.Name, 10, 64)
			if err != nil || (!complete && l.Dist >= edge) {
				continue
			}
			if cur != nil && (l.Dist < cur.dist || (l.Dist == cur.dist && id <= cur.id)) {
				continue
			}
			hits = append(hits, geoHit{id, l.Dist})
		}
		if complete || len(hits) > n {
			break
		}
	}
	slices.SortFunc(hits, func(a, b geoHit) int {
		if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	return hits, nil
}

// nearbyPage is the page of the first n hits, read from MySQL. Its cursors
// are the hits' positions in the GEO set, so a shop the set lists and MySQL
// no longer has is left out without stopping the paging.
func (s *Service) nearbyPage(ctx context.Context, hits []geoHit, n int) (*Page, error) {
	cursor := func(h geoHit) page.Cursor { return page.Cursor{ID: h.id, Value: h.dist} }
	p := &Page{Edges: []Edge{}, Info: page.Make(len(hits), n, func(i int) page.Cursor { return cursor(hits[i]) })}
	hits = hits[:min(n, len(hits))]
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	rows, err := s.db.Shop.Query().Where(entshop.IDIn(ids...)).All(database.LagTolerant(ctx))
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*ent.Shop, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	for _, h := range hits {
		sh := byID[h.id]
		if sh == nil {
			continue // removed from MySQL; the set catches up on its next rebuild
		}
		// The rows were read for this page alone: the distance goes on the
		// shop itself (Shop.distance), and in the cursor for the next page.
		sh.Distance = &h.dist
		p.Edges = append(p.Edges, Edge{Node: sh, Cursor: cursor(h)})
	}
	return p, nil
}
