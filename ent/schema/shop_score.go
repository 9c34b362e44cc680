package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// ShopScore is hmdp_shop_score (new): the parts tb_shop.score and
// tb_shop.comments are computed from, one row per rated shop, written only
// under the shop's row lock. base_sum and base_count are the shop's numbers
// before its first rating (the demo data's, taken as they are: base_sum is
// score × comments, in tenths of a star), stars_sum and ratings the sum and
// number of its hmdp_shop_rating rows. Then comments = base_count + ratings
// and score = (base_sum + 10 × stars_sum) / comments in tenths, rounded half up.
type ShopScore struct{ ent.Schema }

// Annotations map ShopScore to hmdp_shop_score.
func (ShopScore) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_shop_score")}
}

// Fields are the columns of hmdp_shop_score.
func (ShopScore) Fields() []ent.Field {
	return []ent.Field{
		// id is the shop's id (tb_shop.id), not an auto-increment.
		field.Int64("id").StorageKey("shop_id").Positive().Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int64("base_sum").NonNegative().Immutable(),
		field.Int("base_count").NonNegative().Immutable(),
		field.Int64("stars_sum").NonNegative().Default(0),
		field.Int("ratings").NonNegative().Default(0),
	}
}
