// Package comment writes and reads blog comments (tb_blog_comments) and who
// likes them (hmdp_comment_like). MySQL is the truth and the only store: a
// page of comments is read with a constant number of statements through the
// per-response loaders of loaders.go, so nothing needs a Redis copy. New
// comments are announced on the blog's event topic, across instances.
//
// A comment is top-level (parent_id 0) or a reply: a reply hangs under its
// top-level comment (parent_id) and names the comment it answers
// (answer_id), which is the top-level comment itself or one of its replies.
// Deleting marks the row deleted (status 3) and clears its content, so the
// replies of a deleted top-level comment stay readable under it. Comments
// longer than the original column keep their whole text in hmdp_comment_text.
package comment

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entblogcomment "github.com/hmdp/hmdp/ent/blogcomment"
	entcommentlike "github.com/hmdp/hmdp/ent/commentlike"
	entcommenttext "github.com/hmdp/hmdp/ent/commenttext"
	"github.com/hmdp/hmdp/ent/predicate"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/pubsub"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// MaxContent is the longest comment in characters (after trimming).
// tb_blog_comments.content (an original column, never altered) holds 255:
// a longer comment keeps its first 255 characters there and its whole text
// in hmdp_comment_text, written in the same transaction.
const MaxContent = maxlen.CommentText

// inline is what tb_blog_comments.content holds, in characters.
const inline = maxlen.CommentContent

// Values of tb_blog_comments.status. hmdp.sql defines 0 to 2; 3 is ours.
// Anything at or above StatusHidden is shown as deleted, without content.
const (
	StatusNormal   = 0
	StatusReported = 1
	StatusHidden   = 2
	StatusDeleted  = 3
)

// Deleted reports whether c is shown as deleted.
func Deleted(c *ent.BlogComment) bool { return c.Status >= StatusHidden }

// Content is c's text as shown: nil for a deleted comment.
func Content(c *ent.BlogComment) *string {
	if Deleted(c) {
		return nil
	}
	return &c.Content
}

// ParentID is the top-level comment c hangs under, nil for a top-level comment.
func ParentID(c *ent.BlogComment) *int64 {
	if c.ParentID == 0 {
		return nil
	}
	return &c.ParentID
}

// visible is the predicate of a comment that is not deleted (original rows
// may have a NULL status).
func visible() predicate.BlogComment {
	return entblogcomment.Or(entblogcomment.StatusIsNil(), entblogcomment.StatusLT(StatusHidden))
}

// DefaultPerUser is the default rate limit of AddComment per user.
var DefaultPerUser = ratelimit.Limit{Events: 10, Per: time.Minute}

// Config holds the service's dependencies.
type Config struct {
	DB      *ent.Client
	Limiter *ratelimit.Limiter
	// Broker carries new comments to blogComments subscribers on every instance.
	Broker *pubsub.Broker
	Log    *slog.Logger
	// PerUser limits AddComment per user (zero: DefaultPerUser).
	PerUser ratelimit.Limit
	// Now gives the current time (default time.Now).
	Now func() time.Time
	// Counted, when set, hears of each committed change of a blog's comment
	// count (tb_blog.comments), after the commit: pages kept elsewhere that
	// show the count are dropped (the hot blogs).
	Counted func(ctx context.Context, blogID int64)
}

// Service is the comment service.
type Service struct {
	cfg Config
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.PerUser.Events == 0 {
		cfg.PerUser = DefaultPerUser
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg}
}

// Topic is the event topic of a blog's new comments.
func Topic(blogID int64) string { return "comments:" + strconv.FormatInt(blogID, 10) }

