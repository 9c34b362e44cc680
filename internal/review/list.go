package review

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"entgo.io/ent/dialect/sql"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entrating "github.com/hmdp/hmdp/ent/shoprating"
	"github.com/hmdp/hmdp/internal/page"
)

// Order is how reviewsByShop sorts a shop's reviews (GraphQL ReviewOrder).
type Order int

const (
	// Newest is newest post first.
	Newest Order = iota
	// Highest is most stars first; ties newest first.
	Highest
	// Lowest is fewest stars first; ties newest first.
	Lowest
)

var orderNames = [...]string{"NEWEST", "HIGHEST", "LOWEST"}

// String is the GraphQL name ("HIGHEST").
func (o Order) String() string {
	if o < 0 || int(o) >= len(orderNames) {
		return "ReviewOrder(" + strconv.Itoa(int(o)) + ")"
	}
	return orderNames[o]
}

// MarshalGQL writes the GraphQL enum value.
func (o Order) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(o.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (o *Order) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range orderNames {
		if name == str {
			*o = Order(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a ReviewOrder", v)
}

// Review is a post about a shop with its author's stars for the shop.
type Review struct {
	ID    int64 // the post's
	Stars int
	Blog  *ent.Blog
}

// Edge is a review with its cursor.
type Edge struct {
	Cursor page.Cursor
	Node   *Review
}

// Page is one page of reviews.
type Page struct {
	Edges []Edge
	Info  page.Info
}

// starsColumn is the rating's stars as the reviews query selects them.
const starsColumn = "review_stars"

// ByShop pages a shop's reviews: its posts whose author has rated it, with
// the stars of that rating (changed ratings show on every post of their
// author). The cursor holds the post id, and for Highest and Lowest the
// stars. An empty page for a shop without reviews or no such shop.
//
// One statement: the shop's posts (idx_blog_shop) joined with the ratings by
// their unique key. Newest walks the posts newest first and stops after the
// page; Highest and Lowest sort the shop's reviewed posts by stars.
func (s *Service) ByShop(ctx context.Context, shopID int64, order Order, first *int, after *string) (*Page, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	var cstars int64
	if c != nil && order != Newest {
		if cstars, err = page.Int(c.Value); err != nil {
			return nil, err
		}
	}
	if s.kept != nil {
		if p, ok, err := s.keptPage(ctx, shopID, order, n, c, cstars); err != nil || ok {
			return p, err
		}
	}
	rs, err := s.query(ctx, shopID, order, c, cstars, n+1)
	if err != nil {
		return nil, err
	}
	return pageOf(rs, n, order), nil
}

// query reads at most limit reviews of a shop in order, after the cursor c
// (stars cstars) when set.
func (s *Service) query(ctx context.Context, shopID int64, order Order, c *page.Cursor, cstars int64, limit int) ([]*Review, error) {
	q := s.db.Blog.Query().Where(entblog.ShopID(shopID)).Limit(limit)
	q.Modify(func(sel *sql.Selector) {
		r := sql.Table(entrating.Table)
		sel.Join(r).OnP(sql.And(
			sql.ColumnsEQ(r.C(entrating.FieldShopID), sel.C(entblog.FieldShopID)),
			sql.ColumnsEQ(r.C(entrating.FieldUserID), sel.C(entblog.FieldUserID)),
		))
		sel.AppendSelectAs(r.C(entrating.FieldStars), starsColumn)
		stars, id := r.C(entrating.FieldStars), sel.C(entblog.FieldID)
		switch {
		case c == nil:
		case order == Highest:
			sel.Where(sql.Or(sql.LT(stars, cstars), sql.And(sql.EQ(stars, cstars), sql.LT(id, c.ID))))
		case order == Lowest:
			sel.Where(sql.Or(sql.GT(stars, cstars), sql.And(sql.EQ(stars, cstars), sql.LT(id, c.ID))))
		default:
			sel.Where(sql.LT(id, c.ID))
		}
		switch order {
		case Highest:
			sel.OrderBy(sql.Desc(stars), sql.Desc(id))
		case Lowest:
			sel.OrderBy(sql.Asc(stars), sql.Desc(id))
		default:
			sel.OrderBy(sql.Desc(id))
		}
	})
	bs, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	rs := make([]*Review, len(bs))
	for i, b := range bs {
		v, err := b.Value(starsColumn)
		if err != nil {
			return nil, err
		}
		stars, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("review %d stars: %w", b.ID, err)
		}
		rs[i] = &Review{ID: b.ID, Stars: stars, Blog: b}
	}
	return rs, nil
}

// cursor is a review's position in order.
func (o Order) cursor(r *Review) page.Cursor {
	if o == Newest {
		return page.Cursor{ID: r.ID}
	}
	return page.Cursor{ID: r.ID, Value: int64(r.Stars)}
}

// after reports whether r comes after the cursor (cstars, id) in order.
func (o Order) after(r *Review, cstars, id int64) bool {
	stars := int64(r.Stars)
	switch o {
	case Highest:
		return stars < cstars || stars == cstars && r.ID < id
	case Lowest:
		return stars > cstars || stars == cstars && r.ID < id
	default:
		return r.ID < id
	}
}

// pageOf is the page of n made of rs (n+1 read: the last tells hasNextPage).
func pageOf(rs []*Review, n int, order Order) *Page {
	p := &Page{Info: page.Make(len(rs), n, func(i int) page.Cursor { return order.cursor(rs[i]) })}
	for i, r := range rs {
		if i == n {
			break
		}
		p.Edges = append(p.Edges, Edge{Cursor: order.cursor(r), Node: r})
	}
	return p
}

// toInt reads a selected integer as the drivers return it: int64 (SQLite,
// MySQL's binary protocol) or its decimal text (MySQL's text protocol).
func toInt(v any) (int, error) {
	switch x := v.(type) {
	case int64:
		return int(x), nil
	case []byte:
		return strconv.Atoi(string(x))
	case string:
		return strconv.Atoi(x)
	}
	return 0, fmt.Errorf("unexpected %T", v)
}
