package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// BlogComment is tb_blog_comments. parent_id 0 marks a first-level comment;
// status: 0 normal, 1 reported, 2 hidden, 3 deleted by its author or the
// blog's author (added by internal/comment; its content is cleared).
type BlogComment struct{ ent.Schema }

// Annotations map BlogComment to the tb_blog_comments table.
func (BlogComment) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_blog_comments")}
}

// Mixin adds the create_time / update_time pair.
func (BlogComment) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_blog_comments.
func (BlogComment) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("user_id"),
		field.Int64("blog_id"),
		field.Int64("parent_id").Default(0),
		field.Int64("answer_id").Default(0),
		field.String("content").MaxRuneLen(maxlen.CommentContent),
		field.Int("liked").Optional(),
		field.Int("status").Optional().SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}

// Indexes are additions to the original table (hmdp.sql has none): a blog's
// top-level comments and a comment's replies are read in id order.
func (BlogComment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("blog_id", "parent_id").StorageKey("idx_comment_blog_parent"),
		index.Fields("parent_id").StorageKey("idx_comment_parent"),
	}
}
