package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// BlogComment is tb_blog_comments. parent_id 0 marks a first-level comment;
// status: 0 normal, 1 reported, 2 hidden.
type BlogComment struct{ ent.Schema }

func (BlogComment) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_blog_comments")}
}

func (BlogComment) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (BlogComment) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("user_id"),
		field.Int64("blog_id"),
		field.Int64("parent_id").Default(0),
		field.Int64("answer_id").Default(0),
		field.String("content").MaxLen(255),
		field.Int("liked").Optional(),
		field.Int("status").Optional().SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}
