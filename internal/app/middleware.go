package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"

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

// withViewer loads the session of the request's token (one Redis round trip).
// An unknown or expired token makes the request anonymous, as if none was sent.
// The client's address (see trustedProxies.clientAddress) goes with it.
func withViewer(a *auth.Service, proxies trustedProxies, log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if addr := proxies.clientAddress(r); addr != "" {
			ctx = auth.WithClientIP(ctx, addr)
		}
		if token := bearerToken(r.Header.Get("Authorization")); token != "" {
			v, err := a.Authenticate(ctx, token)
			if err != nil {
				log.ErrorContext(ctx, "load session", "err", err)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"errors":[{"message":"session store unavailable","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}`))
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
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = fmt.Fprintf(w, `{"errors":[{"message":"request body is larger than %d bytes","extensions":{"code":"BAD_USER_INPUT"}}]}`, max)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}
