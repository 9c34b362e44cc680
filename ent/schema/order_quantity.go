package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// OrderQuantity is how many units an order holds (tb_voucher_order has no
// column for it and the original tables are never altered). Its id is the
// order's id; BuyVoucher writes the row in the transaction that places the
// order. An order without a row holds one unit: every flash-sale order, and
// every order placed before quantities were stored.
type OrderQuantity struct{ ent.Schema }

// Annotations map OrderQuantity to hmdp_order_quantity (GraphQL shows it as
// VoucherOrder.quantity).
func (OrderQuantity) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_order_quantity")}
}

// Fields are the columns of hmdp_order_quantity.
func (OrderQuantity) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Immutable().Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int("quantity").Positive().Immutable(),
	}
}
