package follow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entfollow "github.com/hmdp/hmdp/ent/follow"
	"github.com/hmdp/hmdp/lua"
)

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
}

// Sets reads the two Redis sets kept per user, rebuilding those missing from
// tb_follow, and mirrors committed changes into them. The follow service
// writes through it and the feed reads through it: built first, it is given
// to both.
type Sets struct {
	db     *ent.Client
	rdb    redis.UniversalClient
	prefix string
}

// NewSets returns the set reader.
func NewSets(cfg SetsConfig) *Sets {
	return &Sets{db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix}
}

// key is the set of kind for user u. One hash tag per user: sets of different
// users live on different cluster slots.
func (s *Sets) key(k Kind, u int64) string {
	if k == Followees {
		return fmt.Sprintf("%sfollows:{%d}", s.prefix, u)
	}
	return fmt.Sprintf("%sfollowers:{%d}", s.prefix, u)
}

func (s *Sets) verKey(k Kind, u int64) string { return s.key(k, u) + ":ver" }

// apply mirrors one committed change into the set.
func (s *Sets) apply(ctx context.Context, k Kind, u, member int64, add bool) error {
	flag := "0"
	if add {
		flag = "1"
	}
	return lua.Script("set_apply").Run(ctx, s.rdb, []string{s.key(k, u), s.verKey(k, u)}, flag, member).Err()
}

// drop deletes a set and bumps its version, so a rebuild that read MySQL
// before does not write it back; the next reader rebuilds it.
func (s *Sets) drop(ctx context.Context, k Kind, u int64) error {
	pipe := s.rdb.Pipeline()
	pipe.Incr(ctx, s.verKey(k, u))
	pipe.Del(ctx, s.key(k, u))
	_, err := pipe.Exec(ctx)
	return err
}

// members returns the complete sets of kind for users: one pipelined round
// trip, plus one SQL statement and one round trip for the sets that were
// missing (rebuilt from tb_follow).
func (s *Sets) members(ctx context.Context, k Kind, users []int64) (map[int64][]int64, error) {
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

// rebuild writes sets read from MySQL, each unless it changed meanwhile.
func (s *Sets) rebuild(ctx context.Context, k Kind, sets map[int64][]int64, versions map[int64]string) error {
	script := lua.Script("set_rebuild")
	run := func(c redis.Scripter) {
		for u, ids := range sets {
			args := make([]any, 0, len(ids)+2)
			args = append(args, versions[u], sentinel)
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
	args := make([]any, 0, len(targets)+1)
	args = append(args, sentinel)
	for _, t := range targets {
		args = append(args, t)
	}
	flags, err := s.rdb.SMIsMember(ctx, s.key(Followees, viewer), args...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(targets))
	if flags[0] {
		copy(out, flags[1:])
		return out, nil
	}
	sets, err := s.members(ctx, Followees, []int64{viewer})
	if err != nil {
		return nil, err
	}
	for i, t := range targets {
		out[i] = slices.Contains(sets[viewer], t)
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
