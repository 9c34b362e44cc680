package testenv

import (
	"database/sql"
	"fmt"
	"testing"
)

// OriginalColumns describes every column of the tb_* tables in the current
// database: position, default, nullability, type, extra, comment, collation.
// column_key is left out because it reflects added indexes, which are allowed.
func OriginalColumns(t testing.TB, db *sql.DB) map[string]string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT table_name, column_name, ordinal_position, column_default, is_nullable,
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
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// RowCounts counts the rows of the hmdp.sql tables that have demo data.
func RowCounts(t testing.TB, db *sql.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tbl := range []string{"tb_blog", "tb_shop", "tb_shop_type", "tb_user", "tb_voucher"} {
		var n int
		if err := db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM "+tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}
