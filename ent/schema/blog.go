package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// Blog is tb_blog: a shop visit note with up to nine comma-separated images.
type Blog struct{ ent.Schema }

// Annotations map Blog to the tb_blog table.
func (Blog) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_blog")}
}

// Mixin adds the create_time / update_time pair.
func (Blog) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_blog.
func (Blog) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("shop_id").Default(0),
		field.Int64("user_id"),
		field.String("title").MaxRuneLen(maxlen.BlogTitle).NotEmpty(),
		field.String("images").MaxRuneLen(maxlen.BlogImages).Default(""),
		field.String("content").MaxRuneLen(maxlen.BlogContent).NotEmpty(),
		field.Int("liked").Optional().Default(0),
		field.Int("comments").Optional().Default(0),
	}
}

// Indexes page a shop's blogs newest first and most liked first
// (blogsByShop) without sorting them all.
func (Blog) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id", "id").StorageKey("idx_blog_shop"),
		index.Fields("shop_id", "liked", "id").StorageKey("idx_blog_shop_liked"),
	}
}

// Edges link a blog to its author (user_id).
func (Blog) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("author", User.Type).Ref("blogs").Field("user_id").Unique().Required(),
	}
}
