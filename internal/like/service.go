// Package like records who likes which blog. The blog_like table is the
// truth (its unique key makes liking idempotent) and tb_blog.liked is kept in
// step in the same transaction. A ZSET per blog (member = zero-padded user id,
// score = like time in ms) serves the first likers and "liked by me"; it is
// rebuilt from the table whenever it is missing. The ZSET is a copy that
// expires (SetTTL); a change never creates it.
//
// Each change is mirrored into the ZSET after commit. Should that fail (or the
// process die first), an outbox row written in the change's transaction drops
// the ZSET (bumping its version), retried until it succeeds, so the next read
// rebuilds it from the table: the copy is never left wrong for good.
package like

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entbloglike "github.com/hmdp/hmdp/ent/bloglike"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/outbox"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/lua"
)

// TopN is how many first likers a blog shows.
const TopN = 5

// sentinel marks a complete like ZSET; its score +inf keeps it after every liker.
const sentinel = "~"

// DefaultSetTTL is how long a like set rebuilt from blog_like is kept (±10%,
// so sets rebuilt together do not expire together); likes do not extend it.
// A set not read for that long is rebuilt by its next reader, so Redis holds
// the sets of the blogs being read, not of every blog ever liked.
const DefaultSetTTL = 24 * time.Hour

// The scripts of a blog's like zset (its keys share the blog's hash tag).
var (
	likeApply   = lua.Script("like_apply")
	likeRebuild = lua.Script("like_rebuild")
)

// Config holds the service's dependencies; zero values take the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string // Redis key prefix ("hmdp:")
	// Now is the clock of like times (default time.Now).
	Now func() time.Time
	// SetTTL is how long a rebuilt like set and a version counter are kept
	// (default DefaultSetTTL).
	SetTTL time.Duration
	// OutboxInterval is how often failed set drops are retried (default 1 s).
	OutboxInterval time.Duration
	Log            *slog.Logger // default slog.Default()
	// Limiter, when set, allows each user PerUser calls of Set
	// (RATE_LIMITED past it).
	Limiter *ratelimit.Limiter
	PerUser ratelimit.Limit // default DefaultPerUser
	// Changed, when set, hears of each committed like or unlike (the blog's
	// liked count moved), after the commit: pages kept elsewhere that show
	// the count are dropped (the hot blogs).
	Changed func(ctx context.Context, blogID int64)
}

// DefaultPerUser is the default limit of Set per user: a burst of 60 likes
// and unlikes, then one a second (each is a MySQL transaction).
var DefaultPerUser = ratelimit.Limit{Events: 60, Per: time.Minute}

// Service is the like service.
type Service struct {
	db     *ent.Client
	rdb    redis.UniversalClient
	prefix string
	now    func() time.Time
	ttl    time.Duration
	log    *slog.Logger
	outbox *outbox.Outbox
	// limit spends one of user's allowance of Set; nil: no limit.
	limit func(ctx context.Context, user int64) error
	// hook, when set (tests), runs before the after-commit step ("apply") and
	// each set drop ("drop"), and fails that step by returning an error.
	hook func(step string) error
	// changed hears of committed likes and unlikes (Config.Changed); nil: no one.
	changed func(ctx context.Context, blogID int64)
}

// kindStale is the outbox kind whose handler drops a blog's like set.
const kindStale = "like.stale"

// New returns the service; Start retries failed set drops, Close stops that.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.SetTTL <= 0 {
		cfg.SetTTL = DefaultSetTTL
	}
	s := &Service{db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix, now: cfg.Now, ttl: cfg.SetTTL, log: cfg.Log, changed: cfg.Changed}
	s.outbox = outbox.New(cfg.DB, outbox.Config{Interval: cfg.OutboxInterval, Log: cfg.Log})
	s.outbox.Handle(kindStale, func(ctx context.Context, arg string) error {
		id, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: bad blog id %q", kindStale, arg)
		}
		return s.drop(ctx, id)
	})
	if l := cfg.Limiter; l != nil {
		if cfg.PerUser.Events <= 0 || cfg.PerUser.Per <= 0 {
			cfg.PerUser = DefaultPerUser
		}
		s.limit = func(ctx context.Context, user int64) error {
			res, err := l.Allow(ctx, "like:user:"+strconv.FormatInt(user, 10), cfg.PerUser)
			if err == nil && !res.Allowed {
				err = apperr.RateLimit("likes and unlikes", res.RetryAfter.Milliseconds())
			}
			return err
		}
	}
	return s
}

// Start retries, in the background, the set drops that failed (or whose
// process died before running them).
func (s *Service) Start() { s.outbox.Start() }

// Close stops the retries.
func (s *Service) Close() { s.outbox.Close() }