// Add writes a comment by viewer on blogID, as a reply to the comment
// replyTo when not nil, and counts it in tb_blog.comments in the same
// transaction. Errors: BAD_USER_INPUT naming content (1 to MaxContent
// characters after trimming) or replyTo (not a live comment of the blog),
// NOT_FOUND for an unknown blog, RATE_LIMITED.
func (s *Service) Add(ctx context.Context, viewer, blogID int64, content string, replyTo *int64) (*ent.BlogComment, error) {
	content = strings.TrimSpace(content)
	switch n := utf8.RuneCountInString(content); {
	case n == 0:
		return nil, apperr.BadInput("content", "must not be empty")
	case n > MaxContent:
		return nil, apperr.BadInput("content", "must be at most %d characters", MaxContent)
	}
	if s.cfg.Limiter != nil {
		lim, err := s.cfg.Limiter.Allow(ctx, "comment:user:"+strconv.FormatInt(viewer, 10), s.cfg.PerUser)
		if err != nil {
			return nil, err
		}
		if !lim.Allowed {
			return nil, apperr.RateLimit("comments", lim.RetryAfter.Milliseconds())
		}
	}
	c, err := s.insert(ctx, viewer, blogID, content, replyTo)
	if err != nil {
		return nil, err
	}
	// Committed: announce it. A lost event costs live viewers this comment
	// until they re-read the list (Pub/Sub stores nothing anyway).
	if s.cfg.Broker != nil {
		payload, err := json.Marshal(c)
		if err == nil {
			err = s.cfg.Broker.Publish(ctx, Topic(blogID), payload)
		}
		if err != nil {
			s.cfg.Log.ErrorContext(ctx, "publish comment", "blog", blogID, "comment", c.ID, "err", err)
		}
	}
	return c, nil
}

func (s *Service) insert(ctx context.Context, viewer, blogID int64, content string, replyTo *int64) (c *ent.BlogComment, err error) {
	tx, err := s.cfg.DB.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, tx.Rollback())
		}
	}()
	var parent, answer int64
	if replyTo != nil {
		target, err := tx.BlogComment.Get(ctx, *replyTo)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		if target == nil || target.BlogID != blogID || Deleted(target) {
			return nil, apperr.BadInput("replyTo", "comment %d is not a comment of blog %d", *replyTo, blogID)
		}
		parent, answer = target.ParentID, target.ID
		if parent == 0 {
			parent = target.ID
		}
	}
	// The count moves under the blog row's lock, in the comment's transaction.
	n, err := tx.Blog.Update().Where(entblog.ID(blogID)).AddComments(1).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apperr.New(apperr.NotFound, "blog %d not found", blogID)
	}
	now := s.cfg.Now().Truncate(time.Second) // a TIMESTAMP keeps whole seconds
	head := content
	if r := []rune(content); len(r) > inline {
		head = string(r[:inline])
	}
	c, err = tx.BlogComment.Create().SetUserID(viewer).SetBlogID(blogID).
		SetParentID(parent).SetAnswerID(answer).SetContent(head).
		SetLiked(0).SetStatus(StatusNormal).SetCreateTime(now).SetUpdateTime(now).Save(ctx)
	if err != nil {
		return nil, err
	}
	if head != content {
		err = tx.CommentText.Create().SetCommentID(c.ID).SetBlogID(blogID).SetContent(content).Exec(ctx)
		if err != nil {
			return nil, err
		}
	}
	if err = tx.Commit(); err != nil {
		return nil, err
	}
	s.counted(ctx, blogID)
	c = c.Unwrap()
	c.Content = content
	return c, nil
}

// Delete marks comment id deleted, for its author or the blog's author, and
// takes it out of tb_blog.comments in the same transaction. Deleting a
// deleted comment changes nothing. NOT_FOUND when absent, FORBIDDEN for
// anyone else.
func (s *Service) Delete(ctx context.Context, viewer, id int64) (err error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	if c == nil {
		return apperr.New(apperr.NotFound, "comment %d not found", id)
	}
	if c.UserID != viewer {
		owner, err := s.cfg.DB.Blog.Query().Where(entblog.ID(c.BlogID)).Select(entblog.FieldUserID).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
		if owner == nil || owner.UserID != viewer {
			return apperr.New(apperr.Forbidden, "only the comment's author or the blog's author may delete a comment")
		}
	}
	tx, err := s.cfg.DB.Tx(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, tx.Rollback())
		}
	}()
	n, err := tx.BlogComment.Update().Where(entblogcomment.ID(id), visible()).
		SetStatus(StatusDeleted).SetContent("").Save(ctx)
	if err != nil {
		return err
	}
	if n == 1 {
		if _, err = tx.CommentText.Delete().Where(entcommenttext.CommentID(id)).Exec(ctx); err != nil {
			return err
		}
		// comments is unsigned: never below 0 (hmdp.sql's demo counts are not backed by rows).
		if _, err = tx.Blog.Update().Where(entblog.ID(c.BlogID), entblog.CommentsGT(0)).AddComments(-1).Save(ctx); err != nil {
			return err
		}
	}
	if err = tx.Commit(); err != nil {
		return err
	}
	if n == 1 {
		s.counted(ctx, c.BlogID)
	}
	return nil
}

