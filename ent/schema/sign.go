package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// Sign is tb_sign, the original sign-in table (sign-ins themselves live in a Redis bitmap).
type Sign struct{ ent.Schema }

func (Sign) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_sign")}
}

func (Sign) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("user_id"),
		field.Int("year").SchemaType(mysqlType("year")),
		field.Int("month").SchemaType(mysqlType("tinyint(2)")),
		field.Time("date").SchemaType(mysqlType("date")),
		field.Int("is_backup").Optional().SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}
