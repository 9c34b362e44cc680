package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// Voucher is tb_voucher. type: 0 normal, 1 flash sale; status: 1 on sale, 2 off sale, 3 expired.
// Money is in cents.
type Voucher struct{ ent.Schema }

// Annotations map Voucher to the tb_voucher table.
func (Voucher) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("tb_voucher")}
}

// Mixin adds the create_time / update_time pair.
func (Voucher) Mixin() []ent.Mixin { return []ent.Mixin{Timestamps{}} }

// Fields are the columns of tb_voucher.
func (Voucher) Fields() []ent.Field {
	return []ent.Field{
		id(),
		field.Int64("shop_id").Optional(),
		field.String("title").MaxRuneLen(maxlen.VoucherTitle).NotEmpty(),
		field.String("sub_title").MaxRuneLen(maxlen.VoucherSub).Optional(),
		field.String("rules").MaxRuneLen(maxlen.VoucherRules).Optional(),
		field.Int64("pay_value").NonNegative(),
		field.Int64("actual_value").NonNegative(),
		field.Int("type").Default(0).SchemaType(mysqlType("tinyint(1) unsigned")),
		field.Int("status").Default(1).SchemaType(mysqlType("tinyint(1) unsigned")),
	}
}

// Edges link a voucher to its shop.
func (Voucher) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("vouchers").Field("shop_id").Unique(),
	}
}
