package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// VoucherLimit is a normal voucher's per-user limit: how many units one
// buyer's order of it may hold (tb_voucher has no column for it and is never
// altered). Its id is the voucher's id; a voucher without a row has the
// default limit (internal/voucher.DefaultPerUserLimit). Admins set it with
// createVoucher / updateVoucher (GraphQL Voucher.perUserLimit).
type VoucherLimit struct{ ent.Schema }

// Annotations map VoucherLimit to hmdp_voucher_limit.
func (VoucherLimit) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_voucher_limit")}
}

// Mixin adds the create_time / update_time pair (update_time: last change).
func (VoucherLimit) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of hmdp_voucher_limit.
func (VoucherLimit) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").Immutable().Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int("per_user").Positive(),
	}
}
