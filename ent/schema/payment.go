package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/enum"
)

// Payment is the payment record (支付流水) of an order: what this server
// recorded as taken for it. It is written in the transaction that moves the
// order UNPAID -> PAID (one per order: the unique key on order_id), and a
// refund goes only against it, for at most its amount, marking it REFUNDED in
// the transaction that moves the order REFUNDING -> REFUNDED. A new table:
// tb_voucher_order is never altered.
type Payment struct{ ent.Schema }

// Annotations map Payment to hmdp_payment.
func (Payment) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_payment")}
}

// Fields are the columns of hmdp_payment.
func (Payment) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Positive().Immutable(),
		field.Int64("order_id").Immutable(),
		field.Int64("user_id").Immutable(),
		// Amount is the order's price when it was paid (the voucher's
		// pay_value, in fen), never a client's figure.
		field.Int64("amount").NonNegative().Immutable(),
		field.Int("pay_type").GoType(enum.PayType(0)).Immutable().SchemaType(mysqlType("tinyint(1) unsigned")),
		// Status moves PAID -> REFUNDED once (a conditional update).
		field.Enum("status").Values("PAID", "REFUNDED").Default("PAID"),
		// RefundAmount is what was paid back: 0 until REFUNDED, then at most Amount.
		field.Int64("refund_amount").NonNegative().Default(0),
		field.Time("create_time").Default(time.Now).Immutable(),
		field.Time("refund_time").Optional().Nillable(),
		// AttemptID is the hmdp_pay_attempt (the provider's trade) that took
		// the money; 0 on rows written before payments went through a
		// provider, which nothing is refunded against.
		field.Int64("attempt_id").Default(0),
	}
}

// Indexes make an order's payment unique: a second payment of one order
// cannot be recorded, whatever races.
func (Payment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("order_id").Unique().StorageKey("uk_payment_order"),
	}
}
