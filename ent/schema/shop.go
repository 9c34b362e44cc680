package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Shop is tb_shop. x is the longitude, y the latitude; score is 1..5 times 10.
type Shop struct{ ent.Schema }

func (Shop) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_shop")}
}

func (Shop) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (Shop) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.String("name").MaxLen(128).NotEmpty(),
		field.Int64("type_id"),
		// Comma-separated image URLs, as in the original table.
		field.String("images").MaxLen(1024).Default(""),
		field.String("area").MaxLen(128).Optional(),
		field.String("address").MaxLen(255),
		field.Float("x").Min(-180).Max(180),
		field.Float("y").Min(-90).Max(90),
		field.Int64("avg_price").Optional().NonNegative(),
		field.Int("sold").Default(0).NonNegative(),
		field.Int("comments").Default(0).NonNegative(),
		field.Int("score").Default(0).NonNegative().SchemaType(mysqlType("int(2) unsigned")),
		field.String("open_hours").MaxLen(32).Optional(),
	}
}

func (Shop) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("type", ShopType.Type).Ref("shops").Field("type_id").Unique().Required(),
		edge.To("vouchers", Voucher.Type),
	}
}

func (Shop) Indexes() []ent.Index {
	return []ent.Index{index.Fields("type_id").StorageKey("foreign_key_type")}
}
