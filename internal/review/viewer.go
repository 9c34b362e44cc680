package review

import (
	"context"

	entrating "github.com/hmdp/hmdp/ent/shoprating"
	"github.com/hmdp/hmdp/internal/rediscache"
)

// keptUserRatings bounds the ratings kept per user: a user who rated more
// shops has the rest read from MySQL.
const keptUserRatings = 1000

// userRatings are a user's ratings, shop id -> stars, as kept in Redis and
// the near caches; All is false when the user has more than keptUserRatings.
type userRatings struct {
	Stars map[int64]int `json:"stars"`
	All   bool          `json:"all"`
}

// keepRatingsWith keeps each viewer's ratings with the kept reviews (same
// Redis, lock, TTL and near cache): the logged-in shop page then reads its
// viewerRating without MySQL once warm, as the rest of the page.
func (s *Service) keepRatingsWith(cfg KeptConfig) {
	s.ratings = rediscache.New(cfg.Redis, rediscache.Config{
		Name: "user_ratings", Prefix: cfg.Prefix, TTL: cfg.TTL, NearTTL: cfg.NearTTL,
		Locker: cfg.Locker, Registerer: cfg.Registerer, Log: cfg.Log,
	}, s.loadUserRatings)
}

// loadUserRatings reads a user's ratings (one statement, on idx_rating_user).
func (s *Service) loadUserRatings(ctx context.Context, userID int64) (userRatings, bool, error) {
	rs, err := s.db.ShopRating.Query().Where(entrating.UserID(userID)).
		Select(entrating.FieldShopID, entrating.FieldStars).Limit(keptUserRatings + 1).All(ctx)
	if err != nil {
		return userRatings{}, false, err
	}
	u := userRatings{Stars: make(map[int64]int, len(rs)), All: len(rs) <= keptUserRatings}
	for _, r := range rs[:min(len(rs), keptUserRatings)] {
		u.Stars[r.ShopID] = r.Stars
	}
	return u, true, nil
}

// userRated drops a user's kept ratings on every instance; call it after the
// commit of their rating (a failure is logged: the TTL bounds the staleness).
func (s *Service) userRated(ctx context.Context, userID int64) {
	if s.ratings == nil {
		return
	}
	if err := s.ratings.Invalidate(context.WithoutCancel(ctx), userID); err != nil {
		s.log.Warn("reviews: invalidation failed; the user's kept ratings may be stale until their TTL", "user", userID, "err", err)
	}
}

// ViewerRatings are viewer's current stars for each of shopIDs (out[i] for
// shopIDs[i], nil where the viewer has not rated it): Shop.viewerRating,
// batched per response. From the viewer's kept ratings when the service keeps
// them, else in one statement for all. An anonymous viewer (0) has rated
// nothing: nothing is read.
func (s *Service) ViewerRatings(ctx context.Context, viewer int64, shopIDs []int64) ([]*int, error) {
	out := make([]*int, len(shopIDs))
	if viewer == 0 || len(shopIDs) == 0 {
		return out, nil
	}
	stars := map[int64]int{}
	missing := shopIDs
	if s.ratings != nil {
		u, _, err := s.ratings.Get(ctx, viewer)
		if err != nil {
			return nil, err
		}
		stars, missing = u.Stars, nil
		if !u.All {
			for _, id := range shopIDs {
				if _, ok := stars[id]; !ok {
					missing = append(missing, id)
				}
			}
		}
	}
	if len(missing) > 0 {
		rs, err := s.db.ShopRating.Query().Where(entrating.UserID(viewer), entrating.ShopIDIn(missing...)).
			Select(entrating.FieldShopID, entrating.FieldStars).All(ctx)
		if err != nil {
			return nil, err
		}
		more := make(map[int64]int, len(stars)+len(rs))
		for id, n := range stars {
			more[id] = n
		}
		for _, r := range rs {
			more[r.ShopID] = r.Stars
		}
		stars = more
	}
	for i, id := range shopIDs {
		if n, ok := stars[id]; ok {
			out[i] = &n
		}
	}
	return out, nil
}
