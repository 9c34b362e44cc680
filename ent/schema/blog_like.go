package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// BlogLike is blog_like (new; not tb_ so it is never taken for a table of hmdp.sql): one row per user who likes a blog. It is
// the truth behind tb_blog.liked and the Redis like ZSETs; the unique key
// makes liking idempotent under concurrency.
type BlogLike struct{ ent.Schema }

// Annotations map BlogLike to the blog_like table.
func (BlogLike) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("blog_like")}
}

// Fields are the columns of blog_like.
func (BlogLike) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("blog_id"),
		field.Int64("user_id"),
		// Millisecond precision: it is the ZSET score when the set is rebuilt.
		field.Time("create_time").Default(time.Now).Immutable().SchemaType(mysqlType("datetime(3)")),
	}
}

// Indexes make a like unique per (blog, user) and list a user's likes.
func (BlogLike) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("blog_id", "user_id").Unique().StorageKey("uk_blog_user"),
		index.Fields("user_id").StorageKey("idx_like_user"),
	}
}
