package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ShopRating is hmdp_shop_rating (new): one user's stars for a shop, 1 to 5.
// A user has at most one rating per shop (the unique key) and may change it;
// it is the truth behind tb_shop.score and tb_shop.comments, which the review
// service keeps in step in the rating's transaction (with ShopScore).
type ShopRating struct{ ent.Schema }

// Annotations map ShopRating to hmdp_shop_rating.
func (ShopRating) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_shop_rating")}
}

// Mixin adds the create_time / update_time pair (update_time: last change).
func (ShopRating) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of hmdp_shop_rating.
func (ShopRating) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("shop_id"),
		field.Int64("user_id"),
		field.Int("stars").Range(1, 5).SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}

// Indexes make a rating unique per (shop, user), which is also how a shop's
// reviews find their author's stars; and list a user's ratings.
func (ShopRating) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id", "user_id").Unique().StorageKey("uk_rating_shop_user"),
		index.Fields("user_id").StorageKey("idx_rating_user"),
	}
}
