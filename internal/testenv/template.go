package testenv

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/embedded"
)

// Migrating a database takes ent a few hundred milliseconds on MariaDB (it
// inspects information_schema) and holds a process-wide lock (see
// database.Migrate), while hundreds of tests each want a fresh database. So
// each test process migrates once and copies the result: on MySQL the
// CREATE TABLE statements of a migrated scratch database, on SQLite the
// migrated file. A server started on the copy finds nothing to migrate.

var mysqlSchema struct {
	once sync.Once
	ddl  []string
	err  error
}

// migratedDDL migrates a scratch database on the server of admin once per
// process and returns its tables' CREATE TABLE statements.
func migratedDDL(ctx context.Context, admin *sql.DB, cfg *mysql.Config) ([]string, error) {
	mysqlSchema.once.Do(func() {
		mysqlSchema.ddl, mysqlSchema.err = captureDDL(ctx, admin, cfg)
	})
	return mysqlSchema.ddl, mysqlSchema.err
}

func captureDDL(ctx context.Context, admin *sql.DB, cfg *mysql.Config) (ddl []string, err error) {
	name := "hmdp_tpl_" + RandomHex(6)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"); err != nil {
		return nil, fmt.Errorf("create template database: %w", err)
	}
	// Dropped even when ctx has ended.
	defer func() { _, _ = admin.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name) }()
	c := cfg.Clone()
	c.DBName = name
	db, err := database.OpenMySQL(c.FormatDSN(), 0)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return nil, err
	}
	rows, err := admin.QueryContext(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name", name)
	if err != nil {
		return nil, err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return nil, err
		}
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, t := range tables {
		var tbl, create string
		if err := admin.QueryRowContext(ctx, "SHOW CREATE TABLE "+name+".`"+t+"`").Scan(&tbl, &create); err != nil {
			return nil, err
		}
		ddl = append(ddl, create)
	}
	if len(ddl) == 0 {
		return nil, fmt.Errorf("migration of %s made no tables", name)
	}
	return ddl, nil
}

// createMigratedTables makes the migrated schema in the empty database name.
func createMigratedTables(ctx context.Context, admin *sql.DB, cfg *mysql.Config, name string) error {
	ddl, err := migratedDDL(ctx, admin, cfg)
	if err != nil {
		return err
	}
	c := cfg.Clone()
	c.DBName = name
	c.MultiStatements = true
	db, err := sql.Open("mysql", c.FormatDSN())
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, strings.Join(ddl, ";\n"))
	return err
}

var sqliteSchema struct {
	once sync.Once
	file []byte
	err  error
}

// MigratedSQLiteFile writes a migrated, empty embedded database to path (the
// file a server opens under its data directory), a copy of one migrated once
// per process.
func MigratedSQLiteFile(t testing.TB, path string) {
	t.Helper()
	sqliteSchema.once.Do(func() { sqliteSchema.file, sqliteSchema.err = migratedSQLite() })
	if sqliteSchema.err != nil {
		t.Fatalf("migrated SQLite template: %v", sqliteSchema.err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, sqliteSchema.file, 0o600); err != nil {
		t.Fatal(err)
	}
}

func migratedSQLite() ([]byte, error) {
	dir, err := os.MkdirTemp("", "hmdp-sqlite-template")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hmdp.db")
	db, err := embedded.OpenSQLite(path)
	if err != nil {
		return nil, err
	}
	err = db.Migrate(context.Background())
	// Closing the last connection checkpoints the WAL into the file.
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path) //nolint:gosec // the file this function just wrote
}
