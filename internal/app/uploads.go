package app

import (
	"context"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// uploadLimit is each user's allowance of uploadImage calls: a burst of 30,
// then one every 2 minutes (at most 150 MB an hour of 5 MB images).
var uploadLimit = ratelimit.Limit{Events: 30, Per: time.Hour}

// admitUpload refuses an upload past the user's allowance with RATE_LIMITED
// (uploadImage is @login, so there is always a viewer; an upload without one
// is refused all the same).
func admitUpload(limiter *ratelimit.Limiter) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		v := auth.ViewerFrom(ctx)
		if v == nil {
			return apperr.New(apperr.Unauthenticated, "log in first")
		}
		res, err := limiter.Allow(ctx, "upload:user:"+strconv.FormatInt(v.UserID, 10), uploadLimit)
		if err != nil {
			return err
		}
		if !res.Allowed {
			return apperr.RateLimit("uploads", res.RetryAfter.Milliseconds())
		}
		return nil
	}
}
