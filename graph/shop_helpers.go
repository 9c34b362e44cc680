package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/graph/model"
	"github.com/hmdp/hmdp/internal/shop"
)

// enclosingShopEdge is the connection edge whose node sh is being resolved,
// if any: Shop.distance belongs to the search that found the shop, and that
// search's edge carries it, so the field resolver looks up its field path.
func enclosingShopEdge(ctx context.Context, sh *ent.Shop) *ent.ShopEdge {
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		var e *ent.ShopEdge
		switch r := fc.Result.(type) {
		case *ent.ShopEdge:
			e = r
		case **ent.ShopEdge: // list elements carry a pointer to the slot
			e = *r
		default:
			continue
		}
		if e != nil && e.Node == sh {
			return e
		}
		return nil // another edge: sh is nested deeper, not this search's node
	}
	return nil
}

func geoInput(in *model.GeoInput) *shop.Near {
	if in == nil {
		return nil
	}
	return &shop.Near{X: in.X, Y: in.Y, RadiusMeters: in.RadiusMeters}
}

func int64Ptr(p *int) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}

func createShopInput(in model.CreateShopInput) shop.CreateInput {
	return shop.CreateInput{Name: in.Name, TypeID: in.TypeID, Images: in.Images, Area: in.Area, Address: in.Address,
		X: in.X, Y: in.Y, AvgPrice: int64Ptr(in.AvgPrice), OpenHours: in.OpenHours}
}

func updateShopInput(in model.UpdateShopInput) shop.UpdateInput {
	return shop.UpdateInput{Name: in.Name, TypeID: in.TypeID, Images: in.Images, Area: in.Area, Address: in.Address,
		X: in.X, Y: in.Y, AvgPrice: int64Ptr(in.AvgPrice), OpenHours: in.OpenHours}
}
