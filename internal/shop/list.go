package shop

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/predicate"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
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
	DefaultFirst  = 10
	MaxFirst      = 50
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

// Cursors are entgql's opaque cursors (base64 of msgpack): the shop id, and
// for nearby search the distance as the value.
func decodeCursor(after *string) (*ent.Cursor, error) {
	if after == nil {
		return nil, nil
	}
	c, err := page.Decode(*after) // not c.UnmarshalGQL: see page.Decode
	if err != nil {
		return nil, apperr.BadInput("after", "not a cursor of this list")
	}
	return &c, nil
}

func newPage() *ent.ShopConnection { return &ent.ShopConnection{Edges: []*ent.ShopEdge{}} }

func finish(p *ent.ShopConnection) {
	if l := len(p.Edges); l > 0 {
		p.PageInfo.StartCursor = &p.Edges[0].Cursor
		p.PageInfo.EndCursor = &p.Edges[l-1].Cursor
	}
}

// Distance is the distance an edge of a nearby search carries, nil elsewhere.
func Distance(e *ent.ShopEdge) *float64 {
	if e == nil {
		return nil
	}
	if d, ok := e.Cursor.Value.(float64); ok {
		return &d
	}
	return nil
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
func (s *Service) byID(ctx context.Context, where predicate.Shop, first *int, after *string) (*ent.ShopConnection, error) {
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
	p := newPage()
	p.PageInfo.HasNextPage = len(rows) > n
	for _, sh := range rows[:min(n, len(rows))] {
		p.Edges = append(p.Edges, &ent.ShopEdge{Node: sh, Cursor: ent.Cursor{ID: sh.ID}})
	}
	finish(p)
	return p, nil
}

// ByType pages the shops of a type in id order, or, with near, nearest first
// within the radius.
func (s *Service) ByType(ctx context.Context, typeID int64, near *Near, first *int, after *string) (*ent.ShopConnection, error) {
	if near != nil {
		return s.nearby(ctx, typeID, *near, first, after)
	}
	return s.byID(ctx, entshop.TypeID(typeID), first, after)
}

// Search pages the shops whose name contains name (case-insensitively on
// the default collations), in id order. % and _ in name match themselves.
func (s *Service) Search(ctx context.Context, name string, first *int, after *string) (*ent.ShopConnection, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, apperr.BadInput("name", "must not be empty")
	}
	if utf8.RuneCountInString(name) > maxlen.ShopName { // no shop name holds it
		return nil, apperr.BadInput("name", "must be at most %d characters", maxlen.ShopName)
	}
	return s.byID(ctx, entshop.NameContains(name), first, after)
}

// nearby pages a type's shops by distance, from its GEO set. The cursor is
// the (distance, id) of the last shop shown; a page holds the shops after it
// in (distance, id) order, so pages neither skip nor repeat shops, even ones
// at equal distances.
func (s *Service) nearby(ctx context.Context, typeID int64, near Near, first *int, after *string) (*ent.ShopConnection, error) {
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
	d, ok := cur.Value.(float64)
	if !ok {
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

// nearbyPage is the page of the first n hits, read from MySQL.
func (s *Service) nearbyPage(ctx context.Context, hits []geoHit, n int) (*ent.ShopConnection, error) {
	p := newPage()
	p.PageInfo.HasNextPage = len(hits) > n
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
		p.Edges = append(p.Edges, &ent.ShopEdge{Node: sh, Cursor: ent.Cursor{ID: h.id, Value: h.dist}})
	}
	finish(p)
	return p, nil
}
