package testenv

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// HmdpSQLPath is scripts/hmdp.sql of this repository: the original project's
// schema and demo data.
func HmdpSQLPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "scripts", "hmdp.sql")
}

// LoadHmdpSQL creates a fresh real database from hmdp.sql and returns its DSN
// (multi-statement, so the file runs as one Exec).
func LoadHmdpSQL(t testing.TB) string {
	t.Helper()
	dsn := NewMySQLDatabase(t)
	src, err := os.ReadFile(HmdpSQLPath())
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), string(src)); err != nil {
		t.Fatalf("load hmdp.sql: %v", err)
	}
	return dsn
}
