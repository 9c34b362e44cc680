package edge

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// OriginPolicy is the allow-list of browser origins for websockets and CORS
// (HMDP_ALLOWED_ORIGINS). With an empty list only the server's own origin is
// allowed; "*" allows any.
type OriginPolicy struct{ Allowed []string }

// Allows reports whether a request may come from its Origin. Requests without
// an Origin header do not come from a browser page and are allowed.
func (p OriginPolicy) Allows(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return slices.Contains(p.Allowed, "*") || slices.Contains(p.Allowed, u.Scheme+"://"+u.Host)
}

// CORS answers preflights and marks responses for allowed cross-origin callers.
// Disallowed origins get no CORS headers, so browsers refuse to read the response.
func (p OriginPolicy) CORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && p.Allows(r) {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			if r.Method == http.MethodOptions {
				h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Apollo-Require-Preflight, GraphQL-Require-Preflight")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Websockets refuses upgrades from disallowed origins with 403 before gqlgen
// sees them (the upgrader checks again, but would answer 400 and log noise).
func (p OriginPolicy) Websockets(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" && !p.Allows(r) {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
