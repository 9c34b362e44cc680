package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// ShopType is tb_shop_type: a category shown on the home page, ordered by sort.
type ShopType struct{ ent.Schema }

// Annotations map ShopType to the tb_shop_type table.
func (ShopType) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_shop_type")}
}

// Mixin adds the create_time / update_time pair.
func (ShopType) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_shop_type.
func (ShopType) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.String("name").MaxRuneLen(maxlen.ShopTypeName).Optional(),
		field.String("icon").MaxRuneLen(maxlen.ShopTypeIcon).Optional(),
		field.Int("sort").Optional().SchemaType(mysqlType("int(3) unsigned")),
	}
}

// Edges link a type to its shops.
func (ShopType) Edges() []ent.Edge {
	return []ent.Edge{edge.To("shops", Shop.Type)}
}
