package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/store"
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
	before := columns(t, raw)
	rowsBefore := rowCounts(t, raw)
	if len(before) < 11*4 {
		t.Fatalf("only %d columns read from hmdp.sql", len(before))
	}

	db, err := store.OpenMySQL(dsn)
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
	after := columns(t, raw)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("column %s changed:\n before %s\n after  %s", k, v, after[k])
		}
	}
	if !reflect.DeepEqual(rowsBefore, rowCounts(t, raw)) {
		t.Errorf("row counts changed: %v -> %v", rowsBefore, rowCounts(t, raw))
	}
	for _, idx := range []string{"tb_voucher_order.uk_user_voucher", "tb_follow.uk_user_follow"} {
		tbl, name, _ := strings.Cut(idx, ".")
		var n int
		raw.QueryRow(`SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE()
			AND table_name = ? AND index_name = ? AND non_unique = 0`, tbl, name).Scan(&n)
		if n == 0 {
			t.Errorf("unique index %s missing", idx)
		}
	}
	// The app reads the original rows through ent.
	if s := db.Client.Shop.GetX(ctx, 1); s.Name != "103茶餐厅" || s.Sold != 4215 {
		t.Errorf("shop 1 = %+v", s)
	}
	if n := db.Client.Blog.Query().CountX(ctx); n != rowsBefore["tb_blog"] {
		t.Errorf("ent reads %d blogs, table has %d", n, rowsBefore["tb_blog"])
	}
}

// columns describes every original column; column_key is left out because it
// reflects added indexes, which are allowed.
func columns(t *testing.T, db *sql.DB) map[string]string {
	rows, err := db.Query(`SELECT table_name, column_name, ordinal_position, column_default, is_nullable,
		column_type, extra, column_comment, collation_name
		FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name LIKE 'tb\_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var tbl, col string
		var pos int
		var def, nullable, typ, extra, comment, coll sql.NullString
		if err := rows.Scan(&tbl, &col, &pos, &def, &nullable, &typ, &extra, &comment, &coll); err != nil {
			t.Fatal(err)
		}
		out[tbl+"."+col] = fmt.Sprint(pos, def, nullable, typ, extra, comment, coll)
	}
	return out
}

func rowCounts(t *testing.T, db *sql.DB) map[string]int {
	out := map[string]int{}
	for _, tbl := range []string{"tb_blog", "tb_shop", "tb_shop_type", "tb_user", "tb_voucher"} {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}
