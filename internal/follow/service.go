// Package follow keeps who follows whom. tb_follow is the truth (its unique
// key (user_id, follow_user_id) makes following idempotent); Redis holds two
// sets per user, the users they follow and their followers, rebuilt from the
// table whenever missing. They answer counts, "followed by me", common
// follows and the feed's fan-out.
//
// Each change is mirrored into the two sets and told to the listener after
// commit. Should either fail (or the process die first), an outbox row written
// in the change's transaction drops both sets (bumping their versions) and
// tells the listener the pair's state as MySQL has it then, retried until it
// succeeds: the copies are never left wrong for good.
package follow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entfollow "github.com/hmdp/hmdp/ent/follow"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/outbox"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// Listener is told about each follow or unfollow after it is committed (the
// feed adds or removes the author's posts in the follower's inbox).
type Listener interface {
	FollowChanged(ctx context.Context, follower, author int64, follows bool) error
}

// Config holds the service's dependencies; zero values take the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string // Redis key prefix ("hmdp:")
	// Sets reads and keeps the Redis follow sets. The wiring builds one
	// first and gives it to this service and to the feed; it must be over
	// DB, Redis and Prefix. Default: one of the service's own.
	Sets *Sets
	// Listener hears of each committed follow or unfollow (the feed); nil: no one.
	Listener Listener
	// OutboxInterval is how often failed mirrorings are retried (default 1 s).
	OutboxInterval time.Duration
	Log            *slog.Logger // default slog.Default()
	// Limiter, when set, allows each user PerUser calls of Set and
	// LookupsPerUser calls of Common that must rebuild a set from MySQL
	// (RATE_LIMITED past either).
	Limiter        *ratelimit.Limiter
	PerUser        ratelimit.Limit // default DefaultPerUser
	LookupsPerUser ratelimit.Limit // default DefaultLookupsPerUser
}

// DefaultPerUser is the default limit of Set per user: a burst of 60 follows
// and unfollows, then one a second (each is a MySQL transaction).
var DefaultPerUser = ratelimit.Limit{Events: 60, Per: time.Minute}

// DefaultLookupsPerUser is the default limit, per user, of Common calls that
// find a set missing in Redis and read MySQL: a burst of 60, then one a second.
// Calls answered from Redis cost nothing of it.
var DefaultLookupsPerUser = ratelimit.Limit{Events: 60, Per: time.Minute}

// Service is the follow service.
type Service struct {
	db       *ent.Client
	rdb      redis.UniversalClient
	cluster  bool
	sets     *Sets
	listener Listener // nil: no one
	log      *slog.Logger
	outbox   *outbox.Outbox
	// limit spends one of user's allowance of what ("set", "lookup"); nil: no limits.
	limit func(ctx context.Context, what string, user int64) error
	// hook, when set (tests), runs before the after-commit step ("apply") and
	// each repair ("drop"), and fails that step by returning an error.
	hook func(step string) error
}

// kindStale is the outbox kind whose handler (arg "follower:author") drops
// both sets of a pair and re-tells the listener.
const kindStale = "follow.stale"

// New returns the service; Start retries failed mirrorings, Close stops that.
func New(cfg Config) *Service {
	if cfg.Sets == nil {
		cfg.Sets = NewSets(SetsConfig{DB: cfg.DB, Redis: cfg.Redis, Prefix: cfg.Prefix})
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	_, cluster := cfg.Redis.(*redis.ClusterClient)
	s := &Service{db: cfg.DB, rdb: cfg.Redis, cluster: cluster, sets: cfg.Sets, listener: cfg.Listener, log: cfg.Log}
	s.outbox = outbox.New(cfg.DB, outbox.Config{Interval: cfg.OutboxInterval, Log: cfg.Log})
	s.outbox.Handle(kindStale, s.repair)
	if l := cfg.Limiter; l != nil {
		if cfg.PerUser.Events <= 0 || cfg.PerUser.Per <= 0 {
			cfg.PerUser = DefaultPerUser
		}
		if cfg.LookupsPerUser.Events <= 0 || cfg.LookupsPerUser.Per <= 0 {
			cfg.LookupsPerUser = DefaultLookupsPerUser
		}
		s.limit = func(ctx context.Context, what string, user int64) error {
			lim, name := cfg.PerUser, "follows and unfollows"
			if what == "lookup" {
				lim, name = cfg.LookupsPerUser, "common-follow lookups"
			}
			res, err := l.Allow(ctx, "follow:"+what+":user:"+strconv.FormatInt(user, 10), lim)
			if err == nil && !res.Allowed {
				err = apperr.RateLimit(name, res.RetryAfter.Milliseconds())
			}
			return err
		}
	}
	return s
}

// Start retries, in the background, the mirrorings that failed (or whose
// process died before running them).
func (s *Service) Start() { s.outbox.Start() }

// Close stops the retries.
func (s *Service) Close() { s.outbox.Close() }

// Outbox is the outbox of the service's repairs (for tests).
func (s *Service) Outbox() *outbox.Outbox { return s.outbox }

// repair is the kindStale handler (idempotent): both sets go, to be rebuilt
// from tb_follow by their next reader, and the listener hears the pair's
// current state (so a retry never replays an outdated change).
func (s *Service) repair(ctx context.Context, arg string) error {
	a, b, ok := strings.Cut(arg, ":")
	follower, err1 := strconv.ParseInt(a, 10, 64)
	author, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("%s: bad pair %q", kindStale, arg)
	}
	if s.hook != nil {
		if err := s.hook("drop"); err != nil {
			return err
		}
	}
	if err := s.sets.drop(ctx, Followees, follower); err != nil {
		return err
	}
	if err := s.sets.drop(ctx, Followers, author); err != nil {
		return err
	}
	if s.listener == nil {
		return nil
	}
	follows, err := s.db.Follow.Query().Where(entfollow.UserID(follower), entfollow.FollowUserID(author)).Exist(ctx)
	if err != nil {
		return err
	}
	return s.listener.FollowChanged(ctx, follower, author, follows)
}