// counted tells Config.Counted of a committed change of blogID's comment count.
func (s *Service) counted(ctx context.Context, blogID int64) {
	if s.cfg.Counted != nil {
		s.cfg.Counted(context.WithoutCancel(ctx), blogID)
	}
}

// SetLike likes (liked=true) or unlikes comment id for viewer and returns the
// comment. Repeating a call changes nothing. NOT_FOUND when the comment does
// not exist, or is deleted and liked=true.
func (s *Service) SetLike(ctx context.Context, viewer, id int64, liked bool) (*ent.BlogComment, error) {
	if err := s.writeLike(ctx, viewer, id, liked); err != nil {
		return nil, err
	}
	c, err := s.Get(ctx, id)
	if err == nil && (c == nil || liked && Deleted(c)) {
		return nil, apperr.New(apperr.NotFound, "comment %d not found", id)
	}
	return c, err
}

// writeLike changes the like row and the counter in one transaction.
func (s *Service) writeLike(ctx context.Context, viewer, id int64, liked bool) (err error) {
	tx, err := s.cfg.DB.Tx(ctx)
	if err != nil {
		return err
	}
	changed := false
	defer func() {
		if err != nil || !changed {
			err = errors.Join(err, tx.Rollback())
		}
	}()
	upd := tx.BlogComment.Update().Where(entblogcomment.ID(id))
	if liked {
		c, err := tx.BlogComment.Query().Where(entblogcomment.ID(id), visible()).Select(entblogcomment.FieldBlogID).Only(ctx)
		if ent.IsNotFound(err) {
			return nil // SetLike answers NOT_FOUND
		}
		if err != nil {
			return err
		}
		err = tx.CommentLike.Create().SetCommentID(id).SetUserID(viewer).SetBlogID(c.BlogID).
			SetCreateTime(s.cfg.Now()).Exec(ctx)
		if ent.IsConstraintError(err) {
			return nil // already liked
		}
		if err != nil {
			return err
		}
		upd = upd.AddLiked(1)
	} else {
		n, err := tx.CommentLike.Delete().Where(entcommentlike.CommentID(id), entcommentlike.UserID(viewer)).Exec(ctx)
		if err != nil || n == 0 {
			return err // not liked: nothing to undo
		}
		upd = upd.Where(entblogcomment.LikedGT(0)).AddLiked(-1) // liked is unsigned
	}
	// The count moves under the comment row's lock, with the like row.
	if _, err = upd.Save(ctx); err != nil {
		return err
	}
	changed = true
	return tx.Commit()
}

// Get returns a comment (deleted ones too), nil when absent.
func (s *Service) Get(ctx context.Context, id int64) (*ent.BlogComment, error) {
	c, err := s.cfg.DB.BlogComment.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return c, s.fill(ctx, []*ent.BlogComment{c})
}

// fill puts back the whole text of the comments of cs that were cut to fit
// tb_blog_comments.content, with one statement when there are any (a
// comment of exactly 255 characters may be one).
func (s *Service) fill(ctx context.Context, cs []*ent.BlogComment) error {
	var long []int64
	for _, c := range cs {
		if !Deleted(c) && utf8.RuneCountInString(c.Content) == inline {
			long = append(long, c.ID)
		}
	}
	if len(long) == 0 {
		return nil
	}
	texts, err := s.cfg.DB.CommentText.Query().Where(entcommenttext.CommentIDIn(long...)).All(ctx)
	if err != nil {
		return err
	}
	full := make(map[int64]string, len(texts))
	for _, t := range texts {
		full[t.CommentID] = t.Content
	}
	for _, c := range cs {
		if t, ok := full[c.ID]; ok {
			c.Content = t
		}
	}
	return nil
}

// Subscribe streams the new comments of blogID (top-level and replies) until
// ctx ends; onEnd gets the reason when the broker ends the stream. NOT_FOUND
// for an unknown blog. The comments are shared by every subscriber: read-only.
func (s *Service) Subscribe(ctx context.Context, blogID int64, onEnd func(error)) (<-chan *ent.BlogComment, error) {
	ok, err := s.cfg.DB.Blog.Query().Where(entblog.ID(blogID)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.New(apperr.NotFound, "blog %d not found", blogID)
	}
	return pubsub.Listen(ctx, s.cfg.Broker, "blogComments", Topic(blogID), commentEvents, onEnd)
}

var commentEvents = pubsub.NewDecoder(func(p []byte) (*ent.BlogComment, error) {
	var c ent.BlogComment
	return &c, json.Unmarshal(p, &c)
})
