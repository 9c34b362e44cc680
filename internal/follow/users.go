package follow

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
)

// The workflows of the follow mutations and look-ups, answering with users
// (the GraphQL setFollow and commonFollows).

// SetFollow makes viewer follow target (follows) or stop following it (Set),
// and returns target as it is now: NOT_FOUND when there is no such user.
func (s *Service) SetFollow(ctx context.Context, viewer, target int64, follows bool) (*ent.User, error) {
	if err := s.Set(ctx, viewer, target, follows); err != nil {
		return nil, err
	}
	u, err := s.db.User.Get(ctx, target)
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NotFound, "user %d not found", target)
	}
	return u, err
}

// CommonFollows returns the users both viewer and other follow (Common), by
// id; users gone since are left out.
func (s *Service) CommonFollows(ctx context.Context, viewer, other int64) ([]*ent.User, error) {
	ids, err := s.Common(ctx, viewer, other)
	if err != nil {
		return nil, err
	}
	us, err := s.db.User.Query().Where(entuser.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*ent.User, len(us))
	for _, u := range us {
		byID[u.ID] = u
	}
	out := make([]*ent.User, 0, len(ids))
	for _, id := range ids {
		if u := byID[id]; u != nil {
			out = append(out, u)
		}
	}
	return out, nil
}
