package graph

import (
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/graph/model"
	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/review"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/internal/voucher"
)

// Assumed lengths of the lists that take no `first` (docs/API.md, request
// limits): they are not capped, so these are typical sizes, not bounds.
const (
	// VouchersPerShop is what Shop.vouchers and vouchers(shopId) cost as.
	VouchersPerShop = 10
	// ShopTypesCost is the length shopTypes costs as.
	ShopTypesCost = 20
	// CommonFollowsCost is the length commonFollows costs as.
	CommonFollowsCost = page.Max
	// OwnQueryCost is the extra cost of a field that runs statements or
	// Redis round trips of its own, which no dataloader shares with other
	// fields: a connection's page, order(id), signInStatus, commonFollows.
	// Aliasing such a field repeats its work, so aliases add up quickly.
	OwnQueryCost = 20
	// maxCost keeps a product of nested lists far from overflowing.
	maxCost = 1 << 40
)

// listCost is a list of n items, each costing child: 1 for the field plus
// n times what is selected under it.
func listCost(child, n int) int {
	if child > 0 && n > (maxCost-1)/child {
		return maxCost
	}
	return 1 + child*n
}

// pageCost is a connection of `first` items (def when absent) plus its own
// query. A first out of range costs as 1: the resolver refuses it before
// anything under it runs.
func pageCost(child int, first *int, def, most int) int {
	n := def
	if first != nil {
		n = *first
		if n < 0 || n > most {
			n = 1
		}
	}
	return OwnQueryCost + listCost(child, n)
}

// Complexity sets the cost of every list field: connections multiply the
// cost of their selection by `first`, other lists by a fixed length; fields
// whose work no dataloader batches cost OwnQueryCost more. Any other field
// costs gqlgen's default, 1 plus its selection.
func Complexity() ComplexityRoot {
	var c ComplexityRoot
	pages := func(child int, first *int) int { return pageCost(child, first, page.Default, page.Max) }
	shops := func(child int, first *int) int { return pageCost(child, first, shop.DefaultFirst, shop.MaxFirst) }

	c.Query.HotBlogs = func(child int, first *int, _ *string) int { return pages(child, first) }
	c.Query.BlogsByUser = func(child int, _ int64, first *int, _ *string) int { return pages(child, first) }
	c.Query.BlogsByShop = func(child int, _ int64, _ enum.BlogOrder, first *int, _ *string) int { return pages(child, first) }
	c.Query.ReviewsByShop = func(child int, _ int64, _ review.Order, first *int, _ *string) int { return pages(child, first) }
	c.Query.Feed = func(child int, first *int, _ *string) int { return pages(child, first) }
	c.Query.Followers = func(child int, _ int64, first *int, _ *string) int { return pages(child, first) }
	c.Query.Followees = func(child int, _ int64, first *int, _ *string) int { return pages(child, first) }
	c.Query.MyOrders = func(child int, first *int, _ *string, _ *int64) int { return pages(child, first) }
	// The operator console's lists (admins only, still bounded like any other).
	c.Query.OperatorAudit = func(child int, _ *int64, first *int, _ *string) int { return pages(child, first) }
	c.Query.ShopOrders = func(child int, _ int64, _ *enum.OrderStatus, first *int, _ *string) int { return pages(child, first) }
	c.Query.DeadLetters = func(child int, _ int64, first *int, _ *string) int {
		return pageCost(child, first, seckill.DefaultDeadLetterList, seckill.MaxDeadLetterList)
	}
	c.Query.OperatorVouchers = func(child int, _ int64) int { return OwnQueryCost + listCost(child, voucher.MaxPerShop) }
	c.Query.SaleNumbers = func(child int, _ int64) int { return OwnQueryCost + 1 + child }
	c.Blog.CommentList = func(child int, first *int, _ *string) int { return pages(child, first) }
	c.Comment.Replies = func(child int, first *int, _ *string) int { return pages(child, first) }
	c.Query.Shops = func(child int, _ int64, _ *model.GeoInput, first *int, _ *string, _ *enum.ShopSort, _ *shop.Filter) int {
		return shops(child, first)
	}
	c.Query.ShopAreas = func(child int, _ int64) int { return OwnQueryCost + listCost(child, shop.MaxAreas) }
	c.Query.SearchShops = func(child int, _ string, first *int, _ *string) int { return shops(child, first) }

	c.Query.Vouchers = func(child int, _ int64) int { return listCost(child, VouchersPerShop) }
	c.Shop.Vouchers = func(child int) int { return listCost(child, VouchersPerShop) }
	c.Query.ShopTypes = func(child int) int { return listCost(child, ShopTypesCost) }
	c.Query.CommonFollows = func(child int, _ int64) int { return OwnQueryCost + listCost(child, CommonFollowsCost) }
	c.Query.Order = func(child int, _ int64) int { return OwnQueryCost + 1 + child }
	c.Query.SignInStatus = func(child int, _ *string) int { return OwnQueryCost + 1 + child }
	c.Blog.TopLikers = func(child int) int { return listCost(child, like.TopN) }
	// Lists of scalars select nothing: they cost 1 like any scalar field.
	c.Blog.Images = func(child int) int { return listCost(child, blog.MaxImages) }
	c.Shop.Images = func(child int) int { return listCost(child, 1) }
	c.SignInStatus.Days = func(child int) int { return listCost(child, 31) }
	return c
}
