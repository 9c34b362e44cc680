package database

import (
	"context"
	"fmt"
	"time"

	"github.com/hmdp/hmdp/ent"
)

type seedShopType struct {
	ID   int64
	Name string
	Icon string
	Sort int
}

type seedShop struct {
	ID                    int64
	Name                  string
	TypeID                int64
	Images, Area, Address string
	X, Y                  float64
	AvgPrice              int64
	Sold, Comments, Score int
	OpenHours             string
}

// SeedFlashSaleStock is the stock of the demo flash-sale voucher.
const SeedFlashSaleStock = 100

// Seed loads the demo data into an empty database (no shop types and no users)
// in one transaction; it reports whether it did.
func (d *DB) Seed(ctx context.Context, now time.Time) (bool, error) {
	types, err := d.Client.ShopType.Query().Count(ctx)
	if err != nil {
		return false, err
	}
	users, err := d.Client.User.Query().Count(ctx)
	if err != nil {
		return false, err
	}
	if types > 0 || users > 0 {
		return false, nil
	}
	if err := WithTx(ctx, d.Client, func(tx *ent.Tx) error { return seed(ctx, tx, now) }); err != nil {
		return false, fmt.Errorf("seed: %w", err)
	}
	return true, nil
}

func seed(ctx context.Context, tx *ent.Tx, now time.Time) error {
	for _, t := range seedShopTypes {
		if err := tx.ShopType.Create().SetID(t.ID).SetName(t.Name).SetIcon(t.Icon).SetSort(t.Sort).Exec(ctx); err != nil {
			return err
		}
	}
	for _, s := range seedShops {
		err := tx.Shop.Create().SetID(s.ID).SetName(s.Name).SetTypeID(s.TypeID).SetImages(s.Images).
			SetArea(s.Area).SetAddress(s.Address).SetX(s.X).SetY(s.Y).SetAvgPrice(s.AvgPrice).
			SetSold(s.Sold).SetComments(s.Comments).SetScore(s.Score).SetOpenHours(s.OpenHours).Exec(ctx)
		if err != nil {
			return err
		}
	}
	// Users of the original demo data (same ids and phones).
	demoUsers := []struct {
		id          int64
		phone, nick string
		icon        string
	}{
		{1, "13686869696", "小鱼同学", "/imgs/blogs/blog1.jpg"},
		{2, "13838411438", "可可今天不吃肉", "/imgs/icons/kkjtbcr.jpg"},
		{5, "13456789001", "可爱多", "/imgs/icons/user5-icon.png"},
	}
	for _, u := range demoUsers {
		if err := tx.User.Create().SetID(u.id).SetPhone(u.phone).SetNickName(u.nick).SetIcon(u.icon).Exec(ctx); err != nil {
			return err
		}
	}
	// Their images are those of the same posts in scripts/hmdp.sql (blogs 5,
	// 6 and 4), which the server shows as its demo pictures (image.Shown).
	blogs := []struct {
		shop, user     int64
		title, content string
		images         string
	}{
		{1, 2, "人均30💰杭州这家港式茶餐厅我疯狂打call‼️", "环境是怀旧港风，几十种菜品均价都在20+，黯然销魂饭我吹爆！",
			"/imgs/blogs/4/7/863cc302-d150-420d-a596-b16e9232a1a6.jpg,/imgs/blogs/11/12/8b37d208-9414-4e78-b065-9199647bb3e3.jpg,/imgs/blogs/4/1/fa74a6d6-3026-4cb7-b0b6-35abb1e52d11.jpg,/imgs/blogs/9/12/ac2ce2fb-0605-4f14-82cc-c962b8c86688.jpg,/imgs/blogs/4/0/26a7cd7e-6320-432c-a0b4-1b7418f45ec7.jpg,/imgs/blogs/15/9/cea51d9b-ac15-49f6-b9f1-9cf81e9b9c85.jpg"},
		{10, 1, "杭州周末好去处｜💰50就可以骑马啦🐎", "杭州周末好去处，50就可以骑马啦。", "/imgs/blogs/blog1.jpg"},
		{4, 5, "无尽浪漫的夜晚丨在万花丛中摇晃着红酒杯🍷", "这是一家最美花园的西餐厅，到处都是花。",
			"/imgs/blogs/7/14/4771fefb-1a87-4252-816c-9f7ec41ffa4a.jpg,/imgs/blogs/4/10/2f07e3c9-ddce-482d-9ea7-c21450f8d7cd.jpg,/imgs/blogs/2/6/b0756279-65da-4f2d-b62a-33f74b06454a.jpg,/imgs/blogs/10/7/7e97f47d-eb49-4dc9-a583-95faa7aed287.jpg,/imgs/blogs/1/2/4a7b496b-2a08-4af7-aa95-df2c3bd0ef97.jpg,/imgs/blogs/14/3/52b290eb-8b5d-403b-8373-ba0bb856d18e.jpg"},
	}
	for i, b := range blogs {
		err := tx.Blog.Create().SetShopID(b.shop).SetUserID(b.user).SetTitle(b.title).SetContent(b.content).
			SetImages(b.images).SetCreateTime(now.Add(time.Duration(i-len(blogs)) * time.Hour)).Exec(ctx)
		if err != nil {
			return err
		}
	}
	err := tx.Voucher.Create().SetShopID(1).SetTitle("50元代金券").SetSubTitle("周一至周日均可使用").
		SetRules("全场通用\n无需预约\n可无限叠加\n不兑现、不找零\n仅限堂食").
		SetPayValue(4750).SetActualValue(5000).SetType(0).SetStatus(1).Exec(ctx)
	if err != nil {
		return err
	}
	flash, err := tx.Voucher.Create().SetShopID(1).SetTitle("100元代金券").SetSubTitle("限时秒杀").
		SetRules("全场通用\n无需预约\n仅限堂食").
		SetPayValue(8000).SetActualValue(10000).SetType(1).SetStatus(1).Save(ctx)
	if err != nil {
		return err
	}
	return tx.SeckillVoucher.Create().SetID(flash.ID).SetStock(SeedFlashSaleStock).
		SetBeginTime(now.Truncate(time.Second)).SetEndTime(now.Add(30 * 24 * time.Hour).Truncate(time.Second)).Exec(ctx)
}
