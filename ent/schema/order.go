package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Order is tb_voucher_order (named Order because entgql names the ordering type of Voucher "VoucherOrder"). The id comes from internal/idgen, not auto-increment.
// pay_type: 1 balance, 2 alipay, 3 wechat; status: 1 unpaid, 2 paid, 3 used, 4 cancelled,
// 5 refunding, 6 refunded.
type Order struct{ ent.Schema }

func (Order) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_voucher_order")}
}

func (Order) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

func (Order) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Immutable().Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int64("user_id"),
		field.Int64("voucher_id"),
		field.Int("pay_type").Default(1).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Int("status").Default(1).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Time("pay_time").Optional().Nillable().SchemaType(mysqlType("timestamp")),
		field.Time("use_time").Optional().Nillable().SchemaType(mysqlType("timestamp")),
		field.Time("refund_time").Optional().Nillable().SchemaType(mysqlType("timestamp")),
	}
}

func (Order) Indexes() []ent.Index {
	// One flash-sale order per user and voucher: MySQL decides finally (DESIGN.md principle 2).
	return []ent.Index{index.Fields("user_id", "voucher_id").Unique().StorageKey("uk_user_voucher")}
}
