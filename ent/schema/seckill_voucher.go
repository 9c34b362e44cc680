package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// SeckillVoucher is tb_seckill_voucher: the flash-sale part of a voucher, keyed by voucher_id.
type SeckillVoucher struct{ ent.Schema }

// Annotations map SeckillVoucher to the tb_seckill_voucher table.
func (SeckillVoucher) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_seckill_voucher")}
}

// Mixin adds the create_time / update_time pair.
func (SeckillVoucher) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_seckill_voucher.
func (SeckillVoucher) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").StorageKey("voucher_id").Positive().Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		field.Int("stock"),
		field.Time("begin_time").SchemaType(mysqlType("timestamp")),
		field.Time("end_time").SchemaType(mysqlType("timestamp")),
	}
}
