package edge

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
)

// bearerToken reads "Authorization: Bearer <token>" or, as the original app
// sent it, a bare "authorization: <token>".
func bearerToken(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		return strings.TrimSpace(v[7:])
	}
	return v
}

// WithViewer loads the session of the request's token (one Redis round trip).
// An unknown or expired token makes the request anonymous, as if none was sent.
// The client's address (see trustedProxies.clientAddress) goes with it.
func WithViewer(sessions *auth.Service, proxies []netip.Prefix, log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if addr := trustedProxies(proxies).clientAddress(r); addr != "" {
			ctx = auth.WithClientIP(ctx, addr)
		}
		if token := bearerToken(r.Header.Get("Authorization")); token != "" {
			v, err := sessions.Authenticate(ctx, token)
			if err != nil {
				log.ErrorContext(ctx, "load session", "err", err)
				writeRefusal(w, http.StatusServiceUnavailable, apperr.Unavailable, "", "session store unavailable")
				return
			}
			if v != nil {
				ctx = auth.WithViewer(ctx, v)
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// limitBody refuses bodies over max bytes: at once with 413 when the length is
// declared, else when reading passes the limit (the error presenter reports it).
func limitBody(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			writeRefusal(w, http.StatusRequestEntityTooLarge, apperr.BadUserInput, "", fmt.Sprintf("request body is larger than %d bytes", max))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}
