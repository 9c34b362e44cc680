// Package follow keeps who follows whom. tb_follow is the truth (its unique
// key (user_id, follow_user_id) makes following idempotent); Redis holds two
// sets per user, the users they follow and their followers, rebuilt from the
// table whenever missing. They answer counts, "followed by me", common
// follows and the feed's fan-out.
package follow

import (
	"context"
	"errors"
	"slices"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/follow"
	"github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/page"
)

// Listener is told about each follow or unfollow after it is committed (the
// feed adds or removes the author's posts in the follower's inbox).
type Listener interface {
	FollowChanged(ctx context.Context, follower, author int64, follows bool) error
}

// Service is the follow service.
type Service struct {
	db      *ent.Client
	rdb     redis.UniversalClient
	prefix  string
	cluster bool
	// Listener is set once the feed exists.
	Listener Listener
}

// New returns the service; keys start with prefix.
func New(db *ent.Client, rdb redis.UniversalClient, prefix string) *Service {
	_, cluster := rdb.(*redis.ClusterClient)
	return &Service{db: db, rdb: rdb, prefix: prefix, cluster: cluster}
}

// Set makes viewer follow (or stop following) target. Repeating a call
// changes nothing. Following yourself is BAD_USER_INPUT; an unknown target
// NOT_FOUND.
func (s *Service) Set(ctx context.Context, viewer, target int64, follows bool) error {
	if viewer == target {
		return apperr.BadInput("userId", "you cannot follow yourself")
	}
	ok, err := s.db.User.Query().Where(user.ID(target)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.New(apperr.NotFound, "user %d not found", target)
	}
	changed := false
	if follows {
		err = s.db.Follow.Create().SetUserID(viewer).SetFollowUserID(target).Exec(ctx)
		switch {
		case ent.IsConstraintError(err):
			err = nil // already following
		case err == nil:
			changed = true
		}
	} else {
		var n int
		n, err = s.db.Follow.Delete().Where(follow.UserID(viewer), follow.FollowUserID(target)).Exec(ctx)
		changed = n > 0
	}
	if err != nil || !changed {
		return err
	}
	if err := s.apply(ctx, Followees, viewer, target, follows); err != nil {
		return err
	}
	if err := s.apply(ctx, Followers, target, viewer, follows); err != nil {
		return err
	}
	if s.Listener != nil {
		return s.Listener.FollowChanged(ctx, viewer, target, follows)
	}
	return nil
}

// Counts returns (followers, followees) of each user.
func (s *Service) Counts(ctx context.Context, users []int64) ([][2]int64, error) {
	type cmds struct{ card, full *redis.Cmd }
	pipe := s.rdb.Pipeline()
	cs := make([][2]cmds, len(users))
	for i, u := range users {
		for k := range 2 {
			key := s.key(Kind(1-k), u) // [0] followers, [1] followees
			cs[i][k] = cmds{pipe.Do(ctx, "SCARD", key), pipe.Do(ctx, "SISMEMBER", key, sentinel)}
		}
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([][2]int64, len(users))
	missing := [2][]int64{}
	for i, u := range users {
		for k := range 2 {
			full, _ := cs[i][k].full.Int64()
			if full == 1 {
				n, _ := cs[i][k].card.Int64()
				out[i][k] = n - 1
			} else {
				missing[k] = append(missing[k], u)
			}
		}
	}
	for k, us := range missing {
		if len(us) == 0 {
			continue
		}
		sets, err := s.members(ctx, Kind(1-k), us)
		if err != nil {
			return nil, err
		}
		for i, u := range users {
			if ids, ok := sets[u]; ok && slices.Contains(us, u) {
				out[i][k] = int64(len(ids))
			}
		}
	}
	return out, nil
}

// FollowedBy reports, for each target, whether viewer follows it.
func (s *Service) FollowedBy(ctx context.Context, viewer int64, targets []int64) ([]bool, error) {
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
func (s *Service) FollowersOf(ctx context.Context, author int64) ([]int64, error) {
	sets, err := s.members(ctx, Followers, []int64{author})
	return sets[author], err
}

// FolloweesOf returns everyone u follows.
func (s *Service) FolloweesOf(ctx context.Context, u int64) ([]int64, error) {
	sets, err := s.members(ctx, Followees, []int64{u})
	return sets[u], err
}

// Common returns the users both viewer and other follow, by id. On a single
// Redis this is SINTER of the two sets. Each user's sets carry their own hash
// tag so that they spread over a cluster; SINTER would then be a cross-slot
// command, so on a cluster the two (small: people follow few) followee sets
// are fetched in one pipeline and intersected here.
func (s *Service) Common(ctx context.Context, viewer, other int64) ([]int64, error) {
	if !s.cluster {
		// Make sure both sets are complete first (rebuilt when missing).
		if _, err := s.members(ctx, Followees, []int64{viewer, other}); err != nil {
			return nil, err
		}
		ms, err := s.rdb.SInter(ctx, s.key(Followees, viewer), s.key(Followees, other)).Result()
		if err != nil {
			return nil, err
		}
		ids, _, err := parseMembers(ms)
		slices.Sort(ids)
		return ids, err
	}
	sets, err := s.members(ctx, Followees, []int64{viewer, other})
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
	n, c, err := page.Args(first, after)
	if err != nil {
		return nil, err
	}
	q := s.db.Follow.Query()
	if k == Followers {
		q = q.Where(follow.FollowUserID(u))
	} else {
		q = q.Where(follow.UserID(u))
	}
	if c != nil {
		q = q.Where(follow.IDLT(c.ID))
	}
	rows, err := q.Order(ent.Desc(follow.FieldID)).Limit(n + 1).All(ctx)
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
	us, err := s.db.User.Query().Where(user.IDIn(ids...)).All(ctx)
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
