package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Follow is tb_follow: user_id follows follow_user_id.
type Follow struct{ ent.Schema }

func (Follow) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_follow")}
}

func (Follow) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("user_id"),
		field.Int64("follow_user_id"),
		field.Time("create_time").Default(time.Now).Immutable().SchemaType(mysqlType("timestamp")),
	}
}

func (Follow) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "follow_user_id").Unique().StorageKey("uk_user_follow"),
		// followers of a user
		index.Fields("follow_user_id").StorageKey("idx_follow_user"),
	}
}
