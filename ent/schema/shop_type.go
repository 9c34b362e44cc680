package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// ShopType is tb_shop_type: a category shown on the home page, ordered by sort.
type ShopType struct{ ent.Schema }

func (ShopType) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_shop_type")}
}

func (ShopType) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (ShopType) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.String("name").MaxLen(32).Optional(),
		field.String("icon").MaxLen(255).Optional(),
		field.Int("sort").Optional().SchemaType(mysqlType("int(3) unsigned")),
	}
}

func (ShopType) Edges() []ent.Edge {
	return []ent.Edge{edge.To("shops", Shop.Type)}
}
