// Package database opens the database (MySQL/MariaDB; internal/embedded opens
// the SQLite file of `make run`), migrates it without touching the original hmdp.sql tables, and loads
// demo data.
package database

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/ent"
)

// DB is an open database.
type DB struct {
	Client  *ent.Client
	SQL     *sql.DB
	Dialect string // dialect.MySQL or dialect.SQLite
	// Describe is a one-line, password-free description for the start-up log.
	Describe string
	// router routes reads to replicas (nil without replicas).
	router *router
}

// Close closes the client and the connection pool.
func (d *DB) Close() error { return d.Client.Close() }

// DefaultMaxConns is the connection pool's size when none is given
// (HMDP_MYSQL_MAX_CONNS's default).
const DefaultMaxConns = 50

// OpenMySQL opens a go-sql-driver DSN with a pool of at most maxConns
// connections (0 = DefaultMaxConns), half of them kept idle. parseTime is
// forced on and times are exchanged in UTC, whatever the DSN says, so
// TIMESTAMP columns round-trip.
func OpenMySQL(dsn string, maxConns int, opts ...ent.Option) (*DB, error) {
	db, describe, err := openPool(dsn, maxConns)
	if err != nil {
		return nil, err
	}
	return Wrap(db, dialect.MySQL, describe, opts...), nil
}

// openPool opens the connection pool of a DSN (see OpenMySQL) and describes it.
func openPool(dsn string, maxConns int) (*sql.DB, string, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, "", fmt.Errorf("parse DSN: %w", err)
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
	// Arguments are written into the statement by the driver (escaped for
	// the connection's charset and SQL mode) instead of a server-side
	// prepare, execute and close per query: one round trip instead of three,
	// and no statement for MariaDB to prepare. Unless the DSN says otherwise;
	// the driver refuses it with charsets it cannot escape safely, which
	// utf8mb4 is not.
	if !strings.Contains(dsn, "interpolateParams=") {
		cfg.InterpolateParams = true
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return nil, "", err
	}
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(max(1, maxConns/2))
	db.SetConnMaxLifetime(30 * time.Minute)
	return db, fmt.Sprintf("mysql %s@%s/%s", cfg.User, cfg.Addr, cfg.DBName), nil
}

// Wrap makes a DB of an open connection pool in dialect (dialect.MySQL or
// dialect.SQLite); describe is the line the start-up log shows for it.
func Wrap(db *sql.DB, dialectName, describe string, opts ...ent.Option) *DB {
	drv := entsql.OpenDB(dialectName, db)
	return &DB{
		Client:   ent.NewClient(append([]ent.Option{ent.Driver(drv)}, opts...)...),
		SQL:      db,
		Dialect:  dialectName,
		Describe: describe,
	}
}

// Ping checks the database answers (readiness).
func (d *DB) Ping(ctx context.Context) error { return d.SQL.PingContext(ctx) }
