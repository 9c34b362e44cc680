package graph

import (
	"github.com/hmdp/hmdp/graph/model"
	"github.com/hmdp/hmdp/internal/shop"
)

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
