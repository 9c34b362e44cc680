package follow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entfollow "github.com/hmdp/hmdp/ent/follow"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/rediscache"
	"github.com/hmdp/hmdp/lua"
)

// The scripts of the sets (keys of one user's set share its hash tag).
var (
	setApply   = lua.Script("set_apply")
	setRebuild = lua.Script("set_rebuild")
)

// DefaultSetTTL is how long a set rebuilt from tb_follow is kept (±10%, so
// sets rebuilt together do not expire together); changes do not extend it.
// A set not read for that long is rebuilt by its next reader.
const DefaultSetTTL = 24 * time.Hour

// Kind is one of the two sets kept per user.
type Kind int

const (
	// Followees of u: the users u follows (u is tb_follow.user_id).
	Followees Kind = iota
	// Followers of u: the users who follow u (u is tb_follow.follow_user_id).
	Followers
)

// sentinel marks a complete set (a user who follows nobody still has a key).
const sentinel = "~"

// SetsConfig holds the dependencies of Sets.
type SetsConfig struct {
	DB     *ent.Client // tb_follow, the truth the sets are rebuilt from
	Redis  redis.UniversalClient
	Prefix string // Redis key prefix ("hmdp:")
	// TTL is how long a rebuilt set and a version counter are kept
	// (default DefaultSetTTL).
	TTL time.Duration
}

// Sets reads the two Redis sets kept per user, rebuilding those missing from
// tb_follow, and mirrors committed changes into them. The follow service
// writes through it and the feed reads through it: built first, it is given
// to both.
type Sets struct {
	db     *ent.Client
	rdb    redis.UniversalClient
	prefix string
	ttl    time.Duration
}

// NewSets returns the set reader.
func NewSets(cfg SetsConfig) *Sets {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultSetTTL
	}
	return &Sets{db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix, ttl: cfg.TTL}
}

// ttlMs is a set's lifetime, jittered, in ms.
func (s *Sets) ttlMs() int64 { return rediscache.Jitter(s.ttl, 0.1).Milliseconds() }

// key is the set of kind for user u. One hash tag per user: sets of different
// users live on different cluster slots.
func (s *Sets) key(k Kind, u int64) string {
	if k == Followees {
		return fmt.Sprintf("%sfollows:{%d}", s.prefix, u)
	}
	return fmt.Sprintf("%sfollowers:{%d}", s.prefix, u)
}

func (s *Sets) verKey(k Kind, u int64) string { return s.key(k, u) + ":ver" }

// apply mirrors one committed change into the set, if it is in Redis (a
// missing set is left missing: its next reader rebuilds it, with the change).
func (s *Sets) apply(ctx context.Context, k Kind, u, member int64, add bool) error {
	flag := "0"
	if add {
		flag = "1"
	}
	return setApply.Run(ctx, s.rdb, []string{s.key(k, u), s.verKey(k, u)}, flag, member, s.ttl.Milliseconds()).Err()
}

// drop deletes a set and bumps its version, so a rebuild that read MySQL
// before does not write it back; the next reader rebuilds it.
func (s *Sets) drop(ctx context.Context, k Kind, u int64) error {
	pipe := s.rdb.Pipeline()
	pipe.Incr(ctx, s.verKey(k, u))
	pipe.PExpire(ctx, s.verKey(k, u), s.ttl)
	pipe.Del(ctx, s.key(k, u))
	_, err := pipe.Exec(ctx)
	return err
}

// members returns the complete sets of kind for users: one pipelined round
// trip, plus one SQL statement and one round trip for the sets that were
// missing (rebuilt from tb_follow).
func (s *Sets) members(ctx context.Context, k Kind, users []int64) (map[int64][]int64, error) {
	return s.read(ctx, k, users, misses{})
}

// misses says what a read does before rebuilding missing sets, for reads of
// ids a client chose (commonFollows), which may name no one.
type misses struct {
	// admit, when set, is asked once before any set is rebuilt (a rate
	// limit); its error is the read's.
	admit func(ctx context.Context) error
	// unverified are users not known to exist: before their sets are
	// rebuilt, one more SQL statement looks them up; for those that are not
	// users nothing is written and the set is empty.
	unverified []int64
}

