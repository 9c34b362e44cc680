package testenv

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/embedded"
)

// RealMySQLDSN is the real MySQL/MariaDB the tests may use ("" when none).
func RealMySQLDSN() string { return os.Getenv("HMDP_TEST_MYSQL_DSN") }

// NewSQLite opens a migrated embedded database in the test's temp dir.
func NewSQLite(t testing.TB, opts ...ent.Option) *database.DB {
	t.Helper()
	db, err := embedded.OpenSQLite(filepath.Join(t.TempDir(), "hmdp.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// NewMySQLDatabase creates a fresh database on the real server, dropped when the
// test ends, and returns a DSN for it. It skips the test when no server is configured.
func NewMySQLDatabase(t testing.TB) string {
	t.Helper()
	dsn := RealMySQLDSN()
	if dsn == "" {
		skipOutsideCI(t, "HMDP_TEST_MYSQL_DSN")
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("HMDP_TEST_MYSQL_DSN: %v", err)
	}
	cfg.DBName = ""
	admin, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	name := "hmdp_t_" + RandomHex(6)
	if _, err := admin.Exec("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name)
		_ = admin.Close()
	})
	cfg.DBName = name
	cfg.MultiStatements = true
	return cfg.FormatDSN()
}

// NewMySQL opens a migrated fresh database on the real server.
func NewMySQL(t testing.TB, opts ...ent.Option) *database.DB {
	t.Helper()
	db, err := database.OpenMySQL(NewMySQLDatabase(t), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// ForEachDB runs fn on the embedded SQLite and, when configured, real MySQL.
func ForEachDB(t *testing.T, fn func(t *testing.T, db *database.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, NewSQLite(t)) })
	if RealMySQLDSN() != "" {
		t.Run("mysql", func(t *testing.T) { fn(t, NewMySQL(t)) })
	}
}

// Backends is one combination of database and Redis.
type Backends struct {
	Name  string
	DB    *database.DB
	Redis RedisBackend
}

// ForEachBackend runs fn on embedded SQLite + embedded Redis and, when both real
// servers are configured, on real MySQL + real Redis.
func ForEachBackend(t *testing.T, fn func(t *testing.T, b Backends)) {
	t.Helper()
	t.Run("embedded", func(t *testing.T) {
		fn(t, Backends{Name: "embedded", DB: NewSQLite(t), Redis: NewEmbeddedRedis(t)})
	})
	if RealMySQLDSN() != "" && RealRedisAddr() != "" {
		t.Run("real", func(t *testing.T) {
			fn(t, Backends{Name: "real", DB: NewMySQL(t), Redis: NewRealRedis(t)})
		})
	}
}

// skipOutsideCI skips a test that needs a real back end named by variable;
// under CI (CI set) a missing back end fails instead, so no test skips there.
func skipOutsideCI(t testing.TB, variable string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s not set under CI", variable)
	}
	t.Skipf("%s not set", variable)
}
