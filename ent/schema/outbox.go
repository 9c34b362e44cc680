package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// Outbox holds Redis side effects of committed writes (cache deletes, Bloom
// and GEO updates). A row is written in the same transaction as the change,
// run right after commit and deleted once done; rows still here are retried,
// so a failed delete or a crash between commit and delete is repaired.
type Outbox struct{ ent.Schema }

// Annotations map Outbox to hmdp_outbox.
func (Outbox) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_outbox")}
}

// Fields are the columns of hmdp_outbox.
func (Outbox) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Positive().Immutable(),
		// kind names the handler ("shop.changed"); arg is its argument.
		field.String("kind").MaxRuneLen(maxlen.OutboxKind),
		field.String("arg").MaxRuneLen(maxlen.OutboxArg),
		field.Int("attempts").Default(0),
		field.Time("next_try").Default(time.Now),
		field.Time("create_time").Default(time.Now).Immutable(),
	}
}

// Indexes let the retry loop find due rows by next_try.
func (Outbox) Indexes() []ent.Index {
	return []ent.Index{index.Fields("next_try")}
}
