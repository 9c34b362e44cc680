package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// UserInfo is tb_user_info: the optional profile of a user, keyed by user_id.
type UserInfo struct{ ent.Schema }

// Annotations map UserInfo to the tb_user_info table.
func (UserInfo) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_user_info")}
}

// Mixin adds the create_time / update_time pair.
func (UserInfo) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_user_info.
func (UserInfo) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").StorageKey("user_id").Positive().Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		field.String("city").MaxRuneLen(maxlen.UserCity).Optional().Default(""),
		field.String("introduce").MaxRuneLen(maxlen.UserIntroduce).Optional().Nillable(),
		field.Int("fans").Optional().Default(0),
		field.Int("followee").Optional().Default(0),
		field.Int("gender").Optional().Default(0).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Time("birthday").Optional().Nillable().SchemaType(mysqlType("date")),
		field.Int("credits").Optional().Default(0),
		field.Int("level").Optional().Default(0).SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}
