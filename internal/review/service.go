// Package review keeps shop ratings and lists a shop's reviews. A user gives
// a shop 1 to 5 stars, once (a second rating changes the first), with
// rateShop or while writing a post about the shop (createBlog's stars). The
// shop's score and review count (tb_shop.score and tb_shop.comments) are
// kept from the ratings in the rating's own transaction, under the shop's
// row lock, so concurrent ratings on any number of instances add up exactly;
// after the commit the shop's cached copies go, as after updateShop. A review
// is a post about the shop whose author has rated it, shown with the
// author's stars.
package review

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/ent"
	entshop "github.com/hmdp/hmdp/ent/shop"
	entrating "github.com/hmdp/hmdp/ent/shoprating"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/rediscache"
)

// The range of a rating.
const (
	MinStars = 1
	MaxStars = 5
)

// Shops is the part of the shop service a rating needs: Changed records, in
// the rating's transaction, that the shop's cached copies must go, and
// returns what to run after commit (shop.Service.Changed).
type Shops interface {
	Changed(ctx context.Context, tx *ent.Tx, shopID int64) (after func(context.Context), err error)
}

// Config holds the service's dependencies; zero values take the defaults.
type Config struct {
	DB    *ent.Client
	Shops Shops
	// Limiter, when set, allows each user PerUser rateShop calls
	// (RATE_LIMITED past it): each change announces an invalidation to
	// every instance.
	Limiter *ratelimit.Limiter
	PerUser ratelimit.Limit // default DefaultPerUser
	// Kept, with Redis set, keeps each viewed shop's first reviews in Redis
	// and the near caches (kept.go); otherwise reviewsByShop reads MySQL.
	Kept KeptConfig
}

// DefaultPerUser is the default limit of rateShop per user.
var DefaultPerUser = ratelimit.Limit{Events: 30, Per: time.Hour}

// Service is the review service.
type Service struct {
	db      *ent.Client
	shops   Shops
	limiter *ratelimit.Limiter
	perUser ratelimit.Limit
	kept    *rediscache.Cache[int64, keptLists] // nil: reviewsByShop reads MySQL
	// ratings are each user's ratings (viewer.go); nil: read from MySQL.
	ratings *rediscache.Cache[int64, userRatings]
	log     *slog.Logger
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.PerUser.Events <= 0 || cfg.PerUser.Per <= 0 {
		cfg.PerUser = DefaultPerUser
	}
	s := &Service{db: cfg.DB, shops: cfg.Shops, limiter: cfg.Limiter, perUser: cfg.PerUser, log: slog.Default()}
	if cfg.Kept.Redis != nil {
		s.keepWith(cfg.Kept)
	}
	return s
}

// CheckStars refuses stars outside 1..5, naming field.
func CheckStars(field string, stars int) error {
	if stars < MinStars || stars > MaxStars {
		return apperr.BadInput(field, "must be %d to %d stars", MinStars, MaxStars)
	}
	return nil
}

// Rate gives (or changes) user's rating of a shop and returns the shop with
// its new score and review count. NOT_FOUND for no such shop; rating the
// same stars again changes nothing.
func (s *Service) Rate(ctx context.Context, userID, shopID int64, stars int) (*ent.Shop, error) {
	if err := CheckStars("stars", stars); err != nil {
		return nil, err
	}
	if shopID <= 0 {
		return nil, apperr.New(apperr.NotFound, "no shop %d", shopID)
	}
	if s.limiter != nil {
		res, err := s.limiter.Allow(ctx, "rate:user:"+strconv.FormatInt(userID, 10), s.perUser)
		if err != nil {
			return nil, err
		}
		if !res.Allowed {
			return nil, apperr.RateLimit("ratings", res.RetryAfter.Milliseconds())
		}
	}
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return nil, err
	}
	sh, after, err := s.rate(ctx, tx, userID, shopID, stars)
	if err != nil {
		return nil, errors.Join(err, tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit rating of shop %d: %w", shopID, err)
	}
	// ARCHITECTURE.md "Commit first, then tell Redis": the outbox retries it.
	after(context.WithoutCancel(ctx))
	return sh.Unwrap(), nil
}

