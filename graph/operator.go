package graph

import (
	"context"

	"github.com/hmdp/hmdp/internal/auth"
)

// viewerIsAdmin is Query.viewerIsAdmin: the web app shows the operator
// console for it; the operator fields check again on the server.
func viewerIsAdmin(ctx context.Context) bool {
	v := auth.ViewerFrom(ctx)
	return v != nil && v.Admin
}
