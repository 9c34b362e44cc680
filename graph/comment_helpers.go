package graph

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/comment"
)

// withCommentLoaders gives a response its own comment loaders, made on first use.
func (r *Resolver) withCommentLoaders(ctx context.Context, viewer int64) context.Context {
	if r.CommentService == nil {
		return ctx
	}
	return comment.WithLazyLoaders(ctx, func() *comment.Loaders { return r.CommentService.NewLoaders(viewer, r.Dataloaders.Wait) })
}

// commentLoaders are the response's comment loaders; a resolver run outside
// a response (tests) gets unbatched fresh ones.
func (r *Resolver) commentLoaders(ctx context.Context) *comment.Loaders {
	if l := comment.LoadersFrom(ctx); l != nil {
		return l
	}
	return r.CommentService.NewLoaders(viewerID(ctx), r.Dataloaders.Wait)
}

// noteComments lets the comments' field resolvers batch per page.
func (r *Resolver) noteComments(ctx context.Context) func(*comment.Page, error) (*comment.Page, error) {
	return func(p *comment.Page, err error) (*comment.Page, error) {
		if p != nil {
			r.commentLoaders(ctx).NotePage(p.Nodes())
		}
		return p, err
	}
}

// commentReplies loads a page of a top-level comment's replies.
func (r *Resolver) commentReplies(ctx context.Context, c *ent.BlogComment, first *int, after *string) (*comment.Page, error) {
	a, err := comment.Args(first, after)
	if err != nil {
		return nil, err
	}
	return r.commentLoaders(ctx).Replies(ctx, c, a)
}

// commentAuthor loads a comment's author through the response's user loader.
func (r *Resolver) commentAuthor(ctx context.Context, c *ent.BlogComment) (*ent.User, error) {
	return r.userOf(ctx, c.UserID)
}

// commentContent is nil for a deleted comment.
func commentContent(c *ent.BlogComment) *string {
	if comment.Deleted(c) {
		return nil
	}
	return &c.Content
}

// commentLikedByMe is false for an anonymous viewer.
func (r *Resolver) commentLikedByMe(ctx context.Context, c *ent.BlogComment) (bool, error) {
	if viewerID(ctx) == 0 {
		return false, nil
	}
	return r.commentLoaders(ctx).LikedByMe(ctx, c)
}

// parentIDOf is nil for a top-level comment.
func parentIDOf(c *ent.BlogComment) *int64 {
	if c.ParentID == 0 {
		return nil
	}
	return &c.ParentID
}

// addComment writes the comment and prepares the answer's look-ups.
func (r *Resolver) addComment(ctx context.Context, blogID int64, content string, replyTo *int64) (*ent.BlogComment, error) {
	return r.CommentService.Add(ctx, auth.ViewerFrom(ctx).UserID, blogID, content, replyTo)
}

// subscribeComments streams a blog's new comments.
func (r *Resolver) subscribeComments(ctx context.Context, blogID int64) (<-chan *ent.BlogComment, error) {
	return r.CommentService.Subscribe(ctx, blogID, subscriptionEnded(ctx))
}
