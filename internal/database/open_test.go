package database_test

import (
	"context"
	"testing"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// A query with arguments costs MariaDB no prepared statement (the driver
// writes the arguments in: one round trip, not prepare, execute and close),
// and still reads what a prepared one would: quotes, backslashes, NUL, a
// multi-byte string, bytes, NULL.
func TestQueriesAreNotPreparedOnTheServer(t *testing.T) {
	if testenv.RealMySQLDSN() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN")
	}
	db, err := database.OpenMySQL(testenv.NewMySQLDatabase(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.SQL.Close() })
	ctx := context.Background()
	conn, err := db.SQL.Conn(ctx) // SHOW SESSION STATUS counts this connection's statements
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	prepared := func() int {
		t.Helper()
		var name string
		var n int
		if err := conn.QueryRowContext(ctx, "SHOW SESSION STATUS LIKE 'Com_stmt_prepare'").Scan(&name, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := prepared()
	in := "它's \\ \"quoted\" \x00 end"
	var s string
	var b []byte
	var null *string
	if err := conn.QueryRowContext(ctx, "SELECT ?, ?, ?", in, []byte{0, '\'', 0xff}, nil).Scan(&s, &b, &null); err != nil {
		t.Fatal(err)
	}
	if s != in || string(b) != "\x00'\xff" || null != nil {
		t.Fatalf("read back %q %q %v", s, b, null)
	}
	if n := prepared() - before; n != 0 {
		t.Fatalf("%d statements prepared on the server for one query with arguments, want 0", n)
	}
}
