package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// CommentText is hmdp_comment_text (new): the whole text of a comment longer
// than tb_blog_comments.content (varchar(255), an original column that is
// never altered) can hold. That column then keeps the first 255 characters,
// so readers of the original table see a prefix. Written and deleted in the
// comment's transactions.
type CommentText struct{ ent.Schema }

// Annotations name the table.
func (CommentText) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_comment_text")}
}

// Fields are the table's columns.
func (CommentText) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("comment_id"),
		field.Int64("blog_id"),
		field.String("content").MaxRuneLen(maxlen.CommentText),
	}
}

// Indexes are the table's keys.
func (CommentText) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("comment_id").Unique().StorageKey("uk_comment_text"),
		index.Fields("blog_id").StorageKey("idx_comment_text_blog"),
	}
}
