package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/graph/model"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/responsecache"
	"github.com/hmdp/hmdp/internal/shop"
)

// pureShopFields are the Shop fields computed from the shop row alone:
// neither type (another cache), distance (the enclosing search), uvToday
// (live) nor vouchers (stock) are.
var pureShopFields = map[string]bool{
	"id": true, "name": true, "images": true, "area": true, "address": true, "x": true, "y": true,
	"avgPrice": true, "sold": true, "comments": true, "score": true, "openHours": true,
}

// CacheableRoots are the root fields whose answers the response cache may
// keep:
//   - shop(id), anonymous, valid while the shop cache returns the same value,
//     each answer from memory counted as a visit like Query.shop's; only
//     with shopsNearCached (without the near cache every read is a new
//     value: a kept answer could never match, and checking would cost a
//     Redis read);
//   - seckillVoucher, logged in, only its OUT_OF_STOCK while this instance
//     knows the sale sold out (the same mark throughout): then the resolver
//     answers every buyer that without asking Redis, whatever the token.
func (r *Resolver) CacheableRoots(shopsNearCached bool) map[string]responsecache.Root {
	roots := map[string]responsecache.Root{
		"seckillVoucher": {
			Mutation: true,
			LoggedIn: true,
			Current: func(_ context.Context, args map[string]any) (any, error) {
				id, err := model.UnmarshalID(args["voucherId"])
				if err != nil {
					return nil, err
				}
				return r.SeckillService.SoldOutMark(id), nil
			},
			Keep: func(resp *graphql.Response, mark any) bool {
				return mark != nil && len(resp.Errors) == 1 && resp.Errors[0].Extensions["code"] == string(apperr.OutOfStock)
			},
			Served: func(context.Context, map[string]any, any) { r.SeckillService.CountSoldOutAnswer() },
		},
	}
	if shopsNearCached {
		roots["shop"] = responsecache.Root{
			Fields: pureShopFields,
			Current: func(ctx context.Context, args map[string]any) (any, error) {
				id, err := model.UnmarshalID(args["id"])
				if err != nil {
					return nil, err
				}
				return r.ShopService.Get(ctx, id)
			},
			Served: func(ctx context.Context, _ map[string]any, value any) {
				if sh, _ := value.(*ent.Shop); sh != nil {
					r.ShopService.Visited(sh.ID, shop.Visitor{Address: auth.ClientIP(ctx)})
				}
			},
		}
	}
	return roots
}
