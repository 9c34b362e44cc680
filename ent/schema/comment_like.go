package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// CommentLike is hmdp_comment_like (new): one row per user who likes a blog
// comment. It is the truth behind tb_blog_comments.liked, kept in step in the
// same transaction; the unique key makes liking idempotent. blog_id lets a
// deleted blog's comment likes go in one statement.
type CommentLike struct{ ent.Schema }

// Annotations name the table.
func (CommentLike) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_comment_like")}
}

// Fields are the table's columns.
func (CommentLike) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("comment_id"),
		field.Int64("user_id"),
		field.Int64("blog_id"),
		field.Time("create_time").Default(time.Now).Immutable().SchemaType(mysqlType("datetime(3)")),
	}
}

// Indexes are the table's keys.
func (CommentLike) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("comment_id", "user_id").Unique().StorageKey("uk_comment_user"),
		index.Fields("blog_id").StorageKey("idx_comment_like_blog"),
	}
}
