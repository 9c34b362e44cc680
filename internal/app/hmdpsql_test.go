package app

import (
	"database/sql"
	"reflect"
	"testing"

	"github.com/hmdp/hmdp/internal/testenv"
)

// The server runs on a database created from the original hmdp.sql: starting it
// (which migrates) changes no original column and loses no row, and the API
// serves the original data.
func TestServerOnHmdpSQLDatabase(t *testing.T) {
	t.Parallel()
	if testenv.RealMySQLDSN() == "" {
		t.Skip("HMDP_TEST_MYSQL_DSN not set: this test needs a real MariaDB/MySQL")
	}
	dsn := testenv.LoadHmdpSQL(t)
	raw, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	columns, rows := testenv.OriginalColumns(t, raw), testenv.RowCounts(t, raw)

	cfg := testConfig(t, "embedded")
	cfg.MySQLDSN = dsn
	cfg.Seed = false
	ts := startServerWith(t, "real-mysql", cfg)

	var out struct {
		Shop struct {
			Name string
			Type struct{ Name string }
		}
		ShopTypes []struct{ Name string }
	}
	ts.ok("", `{ shop(id: "1") { name type { name } } shopTypes { name } }`, nil, &out)
	if out.Shop.Name != "103茶餐厅" || out.Shop.Type.Name != "美食" || len(out.ShopTypes) != 10 {
		t.Fatalf("shop 1 = %+v, %d shop types", out.Shop, len(out.ShopTypes))
	}
	// An original user logs in with a code and is recognised, not registered again.
	token := ts.login("13686869696")
	var me struct{ Me struct{ ID, NickName string } }
	ts.ok(token, meQuery, nil, &me)
	if me.Me.ID != "1" || me.Me.NickName != "小鱼同学" {
		t.Fatalf("original user 1 logged in as %+v", me.Me)
	}

	after := testenv.OriginalColumns(t, raw)
	for k, v := range columns {
		if after[k] != v {
			t.Errorf("column %s changed:\n before %s\n after  %s", k, v, after[k])
		}
	}
	if len(after) != len(columns) {
		t.Errorf("%d tb_* columns before, %d after: columns were added to original tables", len(columns), len(after))
	}
	if got := testenv.RowCounts(t, raw); !reflect.DeepEqual(got, rows) {
		t.Errorf("rows before %v, after %v", rows, got)
	}
}
