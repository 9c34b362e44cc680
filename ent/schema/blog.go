package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// Blog is tb_blog: a shop visit note with up to nine comma-separated images.
type Blog struct{ ent.Schema }

func (Blog) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_blog")}
}

func (Blog) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (Blog) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("shop_id").Default(0),
		field.Int64("user_id"),
		field.String("title").MaxLen(255).NotEmpty(),
		field.String("images").MaxLen(2048).Default(""),
		field.String("content").MaxLen(2048).NotEmpty(),
		field.Int("liked").Optional().Default(0),
		field.Int("comments").Optional().Default(0),
	}
}

func (Blog) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("author", User.Type).Ref("blogs").Field("user_id").Unique().Required(),
	}
}
