package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// ShopSearch is hmdp_shop_search: one row per shop, keyed by its id, holding
// what searchShops matches words against (the shop's name, area and address,
// lower-cased, and the pinyin of its name and area, in full and as
// initials). A table of its own because tb_shop's columns are never altered;
// the shop service writes a shop's row in the transaction that writes the
// shop, and fills rows for shops written by other means when it starts.
type ShopSearch struct{ ent.Schema }

// Annotations map ShopSearch to hmdp_shop_search.
func (ShopSearch) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_shop_search")}
}

// Fields are the columns of hmdp_shop_search.
func (ShopSearch) Fields() []ent.Field {
	return []ent.Field{
		// id is the shop's id (tb_shop.id), not an auto-increment.
		field.Int64("id").Positive().Immutable(),
		// terms are the searchable texts, one per line.
		field.Text("terms"),
	}
}
