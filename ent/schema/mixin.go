// Package schema defines the ent schemas of the hmdp tables (hmdp.sql plus a
// few new ones); entc generates package ent from them.
package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
)

// Timestamps are the create_time / update_time pair every hmdp.sql table has.
type Timestamps struct{ mixin.Schema }

// Fields are create_time (set once) and update_time (set on every update).
func (Timestamps) Fields() []ent.Field {
	return []ent.Field{
		field.Time("create_time").Default(time.Now).Immutable().
			SchemaType(map[string]string{dialect.MySQL: "timestamp"}),
		field.Time("update_time").Default(time.Now).UpdateDefault(time.Now).
			SchemaType(map[string]string{dialect.MySQL: "timestamp"}),
	}
}

// id is the auto-increment primary key of the original tables.
func id() ent.Field {
	return field.Int64("id").Positive().Immutable()
}

func mysqlType(t string) map[string]string { return map[string]string{dialect.MySQL: t} }
