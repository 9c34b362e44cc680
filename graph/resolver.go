// Package graph is the GraphQL layer: schema, generated executor and thin resolvers
// that parse arguments, call a service from internal/ and return its result.
package graph

import (
	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/feed"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/image"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/loader"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/signin"
	"github.com/hmdp/hmdp/internal/user"
	"github.com/hmdp/hmdp/internal/voucher"
)

// Resolver holds the services the resolvers call.
type Resolver struct {
	Ent   *ent.Client
	Auth  *auth.Service
	Users *user.Service
	Shops *shop.Service
	// Vouchers and Orders are the flash sale (issue 5).
	Vouchers *voucher.Service
	Orders   *order.Service
	// OrderUpdates feeds the orderUpdates subscription.
	OrderUpdates *order.Updates

	Blogs   *blog.Service
	Likes   *like.Service
	Follows *follow.Service
	Feeds   *feed.Service
	SignIns *signin.Service
	Images  *image.Store
	Loaders loader.Sources
}
