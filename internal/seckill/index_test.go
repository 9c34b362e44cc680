package seckill

import (
	"context"
	"database/sql"
	"testing"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Rebuilding a sale's state (loadState) reads the sale's live orders under
// the rebuild lock; on a real MariaDB that read must use idx_voucher_status,
// not scan tb_voucher_order (which holds every sale's orders).
func TestRebuildReadUsesVoucherIndex(t *testing.T) {
	db := testenv.NewMySQL(t)
	ctx := context.Background()
	const sales, perSale = 40, 100
	for v := range sales {
		rows := make([]*ent.OrderCreate, perSale)
		for u := range perSale {
			rows[u] = db.Client.Order.Create().SetID(int64(v*perSale + u + 1)).SetUserID(int64(u + 1)).SetVoucherID(int64(v + 1))
		}
		if err := db.Client.Order.CreateBulk(rows...).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SQL.ExecContext(ctx, "ANALYZE TABLE tb_voucher_order"); err != nil {
		t.Fatal(err)
	}
	// The statement loadState's query builds (voucher, status not cancelled).
	r, err := db.SQL.QueryContext(ctx, "EXPLAIN SELECT id, user_id FROM tb_voucher_order WHERE voucher_id = ? AND status <> ?", 7, int(enum.OrderCancelled))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cols, _ := r.Columns()
	if !r.Next() {
		t.Fatal("EXPLAIN returned nothing")
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := r.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	plan := map[string]string{}
	for i, c := range cols {
		plan[c] = vals[i].String
	}
	if plan["key"] != "idx_voucher_status" || plan["type"] == "ALL" {
		t.Fatalf("the rebuild's read of one sale's orders does not use idx_voucher_status: %v", plan)
	}
}
