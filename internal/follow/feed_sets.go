package follow

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// What the feed's live delivery asks of the follow graph without reading a
// big author's whole follower set: how many there are, and which of a few
// given users are among them.

// FollowerCount is the number of author's followers: one round trip (SCARD),
// plus the rebuild of a missing set.
func (s *Sets) FollowerCount(ctx context.Context, author int64) (int, error) {
	key := s.key(Followers, author)
	pipe := s.rdb.Pipeline()
	card := pipe.SCard(ctx, key)
	full := pipe.SIsMember(ctx, key, sentinel)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, err
	}
	if full.Val() {
		return int(card.Val()) - 1, nil
	}
	sets, err := s.members(ctx, Followers, []int64{author})
	return len(sets[author]), err
}

// FollowersAmong reports, for each of users, whether they follow author: one
// SMISMEMBER on the author's follower set, plus the rebuild of a missing set.
func (s *Sets) FollowersAmong(ctx context.Context, author int64, users []int64) ([]bool, error) {
	return s.inSet(ctx, Followers, author, users)
}
