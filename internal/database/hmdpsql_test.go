package database_test

import (
	"context"
	"database/sql"
	"reflect"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Migrating a database made from hmdp.sql must leave every original column as
// it was and keep every row, while adding the unique keys the app relies on.
func TestMigrateKeepsHmdpSQLSchema(t *testing.T) {
	dsn := testenv.LoadHmdpSQL(t)
	raw, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	before := testenv.OriginalColumns(t, raw)
	rowsBefore := testenv.RowCounts(t, raw)
	if len(before) < 11*4 {
		t.Fatalf("only %d columns read from hmdp.sql", len(before))
	}

	db, err := database.OpenMySQL(dsn, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil { // and again: nothing left to do
		t.Fatal(err)
	}
	after := testenv.OriginalColumns(t, raw)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("column %s changed:\n before %s\n after  %s", k, v, after[k])
		}
	}
	if !reflect.DeepEqual(rowsBefore, testenv.RowCounts(t, raw)) {
		t.Errorf("row counts changed: %v -> %v", rowsBefore, testenv.RowCounts(t, raw))
	}
	for _, idx := range []string{"tb_voucher_order.uk_user_voucher", "tb_follow.uk_user_follow"} {
		tbl, name, _ := strings.Cut(idx, ".")
		var n int
		if err := raw.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE()
			AND table_name = ? AND index_name = ? AND non_unique = 0`, tbl, name).Scan(&n); err != nil {
			t.Fatalf("index %s: %v", idx, err)
		}
		if n == 0 {
			t.Errorf("unique index %s missing", idx)
		}
	}
	// A sale's orders are found by voucher_id (rebuilding its Redis state).
	var first string
	if err := raw.QueryRowContext(t.Context(), `SELECT column_name FROM information_schema.statistics WHERE table_schema = DATABASE()
		AND table_name = 'tb_voucher_order' AND index_name = 'idx_voucher_status' AND seq_in_index = 1`).Scan(&first); err != nil || first != "voucher_id" {
		t.Errorf("index idx_voucher_status starting with voucher_id: %q %v", first, err)
	}
	// The app reads the original rows through ent.
	if s := db.Client.Shop.GetX(ctx, 1); s.Name != "103茶餐厅" || s.Sold != 4215 {
		t.Errorf("shop 1 = %+v", s)
	}
	if n := db.Client.Blog.Query().CountX(ctx); n != rowsBefore["tb_blog"] {
		t.Errorf("ent reads %d blogs, table has %d", n, rowsBefore["tb_blog"])
	}
}