// RateInTx is Rate's work in the caller's transaction (a post written with
// stars): it returns what to run after tx commits. It must be the first
// statement of tx (see rate). The caller has checked stars (CheckStars) and
// that the shop exists; a shop gone meanwhile is BAD_USER_INPUT on
// input.shopId.
func (s *Service) RateInTx(ctx context.Context, tx *ent.Tx, userID, shopID int64, stars int) (after func(context.Context), err error) {
	if err := CheckStars("input.stars", stars); err != nil {
		return nil, err
	}
	_, after, err = s.rate(ctx, tx, userID, shopID, stars)
	if e, ok := apperr.As(err); ok && e.Code == apperr.NotFound {
		return nil, apperr.BadInput("input.shopId", "shop %d not found", shopID)
	}
	return after, err
}

// rate writes the rating and the shop's new numbers in tx. Every rating of
// a shop takes the shop's row lock first, so the ratings of a shop run one
// after the other, and each reads what the previous one committed: the
// lock is tx's first statement, and InnoDB takes a transaction's snapshot
// at its first plain read, which comes after. The reads are plain on
// purpose: a locking read of a missing row (a first rating) takes a gap
// lock, and two transactions inserting into the gap they both locked (the
// ratings of two shops) deadlock. SQLite runs write transactions one at a
// time.
func (s *Service) rate(ctx context.Context, tx *ent.Tx, userID, shopID int64, stars int) (*ent.Shop, func(context.Context), error) {
	sh, err := tx.Shop.Query().Where(entshop.ID(shopID), database.ForUpdate).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.New(apperr.NotFound, "no shop %d", shopID)
	}
	if err != nil {
		return nil, nil, err
	}
	agg, err := tx.ShopScore.Get(ctx, shopID)
	if ent.IsNotFound(err) {
		// The shop's first rating: its numbers so far become the base.
		agg, err = tx.ShopScore.Create().SetID(shopID).
			SetBaseSum(int64(sh.Score) * int64(sh.Comments)).SetBaseCount(sh.Comments).Save(ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	old, err := tx.ShopRating.Query().Where(entrating.ShopID(shopID), entrating.UserID(userID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		err = tx.ShopRating.Create().SetShopID(shopID).SetUserID(userID).SetStars(stars).Exec(ctx)
		agg.StarsSum += int64(stars)
		agg.Ratings++
	case err != nil:
	case old.Stars == stars:
		return sh, func(context.Context) {}, nil // nothing changes
	default:
		err = tx.ShopRating.UpdateOne(old).SetStars(stars).Exec(ctx)
		agg.StarsSum += int64(stars - old.Stars)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := tx.ShopScore.UpdateOneID(shopID).SetStarsSum(agg.StarsSum).SetRatings(agg.Ratings).Exec(ctx); err != nil {
		return nil, nil, err
	}
	score, count := Score(agg)
	sh, err = tx.Shop.UpdateOneID(shopID).SetScore(score).SetComments(count).Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	shopChanged, err := s.shops.Changed(ctx, tx, shopID)
	if err != nil {
		return nil, nil, err
	}
	after := func(ctx context.Context) {
		shopChanged(ctx)
		s.ShopChanged(ctx, shopID) // the stars its reviews show
		s.userRated(ctx, userID)   // the viewer's own stars (Shop.viewerRating)
	}
	return sh, after, nil
}

// Score is the shop's score (tenths of a star, rounded half up; 0 without
// any rating) and review count made of its hmdp_shop_score row.
func Score(agg *ent.ShopScore) (score, count int) {
	count = agg.BaseCount + agg.Ratings
	if count == 0 {
		return 0, 0
	}
	total := agg.BaseSum + 10*agg.StarsSum // tenths of a star
	return int((2*total + int64(count)) / (2 * int64(count))), count
}
