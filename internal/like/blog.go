package like

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
)

// SetBlogLike likes (liked=true) or unlikes blogID for userID (Set) and
// returns the blog as it now is, its liked count included (the GraphQL
// setBlogLike): NOT_FOUND when there is no such blog.
func (s *Service) SetBlogLike(ctx context.Context, userID, blogID int64, liked bool) (*ent.Blog, error) {
	if err := s.Set(ctx, userID, blogID, liked); err != nil {
		return nil, err
	}
	b, err := s.db.Blog.Get(ctx, blogID)
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NotFound, "blog %d not found", blogID)
	}
	return b, err
}
