package app

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// originPolicy is the allow-list of browser origins for websockets and CORS.
// With an empty list only the server's own origin is allowed; "*" allows any.
type originPolicy struct{ allowed []string }

// allows reports whether a request may come from its Origin. Requests without
// an Origin header do not come from a browser page and are allowed.
func (p originPolicy) allows(r *http.Request) bool {
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
	return slices.Contains(p.allowed, "*") || slices.Contains(p.allowed, u.Scheme+"://"+u.Host)
}

// cors answers preflights and marks responses for allowed cross-origin callers.
// Disallowed origins get no CORS headers, so browsers refuse to read the response.
func (p originPolicy) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && p.allows(r) {
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

// websockets refuses upgrades from disallowed origins with 403 before gqlgen
// sees them (the upgrader checks again, but would answer 400 and log noise).
func (p originPolicy) websockets(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" && !p.allows(r) {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
