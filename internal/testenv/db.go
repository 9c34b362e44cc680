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
	path := filepath.Join(t.TempDir(), "hmdp.db")
	MigratedSQLiteFile(t, path)
	db, err := embedded.OpenSQLite(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// NewMySQLDatabase creates a fresh, empty database on the real server, dropped
// when the test ends, and returns a DSN for it. It skips the test when no
// server is configured.
func NewMySQLDatabase(t testing.TB) string {
	t.Helper()
	return newMySQLDatabase(t, false)
}

// NewMigratedMySQLDatabase is NewMySQLDatabase with the tables a migration
// makes already there (copied, see template.go).
func NewMigratedMySQLDatabase(t testing.TB) string {
	t.Helper()
	return newMySQLDatabase(t, true)
}

func newMySQLDatabase(t testing.TB, migrated bool) string {
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
	if _, err := admin.ExecContext(t.Context(), "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		// t.Context() has ended by the time cleanups run.
		_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name)
		_ = admin.Close()
	})
	if migrated {
		if err := createMigratedTables(t.Context(), admin, cfg, name); err != nil {
			t.Fatalf("migrated tables: %v", err)
		}
	}
	cfg.DBName = name
	cfg.MultiStatements = true
	return cfg.FormatDSN()
}

// NewMySQL opens a migrated fresh database on the real server.
func NewMySQL(t testing.TB, opts ...ent.Option) *database.DB {
	t.Helper()
	db, err := database.OpenMySQL(NewMigratedMySQLDatabase(t), 0, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// Backend kinds: the embedded SQLite + Redis of one process, or the real
// servers named by HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR.
const (
	Embedded = "embedded"
	Real     = "real"
)

// EmbeddedWanted is false when HMDP_TEST_BACKENDS=real asks for the real
// back ends only.
func EmbeddedWanted() bool { return os.Getenv("HMDP_TEST_BACKENDS") != Real }

// ForEachKind runs fn as a subtest named after each back-end kind the run
// has: the embedded one, and the real one when its servers are configured.
// HMDP_TEST_BACKENDS=real leaves the embedded half out (make test-cluster: on
// a Redis Cluster only the real half answers differently).
func ForEachKind(t *testing.T, fn func(t *testing.T, kind string)) {
	t.Helper()
	if EmbeddedWanted() {
		t.Run(Embedded, func(t *testing.T) { fn(t, Embedded) })
	}
	if RealMySQLDSN() != "" && RealRedisAddr() != "" {
		t.Run(Real, func(t *testing.T) { fn(t, Real) })
	}
}

// ForEachDB runs fn on the embedded SQLite and, when configured, real MySQL.
func ForEachDB(t *testing.T, fn func(t *testing.T, db *database.DB)) {
	t.Helper()
	if EmbeddedWanted() {
		t.Run("sqlite", func(t *testing.T) { fn(t, NewSQLite(t)) })
	}
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
// servers are configured, on real MySQL + real Redis (see ForEachKind).
func ForEachBackend(t *testing.T, fn func(t *testing.T, b Backends)) {
	t.Helper()
	ForEachKind(t, func(t *testing.T, kind string) {
		if kind == Real {
			fn(t, Backends{Name: kind, DB: NewMySQL(t), Redis: NewRealRedis(t)})
			return
		}
		fn(t, Backends{Name: kind, DB: NewSQLite(t), Redis: NewEmbeddedRedis(t)})
	})
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
