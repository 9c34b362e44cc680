package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/enum"
)

// Order is tb_voucher_order (GraphQL VoucherOrder, served by internal/order). The id comes from internal/idgen, not auto-increment.
// Its coded columns, pay_type and status, are the named values of package enum.
type Order struct{ ent.Schema }

// Annotations map Order to the tb_voucher_order table.
func (Order) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_voucher_order")}
}

// Mixin adds the create_time / update_time pair.
func (Order) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_voucher_order.
func (Order) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Immutable().Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int64("user_id"),
		field.Int64("voucher_id"),
		field.Int("pay_type").GoType(enum.PayType(0)).Default(int(enum.PayBalance)).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Int("status").GoType(enum.OrderStatus(0)).Default(int(enum.OrderUnpaid)).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Time("pay_time").Optional().Nillable().SchemaType(mysqlType("timestamp")),
		field.Time("use_time").Optional().Nillable().SchemaType(mysqlType("timestamp")),
		field.Time("refund_time").Optional().Nillable().SchemaType(mysqlType("timestamp")),
	}
}

// Indexes allow one order per user and voucher, and find a sale's orders.
func (Order) Indexes() []ent.Index {
	return []ent.Index{
		// One flash-sale order per user and voucher: MySQL decides finally, even when Redis lost the sale's buyers.
		index.Fields("user_id", "voucher_id").Unique().StorageKey("uk_user_voucher"),
		// Rebuilding a sale's Redis state reads its orders (under the rebuild
		// lock): without this index that is a scan of the whole table.
		index.Fields("voucher_id", "status").StorageKey("idx_voucher_status"),
	}
}