// read is members with the checks of m before any rebuild.
func (s *Sets) read(ctx context.Context, k Kind, users []int64, m misses) (map[int64][]int64, error) {
	pipe := s.rdb.Pipeline()
	mems := make([]*redis.StringSliceCmd, len(users))
	vers := make([]*redis.StringCmd, len(users))
	for i, u := range users {
		mems[i] = pipe.SMembers(ctx, s.key(k, u))
		vers[i] = pipe.Get(ctx, s.verKey(k, u))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make(map[int64][]int64, len(users))
	var missing []int64
	versions := map[int64]string{}
	for i, u := range users {
		ids, complete, err := parseMembers(mems[i].Val())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.key(k, u), err)
		}
		if !complete {
			missing = append(missing, u)
			versions[u] = vers[i].Val()
			continue
		}
		out[u] = ids
	}
	if len(missing) == 0 {
		return out, nil
	}
	if m.admit != nil {
		if err := m.admit(ctx); err != nil {
			return nil, err
		}
	}
	missing, err := s.existing(ctx, missing, m.unverified)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if _, ok := out[u]; !ok && !slices.Contains(missing, u) {
			out[u] = nil // not a user: follows no one, written nowhere
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	loaded, err := s.load(ctx, k, missing)
	if err != nil {
		return nil, err
	}
	if err := s.rebuild(ctx, k, loaded, versions); err != nil {
		return nil, err
	}
	for u, ids := range loaded {
		out[u] = ids
	}
	return out, nil
}

func parseMembers(ms []string) (ids []int64, complete bool, err error) {
	for _, m := range ms {
		if m == sentinel {
			complete = true
			continue
		}
		id, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			return nil, false, fmt.Errorf("bad member %q", m)
		}
		ids = append(ids, id)
	}
	return ids, complete, nil
}

// existing is missing without the unverified users that are not in tb_user
// (one statement, only when some of missing are unverified).
func (s *Sets) existing(ctx context.Context, missing, unverified []int64) ([]int64, error) {
	var check []int64
	for _, u := range missing {
		if slices.Contains(unverified, u) && !slices.Contains(check, u) {
			check = append(check, u)
		}
	}
	if len(check) == 0 {
		return missing, nil
	}
	found, err := s.db.User.Query().Where(entuser.IDIn(check...)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(missing, func(u int64) bool {
		return slices.Contains(check, u) && !slices.Contains(found, u)
	}), nil
}

// load reads the sets of users from tb_follow in one statement.
func (s *Sets) load(ctx context.Context, k Kind, users []int64) (map[int64][]int64, error) {
	q := s.db.Follow.Query()
	if k == Followees {
		q = q.Where(entfollow.UserIDIn(users...))
	} else {
		q = q.Where(entfollow.FollowUserIDIn(users...))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]int64, len(users))
	for _, u := range users {
		out[u] = nil
	}
	for _, r := range rows {
		if k == Followees {
			out[r.UserID] = append(out[r.UserID], r.FollowUserID)
		} else {
			out[r.FollowUserID] = append(out[r.FollowUserID], r.UserID)
		}
	}
	return out, nil
}

// rebuild writes sets read from MySQL, each unless it changed meanwhile,
// each kept for the sets' TTL.
func (s *Sets) rebuild(ctx context.Context, k Kind, sets map[int64][]int64, versions map[int64]string) error {
	script := setRebuild
	run := func(c redis.Scripter) {
		for u, ids := range sets {
			args := make([]any, 0, len(ids)+3)
			args = append(args, versions[u], sentinel, s.ttlMs())
			for _, id := range ids {
				args = append(args, id)
			}
			script.EvalSha(ctx, c, []string{s.key(k, u), s.verKey(k, u)}, args...)
		}
	}
	return lua.RunPipelined(ctx, s.rdb, script, func(p redis.Pipeliner) { run(p) })
}

// FollowedBy reports, for each target, whether viewer follows it.
func (s *Sets) FollowedBy(ctx context.Context, viewer int64, targets []int64) ([]bool, error) {
	return s.inSet(ctx, Followees, viewer, targets)
}

// inSet reports, for each of ids, whether it is in u's set of kind k: one
// SMISMEMBER, plus the rebuild of a missing set.
func (s *Sets) inSet(ctx context.Context, k Kind, u int64, ids []int64) ([]bool, error) {
	args := make([]any, 0, len(ids)+1)
	args = append(args, sentinel)
	for _, id := range ids {
		args = append(args, id)
	}
	flags, err := s.rdb.SMIsMember(ctx, s.key(k, u), args...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(ids))
	if flags[0] {
		copy(out, flags[1:])
		return out, nil
	}
	sets, err := s.members(ctx, k, []int64{u})
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		out[i] = slices.Contains(sets[u], id)
	}
	return out, nil
}

// FollowersOf returns every follower of author (the feed's fan-out list).
func (s *Sets) FollowersOf(ctx context.Context, author int64) ([]int64, error) {
	sets, err := s.members(ctx, Followers, []int64{author})
	return sets[author], err
}

// FolloweesOf returns everyone u follows.
func (s *Sets) FolloweesOf(ctx context.Context, u int64) ([]int64, error) {
	sets, err := s.members(ctx, Followees, []int64{u})
	return sets[u], err
}