// Set makes viewer follow (or stop following) target. Repeating a call
// changes nothing. Following yourself is BAD_USER_INPUT; an unknown target
// NOT_FOUND; past the viewer's allowance (PerUser: every call that reaches
// MySQL counts, repeats and unknown targets included) RATE_LIMITED.
func (s *Service) Set(ctx context.Context, viewer, target int64, follows bool) error {
	if viewer == target {
		return apperr.BadInput("userId", "you cannot follow yourself")
	}
	if s.limit != nil {
		if err := s.limit(ctx, "set", viewer); err != nil {
			return err
		}
	}
	ok, err := s.db.User.Query().Where(entuser.ID(target)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.New(apperr.NotFound, "user %d not found", target)
	}
	var row *ent.Outbox
	for attempt := 1; ; attempt++ {
		row, err = s.write(ctx, viewer, target, follows)
		if attempt == 5 || !deadlock(err) {
			break
		}
	}
	if err != nil || row == nil {
		return err
	}
	// Committed: from here on nothing is the caller's failure (a retry would
	// find the follow done and fix nothing); a failed step runs the repair.
	ctx = context.WithoutCancel(ctx)
	if err := s.mirror(ctx, viewer, target, follows); err != nil {
		s.log.Warn("follow mirroring failed; repairing", "follower", viewer, "author", target, "err", err)
		if err := s.outbox.Run(ctx, row); err != nil {
			s.log.Warn("follow repair failed; the outbox retries it", "follower", viewer, "author", target, "err", err)
		}
		return nil
	}
	if err := s.outbox.Done(ctx, row); err != nil {
		// The poller will repair the (correct) copies once: no harm.
		s.log.Warn("follow outbox row not deleted", "follower", viewer, "author", target, "err", err)
	}
	return nil
}

// write changes tb_follow with the outbox row of the repair in one
// transaction; row is nil when nothing changed (already so).
func (s *Service) write(ctx context.Context, viewer, target int64, follows bool) (row *ent.Outbox, err error) {
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
	if follows {
		err = tx.Follow.Create().SetUserID(viewer).SetFollowUserID(target).Exec(ctx)
		if ent.IsConstraintError(err) {
			return nil, nil // already following
		}
	} else {
		var n int
		n, err = tx.Follow.Delete().Where(entfollow.UserID(viewer), entfollow.FollowUserID(target)).Exec(ctx)
		if err == nil && n == 0 {
			return nil, nil // not following
		}
	}
	if err != nil {
		return nil, err
	}
	if row, err = s.outbox.Record(ctx, tx, kindStale, fmt.Sprintf("%d:%d", viewer, target)); err != nil {
		return nil, err
	}
	if err = tx.Commit(); err != nil {
		return nil, err
	}
	changed = true
	return row, nil
}

// deadlock reports a MySQL deadlock or lock wait timeout: the transaction was
// rolled back and may simply run again (concurrent follows and unfollows take
// gap locks on tb_follow's unique key).
func deadlock(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1213 || me.Number == 1205)
}

// mirror applies one committed change to both sets and tells the listener.
func (s *Service) mirror(ctx context.Context, viewer, target int64, follows bool) error {
	if s.hook != nil {
		if err := s.hook("apply"); err != nil {
			return err
		}
	}
	if err := s.sets.apply(ctx, Followees, viewer, target, follows); err != nil {
		return err
	}
	if err := s.sets.apply(ctx, Followers, target, viewer, follows); err != nil {
		return err
	}
	if s.listener != nil {
		return s.listener.FollowChanged(ctx, viewer, target, follows)
	}
	return nil
}

// Counts are a user's follow counts.
type Counts struct {
	Followers int64 // users who follow the user
	Following int64 // users the user follows
}

