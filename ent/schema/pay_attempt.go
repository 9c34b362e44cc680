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

// PayAttempt is one payment of an order asked of the payment provider
// (支付流水): its id is the trade number the provider knows it by
// (out_trade_no), and (order_id, attempt) is unique, so racing payOrder calls
// open one attempt, not two. Its status is enum.PaymentStatus; the provider's
// notifies move it (internal/order, payments.go). An attempt the provider
// charged is money in; refund_amount is money out. A new table: the original
// tables are never altered.
type PayAttempt struct{ ent.Schema }

// Annotations map PayAttempt to hmdp_pay_attempt.
func (PayAttempt) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_pay_attempt")}
}

// Fields are the columns of hmdp_pay_attempt.
func (PayAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Positive().Immutable(),
		field.Int64("order_id").Immutable(),
		// Attempt counts an order's attempts from 1.
		field.Int("attempt").Positive().Immutable(),
		field.Int64("user_id").Immutable(),
		// Amount is the order's price (the voucher's pay_value, in fen), never a client's figure.
		field.Int64("amount").NonNegative().Immutable(),
		field.Int("pay_type").GoType(enum.PayType(0)).Immutable().SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Int("status").GoType(enum.PaymentStatus(0)).Default(int(enum.PaymentPaying)).SchemaType(mysqlType("tinyint(1) unsigned")),
		// PayURL is where the buyer pays (the provider's answer to the create).
		field.String("pay_url").MaxLen(512).Default(""),
		// ProviderTxn is the provider's transaction id, from its pay notify.
		field.String("provider_txn").MaxLen(64).Default(""),
		// RefundAmount is what the provider paid back (its refund notify).
		field.Int64("refund_amount").NonNegative().Default(0),
		field.Time("create_time").Default(time.Now).Immutable(),
		field.Time("update_time").Default(time.Now).UpdateDefault(time.Now),
		field.Time("paid_time").Optional().Nillable(),
		field.Time("refund_time").Optional().Nillable(),
	}
}

// Indexes make (order, attempt) unique and find the refunds left unfinished.
func (PayAttempt) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("order_id", "attempt").Unique().StorageKey("uk_pay_attempt_order"),
		index.Fields("status", "update_time").StorageKey("idx_pay_attempt_status"),
	}
}