// Outbox is the outbox of the service's set drops (for tests).
func (s *Service) Outbox() *outbox.Outbox { return s.outbox }

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
// changes nothing. NOT_FOUND when the blog does not exist; RATE_LIMITED past
// the user's allowance (PerUser: every call counts, since each is a MySQL
// transaction, repeats and unknown blogs included).
func (s *Service) Set(ctx context.Context, userID, blogID int64, liked bool) error {
	if s.limit != nil {
		if err := s.limit(ctx, userID); err != nil {
			return err
		}
	}
	at := s.now().Truncate(time.Millisecond)
	var row *ent.Outbox
	var err error
	for attempt := 1; ; attempt++ {
		row, err = s.write(ctx, userID, blogID, liked, at)
		if attempt == 5 || !deadlock(err) {
			break
		}
	}
	if err != nil || row == nil {
		return err
	}
	// Committed: from here on nothing is the caller's failure (a retry would
	// find the like done and fix nothing); a failed mirror drops the set.
	ctx = context.WithoutCancel(ctx)
	if s.changed != nil {
		s.changed(ctx, blogID)
	}
	if err := s.apply(ctx, userID, blogID, liked, at); err != nil {
		s.log.Warn("like set apply failed; dropping the set", "blog", blogID, "err", err)
		if err := s.outbox.Run(ctx, row); err != nil {
			s.log.Warn("like set drop failed; the outbox retries it", "blog", blogID, "err", err)
		}
		return nil
	}
	if err := s.outbox.Done(ctx, row); err != nil {
		// The poller will drop the (correct) set once: a rebuild, no harm.
		s.log.Warn("like outbox row not deleted", "blog", blogID, "err", err)
	}
	return nil
}

// deadlock reports a MySQL deadlock or lock wait timeout: the transaction was
// rolled back and may simply run again. Concurrent likes and unlikes of one
// blog take gap locks on blog_like's unique key and can deadlock.
func deadlock(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1213 || me.Number == 1205)
}

// apply mirrors one committed like or unlike into the blog's ZSET, if it is
// in Redis (a missing set is left missing: its next reader rebuilds it).
func (s *Service) apply(ctx context.Context, userID, blogID int64, liked bool, at time.Time) error {
	if s.hook != nil {
		if err := s.hook("apply"); err != nil {
			return err
		}
	}
	flag := "0"
	if liked {
		flag = "1"
	}
	return likeApply.Run(ctx, s.rdb,
		[]string{s.setKey(blogID), s.verKey(blogID)}, flag, at.UnixMilli(), member(userID), s.ttl.Milliseconds()).Err()
}

// write changes the table and the counter in one transaction, with the
// outbox row that drops the set should its mirroring fail; row is nil when
// the like already was (or was not) there.
func (s *Service) write(ctx context.Context, userID, blogID int64, liked bool, at time.Time) (row *ent.Outbox, err error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return nil, err
	}
	changed := false
	defer func() {
		if err != nil || !changed {
			_ = tx.Rollback()
		}
	}()
	delta := 1
	if liked {
		err = tx.BlogLike.Create().SetBlogID(blogID).SetUserID(userID).SetCreateTime(at).Exec(ctx)
		if ent.IsConstraintError(err) {
			return nil, nil // already liked
		}
		if err != nil {
			return nil, err
		}
	} else {
		n, err := tx.BlogLike.Delete().Where(entbloglike.BlogID(blogID), entbloglike.UserID(userID)).Exec(ctx)
		if err != nil || n == 0 {
			return nil, err // not liked: nothing to undo
		}
		delta = -1
	}
	// The counter moves in the same transaction as the row, under the blog
	// row's lock, so concurrent likes never lose an update.
	n, err := tx.Blog.Update().Where(entblog.ID(blogID)).AddLiked(delta).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apperr.New(apperr.NotFound, "blog %d not found", blogID)
	}
	if row, err = s.outbox.Record(ctx, tx, kindStale, strconv.FormatInt(blogID, 10)); err != nil {
		return nil, err
	}
	if err = tx.Commit(); err != nil {
		return nil, err
	}
	changed = true
	return row, nil
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
	rows, err := s.db.BlogLike.Query().Where(entbloglike.BlogIDIn(blogIDs...)).
		Order(ent.Asc(entbloglike.FieldCreateTime, entbloglike.FieldUserID)).All(ctx)
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
	run := func(c redis.Scripter) {
		for id, likes := range byBlog {
			args := []any{versions[id], sentinel, rediscache.Jitter(s.ttl, 0.1).Milliseconds()}
			for _, l := range likes {
				args = append(args, l.CreateTime.UnixMilli(), member(l.UserID))
			}
			likeRebuild.EvalSha(ctx, c, []string{s.setKey(id), s.verKey(id)}, args...)
		}
	}
	return lua.RunPipelined(ctx, s.rdb, likeRebuild, func(p redis.Pipeliner) { run(p) })
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

// Forget drops a deleted blog's like set durably: it records the drop in tx
// (the delete's transaction) and returns what to call once tx has committed,
// which drops the set now or leaves it to the outbox's retries.
func (s *Service) Forget(ctx context.Context, tx *ent.Tx, blogID int64) (after func(context.Context), err error) {
	row, err := s.outbox.Record(ctx, tx, kindStale, strconv.FormatInt(blogID, 10))
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) {
		if err := s.outbox.Run(ctx, row); err != nil {
			s.log.Warn("like set drop failed; the outbox retries it", "blog", blogID, "err", err)
		}
	}, nil
}

// drop deletes a blog's like set and bumps its version, so a rebuild that
// read MySQL before does not write it back; the next read rebuilds it.
func (s *Service) drop(ctx context.Context, blogID int64) error {
	if s.hook != nil {
		if err := s.hook("drop"); err != nil {
			return err
		}
	}
	pipe := s.rdb.Pipeline()
	pipe.Incr(ctx, s.verKey(blogID))
	pipe.PExpire(ctx, s.verKey(blogID), s.ttl)
	pipe.Del(ctx, s.setKey(blogID))
	_, err := pipe.Exec(ctx)
	return err
}
