package testenv

import (
	"context"
	"database/sql"
	"os"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// ReplicationDSNs are the primary and replica that scripts/mariadb-replication.sh
// starts (make test-replica, make test-binlog); the test skips without them.
func ReplicationDSNs(t testing.TB) (primary, replica string) {
	t.Helper()
	primary, replica = os.Getenv("HMDP_TEST_PRIMARY_DSN"), os.Getenv("HMDP_TEST_REPLICA_DSN")
	if primary == "" || replica == "" {
		t.Skip("HMDP_TEST_PRIMARY_DSN/HMDP_TEST_REPLICA_DSN not set (run under scripts/mariadb-replication.sh: make test-replica)")
	}
	return primary, replica
}

// NewReplicatedDatabase creates a fresh database on the primary of
// ReplicationDSNs, waits until the replica has it too, and returns DSNs of
// it on both; it is dropped when the test ends.
func NewReplicatedDatabase(t testing.TB) (primary, replica string) {
	t.Helper()
	p, r := ReplicationDSNs(t)
	admin, err := sql.Open("mysql", p)
	if err != nil {
		t.Fatal(err)
	}
	radmin, err := sql.Open("mysql", r)
	if err != nil {
		t.Fatal(err)
	}
	name := "hmdp_r_" + RandomHex(6)
	if _, err := admin.ExecContext(t.Context(), "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		// t.Context() has ended by the time cleanups run.
		_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name)
		_ = admin.Close()
		_ = radmin.Close()
	})
	Eventually(t, 10*time.Second, "the replica has the new database", func() bool {
		var n int
		err := radmin.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", name).Scan(&n)
		return err == nil && n == 1
	})
	return withDB(t, p, name), withDB(t, r, name)
}

func withDB(t testing.TB, dsn, name string) string {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = name
	return cfg.FormatDSN()
}

// WithAddr is dsn with its address replaced (to reach a server through a Proxy).
func WithAddr(t testing.TB, dsn, addr string) string {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr = addr
	return cfg.FormatDSN()
}
