// Package graph is the GraphQL layer: schema, generated executor and thin resolvers
// that parse arguments, call a service from internal/ and return its result.
package graph

import (
	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/comment"
	"github.com/hmdp/hmdp/internal/dataloader"
	"github.com/hmdp/hmdp/internal/feed"
	"github.com/hmdp/hmdp/internal/follow"
	"github.com/hmdp/hmdp/internal/image"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/review"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/signin"
	"github.com/hmdp/hmdp/internal/stockwatch"
	"github.com/hmdp/hmdp/internal/user"
	"github.com/hmdp/hmdp/internal/voucher"
)

// Resolver holds the services the resolvers call.
type Resolver struct {
	Ent         *ent.Client
	AuthService *auth.Service
	UserService *user.Service
	ShopService *shop.Service
	// VoucherService and OrderService are the flash sale.
	VoucherService *voucher.Service
	OrderService   *order.Service
	// SeckillService is the flash sale's admission, for what the response
	// cache needs of it (a sale known sold out on this instance).
	SeckillService *seckill.Service
	// OrderEvents feeds the orderUpdates subscription.
	OrderEvents *order.Updates

	BlogService   *blog.Service
	LikeService   *like.Service
	FollowService *follow.Service
	FeedService   *feed.Service
	SignInService *signin.Service
	ImageStore    *image.Store
	Dataloaders   dataloader.Factory

	// CommentService is blog comments (with their own per-response loaders).
	CommentService *comment.Service
	// SaleWatch follows flash sales' live stock for saleUpdates.
	SaleWatch *stockwatch.Watcher
	// ReviewService is shop ratings and reviews.
	ReviewService *review.Service
}
