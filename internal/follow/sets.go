package follow

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent/follow"
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

// key is the set of kind for user u. One hash tag per user: sets of different
// users live on different cluster slots.
func (s *Service) key(k Kind, u int64) string {
	if k == Followees {
		return fmt.Sprintf("%sfollows:{%d}", s.prefix, u)
	}
	return fmt.Sprintf("%sfollowers:{%d}", s.prefix, u)
}

func (s *Service) verKey(k Kind, u int64) string { return s.key(k, u) + ":ver" }

// apply mirrors one committed change into the set.
func (s *Service) apply(ctx context.Context, k Kind, u, member int64, add bool) error {
	flag := "0"
	if add {
		flag = "1"
	}
	return lua.Script("set_apply").Run(ctx, s.rdb, []string{s.key(k, u), s.verKey(k, u)}, flag, member).Err()
}

// members returns the complete sets of kind for users: one pipelined round
// trip, plus one SQL statement and one round trip for the sets that were
// missing (rebuilt from tb_follow).
func (s *Service) members(ctx context.Context, k Kind, users []int64) (map[int64][]int64, error) {
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
func (s *Service) load(ctx context.Context, k Kind, users []int64) (map[int64][]int64, error) {
	q := s.db.Follow.Query()
	if k == Followees {
		q = q.Where(follow.UserIDIn(users...))
	} else {
		q = q.Where(follow.FollowUserIDIn(users...))
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
func (s *Service) rebuild(ctx context.Context, k Kind, sets map[int64][]int64, versions map[int64]string) error {
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
