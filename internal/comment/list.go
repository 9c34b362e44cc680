package comment

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/hmdp/hmdp/ent"
	entblogcomment "github.com/hmdp/hmdp/ent/blogcomment"
	entcommentlike "github.com/hmdp/hmdp/ent/commentlike"
	"github.com/hmdp/hmdp/internal/page"
)

// Edge is a comment with its cursor.
type Edge struct {
	Cursor page.Cursor
	Node   *ent.BlogComment
}

// Page is one page of comments.
type Page struct {
	Edges []Edge
	Info  page.Info
}

// Nodes are the page's comments.
func (p *Page) Nodes() []*ent.BlogComment {
	out := make([]*ent.BlogComment, len(p.Edges))
	for i, e := range p.Edges {
		out[i] = e.Node
	}
	return out
}

// pageOf makes a page of the first n of cs (the caller fetched n+1).
func pageOf(cs []*ent.BlogComment, n int) *Page {
	p := &Page{Edges: []Edge{}, Info: page.Make(len(cs), n, func(i int) page.Cursor { return page.Cursor{ID: cs[i].ID} })}
	for i, c := range cs {
		if i == n {
			break
		}
		p.Edges = append(p.Edges, Edge{Cursor: page.Cursor{ID: c.ID}, Node: c})
	}
	return p
}

// TopLevel pages blogID's top-level comments, oldest first (ids grow with
// time). A deleted one is listed while it has replies that are not deleted,
// so they stay readable under it.
func (s *Service) TopLevel(ctx context.Context, blogID int64, first *int, after *string) (*Page, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	q := s.cfg.DB.BlogComment.Query().Where(entblogcomment.BlogID(blogID), entblogcomment.ParentID(0),
		entblogcomment.Or(visible(), hasLiveReplies))
	if c != nil {
		q = q.Where(entblogcomment.IDGT(c.ID))
	}
	cs, err := q.Order(ent.Asc(entblogcomment.FieldID)).Limit(n + 1).All(ctx)
	if err == nil {
		err = s.fill(ctx, cs)
	}
	if err != nil {
		return nil, err
	}
	return pageOf(cs, n), nil
}

// hasLiveReplies: EXISTS a reply that is not deleted.
func hasLiveReplies(s *sql.Selector) {
	r := sql.Table(entblogcomment.Table).As("r")
	s.Where(sql.Exists(sql.Select(r.C(entblogcomment.FieldID)).From(r).Where(sql.And(
		sql.ColumnsEQ(r.C(entblogcomment.FieldParentID), s.C(entblogcomment.FieldID)),
		sql.Or(sql.IsNull(r.C(entblogcomment.FieldStatus)), sql.LT(r.C(entblogcomment.FieldStatus), StatusHidden)),
	))))
}

// RepliesArgs are the paging arguments of replies, shared by every comment
// of a page (they come from one field of the query).
type RepliesArgs struct {
	First int
	After int64 // reply id; 0 = from the start
}

// Args checks replies' paging arguments.
func Args(first *int, after *string) (RepliesArgs, error) {
	n, c, err := page.Args(first, after)
	if err != nil {
		return RepliesArgs{}, err
	}
	a := RepliesArgs{First: n}
	if c != nil {
		a.After = c.ID
	}
	return a, nil
}

// Replies pages the live replies of each of parents, oldest first, in one
// statement (a window function ranks each parent's replies).
func (s *Service) Replies(ctx context.Context, parents []int64, a RepliesArgs) (map[int64]*Page, error) {
	out := make(map[int64]*Page, len(parents))
	for _, p := range parents {
		out[p] = pageOf(nil, a.First)
	}
	if len(parents) == 0 || a.First == 0 {
		return out, nil
	}
	args := make([]any, len(parents))
	for i, p := range parents {
		args[i] = p
	}
	ranked := func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString(s.C(entblogcomment.FieldID)).WriteString(" IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY parent_id ORDER BY id) AS rn FROM ").
				Ident(entblogcomment.Table).WriteString(" WHERE parent_id IN (").Args(args...).
				WriteString(") AND (status IS NULL OR status < ").Arg(StatusHidden).
				WriteString(") AND id > ").Arg(a.After).
				WriteString(") ranked WHERE rn <= ").Arg(a.First + 1).WriteString(")")
		}))
	}
	cs, err := s.cfg.DB.BlogComment.Query().Where(ranked).Order(ent.Asc(entblogcomment.FieldID)).All(ctx)
	if err == nil {
		err = s.fill(ctx, cs)
	}
	if err != nil {
		return nil, err
	}
	by := map[int64][]*ent.BlogComment{}
	for _, c := range cs {
		by[c.ParentID] = append(by[c.ParentID], c)
	}
	for p, rs := range by {
		out[p] = pageOf(rs, a.First)
	}
	return out, nil
}

// ReplyCounts counts the live replies of each of parents in one statement.
func (s *Service) ReplyCounts(ctx context.Context, parents []int64) (map[int64]int, error) {
	var rows []struct {
		ParentID int64 `json:"parent_id"`
		Count    int   `json:"count"`
	}
	err := s.cfg.DB.BlogComment.Query().Where(entblogcomment.ParentIDIn(parents...), visible()).
		GroupBy(entblogcomment.FieldParentID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.ParentID] = r.Count
	}
	return out, nil
}

// LikedBy tells which of ids viewer likes, in one statement.
func (s *Service) LikedBy(ctx context.Context, viewer int64, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if viewer == 0 || len(ids) == 0 {
		return out, nil
	}
	liked, err := s.cfg.DB.CommentLike.Query().
		Where(entcommentlike.UserID(viewer), entcommentlike.CommentIDIn(ids...)).
		Select(entcommentlike.FieldCommentID).Ints(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range liked {
		out[int64(id)] = true
	}
	return out, nil
}

// Many returns the comments of ids that exist, in one statement.
func (s *Service) Many(ctx context.Context, ids []int64) (map[int64]*ent.BlogComment, error) {
	cs, err := s.cfg.DB.BlogComment.Query().Where(entblogcomment.IDIn(ids...)).All(ctx)
	if err == nil {
		err = s.fill(ctx, cs)
	}
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*ent.BlogComment, len(cs))
	for _, c := range cs {
		out[c.ID] = c
	}
	return out, nil
}
