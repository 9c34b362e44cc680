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

// Annotations map Follow to the tb_follow table.
func (Follow) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_follow")}
}

// Fields are the columns of tb_follow.
func (Follow) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("user_id"),
		field.Int64("follow_user_id"),
		field.Time("create_time").Default(time.Now).Immutable().SchemaType(mysqlType("timestamp")),
	}
}

// Indexes make a follow unique per pair and find a user's followers.
func (Follow) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "follow_user_id").Unique().StorageKey("uk_user_follow"),
		// followers of a user
		index.Fields("follow_user_id").StorageKey("idx_follow_user"),
	}
}
