package app

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/image"
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

// maxUploadBody is the body limit of multipart (upload) requests: one image
// plus room for the operations and map parts.
const maxUploadBody = image.MaxBytes + 1<<20

// limitBodies limits JSON bodies to max and multipart bodies to maxMultipart.
// A multipart request must also carry a header a browser cannot send
// cross-site without a CORS preflight (CSRF protection, as gqlgen advises):
// a plain HTML form can post multipart/form-data but not custom headers.
func limitBodies(max, maxMultipart int64, next http.Handler) http.Handler {
	plain := limitBody(max, next)
	multipart := limitBody(maxMultipart, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "multipart/form-data" {
			plain.ServeHTTP(w, r)
			return
		}
		if r.Header.Get("GraphQL-Require-Preflight") == "" && r.Header.Get("Apollo-Require-Preflight") == "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errors":[{"message":"multipart requests need a GraphQL-Require-Preflight header","extensions":{"code":"BAD_USER_INPUT"}}]}`))
			return
		}
		multipart.ServeHTTP(w, r)
	})
}
