package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// UserInfo is tb_user_info: the optional profile of a user, keyed by user_id.
type UserInfo struct{ ent.Schema }

func (UserInfo) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_user_info")}
}

func (UserInfo) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (UserInfo) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").StorageKey("user_id").Positive().Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		field.String("city").MaxLen(64).Optional().Default(""),
		field.String("introduce").MaxLen(128).Optional().Nillable(),
		field.Int("fans").Optional().Default(0),
		field.Int("followee").Optional().Default(0),
		field.Int("gender").Optional().Default(0).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Time("birthday").Optional().Nillable().SchemaType(mysqlType("date")),
		field.Int("credits").Optional().Default(0),
		field.Int("level").Optional().Default(0).SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}
