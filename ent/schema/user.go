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

// User is tb_user: a phone-number account.
type User struct{ ent.Schema }

// Annotations map User to the tb_user table.
func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_user")}
}

// Mixin adds the create_time / update_time pair.
func (User) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_user.
func (User) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.String("phone").MaxRuneLen(maxlen.UserPhone).NotEmpty(),
		// bcrypt hash; empty means "log in with a code only".
		field.String("password").MaxRuneLen(maxlen.UserPassword).Default("").Sensitive(),
		field.String("nick_name").MaxRuneLen(maxlen.UserNickName).Default(""),
		field.String("icon").MaxRuneLen(maxlen.UserIcon).Default(""),
	}
}

// Edges link a user to the blogs they wrote.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("blogs", Blog.Type),
	}
}

// Indexes make the phone number unique.
func (User) Indexes() []ent.Index {
	// Named as in hmdp.sql so migration on an existing database sees it as present.
	return []ent.Index{index.Fields("phone").Unique().StorageKey("uniqe_key_phone")}
}
