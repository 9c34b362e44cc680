package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// User is tb_user: a phone-number account.
type User struct{ ent.Schema }

func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_user")}
}

func (User) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (User) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.String("phone").MaxLen(11).NotEmpty(),
		// bcrypt hash; empty means "log in with a code only".
		field.String("password").MaxLen(128).Default("").Sensitive(),
		field.String("nick_name").MaxLen(32).Default(""),
		field.String("icon").MaxLen(255).Default(""),
	}
}

func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("blogs", Blog.Type),
	}
}

func (User) Indexes() []ent.Index {
	// Named as in hmdp.sql so migration on an existing database sees it as present.
	return []ent.Index{index.Fields("phone").Unique().StorageKey("uniqe_key_phone")}
}
