// Package like records who likes which blog. The blog_like table is the
// truth (its unique key makes liking idempotent) and tb_blog.liked is kept in
// step in the same transaction. A ZSET per blog (member = zero-padded user id,
// score = like time in ms) serves the first likers and "liked by me"; it is
// rebuilt from the table whenever it is missing.
package like

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/blog"
	"github.com/hmdp/hmdp/ent/bloglike"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/lua"
)

// TopN is how many first likers a blog shows.
const TopN = 5

// sentinel marks a complete like ZSET; its score +inf keeps it after every liker.
const sentinel = "~"

// Service is the like service.
type Service struct {
	db     *ent.Client
	rdb    redis.UniversalClient
	prefix string
	Now    func() time.Time
}

// New returns the service; keys start with prefix.
func New(db *ent.Client, rdb redis.UniversalClient, prefix string) *Service {
	return &Service{db: db, rdb: rdb, prefix: prefix, Now: time.Now}
}

// Keys of one blog share the hash tag {blogID}, as the scripts need.
func (s *Service) setKey(blogID int64) string {
	return fmt.Sprintf("%sblog:{%d}:likes", s.prefix, blogID)
}
func (s *Service) verKey(blogID int64) string {
	return fmt.Sprintf("%sblog:{%d}:likes:ver", s.prefix, blogID)
}

// member pads ids to one width, so the ZSET's tie order (lexicographic) is
// numeric order: likes in the same millisecond are ranked by user id.
func member(userID int64) string { return fmt.Sprintf("%019d", userID) }

// Set likes (liked=true) or unlikes blogID for userID. Repeating a call
// changes nothing. NOT_FOUND when the blog does not exist.
func (s *Service) Set(ctx context.Context, userID, blogID int64, liked bool) error {
	at := s.Now().Truncate(time.Millisecond)
	changed, err := s.write(ctx, userID, blogID, liked, at)
	if err != nil || !changed {
		return err
	}
	flag := "0"
	if liked {
		flag = "1"
	}
	return lua.Script("like_apply").Run(ctx, s.rdb,
		[]string{s.setKey(blogID), s.verKey(blogID)}, flag, at.UnixMilli(), member(userID)).Err()
}

// write changes the table and the counter in one transaction; changed is
// false when the like already was (or was not) there.
func (s *Service) write(ctx context.Context, userID, blogID int64, liked bool, at time.Time) (changed bool, err error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil || !changed {
			_ = tx.Rollback()
		}
	}()
	delta := 1
	if liked {
		err = tx.BlogLike.Create().SetBlogID(blogID).SetUserID(userID).SetCreateTime(at).Exec(ctx)
		if ent.IsConstraintError(err) {
			return false, nil // already liked
		}
		if err != nil {
			return false, err
		}
	} else {
		n, err := tx.BlogLike.Delete().Where(bloglike.BlogID(blogID), bloglike.UserID(userID)).Exec(ctx)
		if err != nil || n == 0 {
			return false, err // not liked: nothing to undo
		}
		delta = -1
	}
	// The counter moves in the same transaction as the row, under the blog
	// row's lock, so concurrent likes never lose an update.
	n, err := tx.Blog.Update().Where(blog.ID(blogID)).AddLiked(delta).Save(ctx)
	if err != nil {
		return false, err
	}
	if n == 0 {
		return false, apperr.New(apperr.NotFound, "blog %d not found", blogID)
	}
	if err = tx.Commit(); err != nil {
		return false, err
	}
	return true, nil
}

// Info is what a viewer sees of a blog's likes.
type Info struct {
	Top       []int64 // first likers' ids, earliest first (ties by id)
	LikedByMe bool
}

