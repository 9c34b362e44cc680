package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Sign is tb_sign, the original sign-in table: the truth of sign-ins (the
// Redis month bitmaps of internal/signin are rebuilt from it). is_backup 1 marks
// a make-up sign-in (补签).
type Sign struct{ ent.Schema }

// Annotations map Sign to the tb_sign table.
func (Sign) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_sign")}
}

// Fields are the columns of tb_sign.
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

// Indexes holds the unique key (an addition to the original table) that makes a second
// sign-in of a day a no-op, and serves a user's month.
func (Sign) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "year", "month", "date").Unique().StorageKey("uk_sign_user_date"),
	}
}
