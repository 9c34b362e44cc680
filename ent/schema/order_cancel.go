package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/hmdp/hmdp/ent/schema/enum"
)

// OrderCancel records why an order was cancelled (tb_voucher_order has no
// column for it and the original tables are never altered). Its id is the
// order's id; the row is written in the transaction that cancels the order.
type OrderCancel struct{ ent.Schema }

// Annotations map OrderCancel to hmdp_order_cancel (GraphQL shows it as
// VoucherOrder.cancelReason).
func (OrderCancel) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_order_cancel")}
}

// Fields are the columns of hmdp_order_cancel.
func (OrderCancel) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Immutable().Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int("reason").GoType(enum.CancelReason(0)).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Time("create_time").Default(time.Now).Immutable(),
	}
}
