package auth

import "context"

// Viewer is the logged-in user of a request, as kept in the session.
type Viewer struct {
	UserID int64  `json:"id"`
	Phone  string `json:"phone"`
	Nick   string `json:"nickName"`
	Icon   string `json:"icon"`
	// Admin is worked out from HMDP_ADMIN_PHONES on every request, never stored.
	Admin bool `json:"-"`
	// Token is the bearer token the request came with (needed by logout).
	Token string `json:"-"`
}

type viewerKey struct{}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v *Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerFrom returns the request's viewer, or nil when anonymous.
func ViewerFrom(ctx context.Context) *Viewer {
	v, _ := ctx.Value(viewerKey{}).(*Viewer)
	return v
}

type clientIPKey struct{}

// WithClientIP returns ctx carrying the client's IP address (rate limits, visitor counts).
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

// ClientIP returns the client's IP address, "" when unknown.
func ClientIP(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}