// Infos returns the like info of each blog for viewer (0 = anonymous) with one
// Redis round trip, plus, only for blogs whose ZSET is missing, one SQL
// statement and one more round trip to rebuild them.
func (s *Service) Infos(ctx context.Context, viewer int64, blogIDs []int64) ([]Info, error) {
	type cmds struct {
		top    *redis.ZSliceCmd
		full   *redis.FloatCmd
		mine   *redis.FloatCmd
		ver    *redis.StringCmd
		blogID int64
	}
	pipe := s.rdb.Pipeline()
	cs := make([]cmds, len(blogIDs))
	for i, id := range blogIDs {
		k := s.setKey(id)
		cs[i] = cmds{
			blogID: id,
			top:    pipe.ZRangeWithScores(ctx, k, 0, TopN-1),
			full:   pipe.ZScore(ctx, k, sentinel),
			ver:    pipe.Get(ctx, s.verKey(id)),
		}
		if viewer != 0 {
			cs[i].mine = pipe.ZScore(ctx, k, member(viewer))
		}
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([]Info, len(blogIDs))
	var missing []int64
	versions := map[int64]string{}
	for i, c := range cs {
		if c.full.Err() != nil { // redis.Nil: no sentinel, the set is missing or partial
			missing = append(missing, c.blogID)
			versions[c.blogID] = c.ver.Val()
			continue
		}
		for _, z := range c.top.Val() {
			m, _ := z.Member.(string)
			if m == sentinel {
				break
			}
			id, err := strconv.ParseInt(m, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("like set of blog %d: bad member %q", c.blogID, m)
			}
			out[i].Top = append(out[i].Top, id)
		}
		out[i].LikedByMe = c.mine != nil && c.mine.Err() == nil
	}
	if len(missing) == 0 {
		return out, nil
	}
	rebuilt, err := s.rebuild(ctx, missing, versions)
	if err != nil {
		return nil, err
	}
	for i, id := range blogIDs {
		if likes, ok := rebuilt[id]; ok {
			out[i] = infoOf(likes, viewer)
		}
	}
	return out, nil
}

// rebuild reads the likes of blogIDs from MySQL in one statement and writes
// their ZSETs in one pipelined round trip; a set whose version moved since it
// was read is left for the next reader. The MySQL rows answer this call.
func (s *Service) rebuild(ctx context.Context, blogIDs []int64, versions map[int64]string) (map[int64][]*ent.BlogLike, error) {
	rows, err := s.db.BlogLike.Query().Where(bloglike.BlogIDIn(blogIDs...)).
		Order(ent.Asc(bloglike.FieldCreateTime, bloglike.FieldUserID)).All(ctx)
	if err != nil {
		return nil, err
	}
	byBlog := make(map[int64][]*ent.BlogLike, len(blogIDs))
	for _, id := range blogIDs {
		byBlog[id] = nil
	}
	for _, r := range rows {
		byBlog[r.BlogID] = append(byBlog[r.BlogID], r)
	}
	return byBlog, s.writeSets(ctx, byBlog, versions)
}

// writeSets writes the like sets read from MySQL in one pipelined round trip
// (two the first time the script meets this server).
func (s *Service) writeSets(ctx context.Context, byBlog map[int64][]*ent.BlogLike, versions map[int64]string) error {
	script := lua.Script("like_rebuild")
	run := func(c redis.Scripter) {
		for id, likes := range byBlog {
			args := []any{versions[id], sentinel}
			for _, l := range likes {
				args = append(args, l.CreateTime.UnixMilli(), member(l.UserID))
			}
			script.EvalSha(ctx, c, []string{s.setKey(id), s.verKey(id)}, args...)
		}
	}
	return lua.RunPipelined(ctx, s.rdb, script, func(p redis.Pipeliner) { run(p) })
}

func infoOf(likes []*ent.BlogLike, viewer int64) Info {
	var in Info
	for i, l := range likes {
		if i < TopN {
			in.Top = append(in.Top, l.UserID)
		}
		if l.UserID == viewer {
			in.LikedByMe = true
		}
	}
	return in
}

// Forget drops a deleted blog's like set (and bumps its version so a rebuild
// racing with the delete does not write it back).
func (s *Service) Forget(ctx context.Context, blogID int64) error {
	pipe := s.rdb.Pipeline()
	pipe.Incr(ctx, s.verKey(blogID))
	pipe.Del(ctx, s.setKey(blogID))
	_, err := pipe.Exec(ctx)
	return err
}