// Counts returns the follow counts of each user, in the order of users.
func (s *Service) Counts(ctx context.Context, users []int64) ([]Counts, error) {
	type cmds struct{ card, full *redis.Cmd }
	kinds := [...]Kind{Followers, Followees}
	pipe := s.rdb.Pipeline()
	cs := make([][len(kinds)]cmds, len(users))
	for i, u := range users {
		for k, kind := range kinds {
			key := s.sets.key(kind, u)
			cs[i][k] = cmds{pipe.Do(ctx, "SCARD", key), pipe.Do(ctx, "SISMEMBER", key, sentinel)}
		}
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	n := make([][len(kinds)]int64, len(users))
	var missing [len(kinds)][]int64
	for i, u := range users {
		for k := range kinds {
			full, _ := cs[i][k].full.Int64()
			if full == 1 {
				card, _ := cs[i][k].card.Int64()
				n[i][k] = card - 1
			} else {
				missing[k] = append(missing[k], u)
			}
		}
	}
	for k, us := range missing {
		if len(us) == 0 {
			continue
		}
		sets, err := s.sets.members(ctx, kinds[k], us)
		if err != nil {
			return nil, err
		}
		for i, u := range users {
			if ids, ok := sets[u]; ok && slices.Contains(us, u) {
				n[i][k] = int64(len(ids))
			}
		}
	}
	out := make([]Counts, len(users))
	for i := range users {
		out[i] = Counts{Followers: n[i][0], Following: n[i][1]}
	}
	return out, nil
}

// FollowedBy reports, for each target, whether viewer follows it (see Sets.FollowedBy).
func (s *Service) FollowedBy(ctx context.Context, viewer int64, targets []int64) ([]bool, error) {
	return s.sets.FollowedBy(ctx, viewer, targets)
}

// FollowersOf returns every follower of author (see Sets.FollowersOf).
func (s *Service) FollowersOf(ctx context.Context, author int64) ([]int64, error) {
	return s.sets.FollowersOf(ctx, author)
}

// FolloweesOf returns everyone u follows (see Sets.FolloweesOf).
func (s *Service) FolloweesOf(ctx context.Context, u int64) ([]int64, error) {
	return s.sets.FolloweesOf(ctx, u)
}

// Common returns the users both viewer and other follow, by id. On a single
// Redis this is SINTER of the two sets. Each user's sets carry their own hash
// tag so that they spread over a cluster; SINTER would then be a cross-slot
// command, so on a cluster the two (small: people follow few) followee sets
// are fetched in one pipeline and intersected here.
//
// other is any id a client sends: a call that must rebuild a set spends one
// of viewer's LookupsPerUser (RATE_LIMITED past it), and an other that is not
// a user follows no one, with nothing written to Redis for it.
func (s *Service) Common(ctx context.Context, viewer, other int64) ([]int64, error) {
	m := misses{unverified: []int64{other}}
	if s.limit != nil {
		m.admit = func(ctx context.Context) error { return s.limit(ctx, "lookup", viewer) }
	}
	if !s.cluster {
		// Make sure both sets are complete first (rebuilt when missing).
		if _, err := s.sets.read(ctx, Followees, []int64{viewer, other}, m); err != nil {
			return nil, err
		}
		ms, err := s.rdb.SInter(ctx, s.sets.key(Followees, viewer), s.sets.key(Followees, other)).Result()
		if err != nil {
			return nil, err
		}
		ids, _, err := parseMembers(ms)
		slices.Sort(ids)
		return ids, err
	}
	sets, err := s.sets.read(ctx, Followees, []int64{viewer, other}, m)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, id := range sets[viewer] {
		if slices.Contains(sets[other], id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Edge is a user in a follow list with its cursor.
type Edge struct {
	Cursor page.Cursor
	Node   *ent.User
}

// Page is one page of a follow list.
type Page struct {
	Edges []Edge
	Info  page.Info
}

// List pages u's followers or followees, most recent follow first (from
// MySQL: lists are read in order, which the sets do not keep).
func (s *Service) List(ctx context.Context, k Kind, u int64, first *int, after *string) (*Page, error) {
	ctx = database.LagTolerant(ctx) // follower lists may read a replica
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	q := s.db.Follow.Query()
	if k == Followers {
		q = q.Where(entfollow.FollowUserID(u))
	} else {
		q = q.Where(entfollow.UserID(u))
	}
	if c != nil {
		q = q.Where(entfollow.IDLT(c.ID))
	}
	rows, err := q.Order(ent.Desc(entfollow.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	other := func(r *ent.Follow) int64 {
		if k == Followers {
			return r.UserID
		}
		return r.FollowUserID
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = other(r)
	}
	us, err := s.db.User.Query().Where(entuser.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*ent.User, len(us))
	for _, x := range us {
		byID[x.ID] = x
	}
	p := &Page{Info: page.Make(len(rows), n, func(i int) page.Cursor { return page.Cursor{ID: rows[i].ID} })}
	for i, r := range rows {
		if i == n {
			break
		}
		if x := byID[other(r)]; x != nil {
			p.Edges = append(p.Edges, Edge{Cursor: page.Cursor{ID: r.ID}, Node: x})
		}
	}
	return p, nil
}
