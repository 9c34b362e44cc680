// Package store opens the database (real MySQL/MariaDB or an embedded SQLite
// file), migrates it without touching the original hmdp.sql tables, and loads
// demo data.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/go-sql-driver/mysql"
	_ "modernc.org/sqlite" // embedded database driver, pure Go

	"github.com/hmdp/hmdp/ent"
)

// DB is an open database.
type DB struct {
	Client  *ent.Client
	SQL     *sql.DB
	Dialect string // dialect.MySQL or dialect.SQLite
	// Describe is a one-line, password-free description for the start-up log.
	Describe string
}

// Close closes the client and the connection pool.
func (d *DB) Close() error { return d.Client.Close() }

// OpenMySQL opens a go-sql-driver DSN. parseTime is forced on and times are
// exchanged in UTC, whatever the DSN says, so TIMESTAMP columns round-trip.
func OpenMySQL(dsn string, opts ...ent.Option) (*DB, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse DSN: %w", err)
	}
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	cfg.Params["time_zone"] = "'+00:00'"
	if _, ok := cfg.Params["charset"]; !ok {
		cfg.Params["charset"] = "utf8mb4"
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(50)
	db.SetMaxIdleConns(25)
	db.SetConnMaxLifetime(30 * time.Minute)
	drv := entsql.OpenDB(dialect.MySQL, db)
	return &DB{
		Client:   ent.NewClient(append([]ent.Option{ent.Driver(drv)}, opts...)...),
		SQL:      db,
		Dialect:  dialect.MySQL,
		Describe: fmt.Sprintf("mysql %s@%s/%s", cfg.User, cfg.Addr, cfg.DBName),
	}, nil
}

// OpenSQLite opens (creating) the embedded database file at path.
func OpenSQLite(path string, opts ...ent.Option) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	// WAL lets readers run beside the writer; immediate transactions take the
	// write lock up front so concurrent writers wait (busy_timeout) instead of failing.
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate&_time_format=sqlite"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	drv := entsql.OpenDB(dialect.SQLite, db)
	return &DB{
		Client:   ent.NewClient(append([]ent.Option{ent.Driver(drv)}, opts...)...),
		SQL:      db,
		Dialect:  dialect.SQLite,
		Describe: "embedded sqlite " + path,
	}, nil
}

// Ping checks the database answers (readiness).
func (d *DB) Ping(ctx context.Context) error { return d.SQL.PingContext(ctx) }
