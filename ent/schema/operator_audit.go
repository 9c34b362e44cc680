package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// OperatorAudit records each action an operator takes: who, when, what,
// on which shop, voucher or order, and how it ended. An action on a
// dead-lettered flash-sale order (internal/seckill, deadletter.go) writes
// its row before it runs (outcome "requested") and updates it with its
// outcome, so an action cut short by a crash still left a trace. Every other
// action (internal/audit: shops, vouchers, redeeming) writes its row in the
// change's own transaction, outcome "done": the row exists if and only if
// the change committed.
type OperatorAudit struct{ ent.Schema }

// Annotations map OperatorAudit to hmdp_operator_audit.
func (OperatorAudit) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_operator_audit")}
}

// Fields are the columns of hmdp_operator_audit.
func (OperatorAudit) Fields() []ent.Field {
	return []ent.Field{
		// actor is who acted: "user:<id>" (an admin through GraphQL) or
		// "cli:<name>" (the hmdp deadletters subcommand).
		field.String("actor").MaxRuneLen(maxlen.AuditActor).Immutable(),
		field.Int("action").GoType(enum.OperatorAction(0)).SchemaType(mysqlType("tinyint(1) unsigned")).Immutable(),
		field.Int64("voucher_id").Immutable(),
		// shop_id is the shop acted on (a shop's or voucher's action; 0 otherwise).
		field.Int64("shop_id").Default(0).Immutable(),
		// dead_id is the dead letter's stream entry id ("" for other actions).
		field.String("dead_id").MaxRuneLen(maxlen.AuditDeadID).Immutable(),
		// order_id and user_id are the dead-lettered or redeemed order and its
		// buyer (0 for a malformed entry, and for actions on no order).
		field.Int64("order_id").Immutable(),
		field.Int64("user_id").Immutable(),
		// outcome is "requested" until the action ends, then what it did
		// (seckill.Outcome*, audit.OutcomeDone); new_order_id the order a
		// replay persisted; detail what changed, or why.
		field.String("outcome").MaxRuneLen(maxlen.AuditOutcome),
		field.Int64("new_order_id").Default(0),
		field.String("detail").MaxRuneLen(maxlen.AuditDetail).Default(""),
		field.Time("create_time").Default(time.Now).Immutable(),
		field.Time("update_time").Default(time.Now).UpdateDefault(time.Now),
	}
}

// Indexes find a sale's, an order's or a shop's actions.
func (OperatorAudit) Indexes() []ent.Index {
	return []ent.Index{index.Fields("voucher_id", "dead_id"), index.Fields("order_id"), index.Fields("shop_id")}
}
