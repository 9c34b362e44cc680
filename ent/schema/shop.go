package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// Shop is tb_shop. x is the longitude, y the latitude; score is 1..5 times 10.
type Shop struct{ ent.Schema }

// Annotations map Shop to the tb_shop table.
func (Shop) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_shop")}
}

// Mixin adds the create_time / update_time pair.
func (Shop) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_shop.
func (Shop) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.String("name").MaxRuneLen(maxlen.ShopName).NotEmpty(),
		field.Int64("type_id"),
		// Comma-separated image URLs, as in the original table.
		field.String("images").MaxRuneLen(maxlen.ShopImages).Default(""),
		field.String("area").MaxRuneLen(maxlen.ShopArea).Optional(),
		field.String("address").MaxRuneLen(maxlen.ShopAddress),
		field.Float("x").Min(-180).Max(180),
		field.Float("y").Min(-90).Max(90),
		field.Int64("avg_price").Optional().NonNegative(),
		field.Int("sold").Default(0).NonNegative(),
		field.Int("comments").Default(0).NonNegative(),
		field.Int("score").Default(0).NonNegative().SchemaType(mysqlType("int(2) unsigned")),
		field.String("open_hours").MaxRuneLen(maxlen.ShopOpenHours).Optional(),
	}
}

// Edges link a shop to its type and its vouchers.
func (Shop) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("type", ShopType.Type).Ref("shops").Field("type_id").Unique().Required(),
		edge.To("vouchers", Voucher.Type),
	}
}

// Indexes list the shops of a type: in id order (foreign_key_type, from
// hmdp.sql), and in each order shops(sort:) offers, within the type or
// within one area of it, each ending with the id that breaks ties, so every
// page of every order is one index range read without a sort.
func (Shop) Indexes() []ent.Index {
	idx := []ent.Index{
		index.Fields("type_id").StorageKey("foreign_key_type"),
		index.Fields("type_id", "area").StorageKey("idx_shop_type_area"),
	}
	for _, col := range []string{"score", "sold", "comments", "avg_price"} {
		idx = append(idx,
			index.Fields("type_id", col, "id").StorageKey("idx_shop_type_"+col),
			index.Fields("type_id", "area", col, "id").StorageKey("idx_shop_type_area_"+col))
	}
	return idx
}
