package testenv

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// HmdpSQLPath is ../shared/reference/hmdp.sql beside the repository.
func HmdpSQLPath(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "reference", "hmdp.sql")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("hmdp.sql not found at %s", p)
	}
	return p
}

// LoadHmdpSQL creates a fresh real database from hmdp.sql and returns its DSN
// (multi-statement, so the file runs as one Exec).
func LoadHmdpSQL(t testing.TB) string {
	t.Helper()
	dsn := NewMySQLDatabase(t)
	src, err := os.ReadFile(HmdpSQLPath(t))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(src)); err != nil {
		t.Fatalf("load hmdp.sql: %v", err)
	}
	return dsn
}
