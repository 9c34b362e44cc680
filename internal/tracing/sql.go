package tracing

import (
	"context"
	stdsql "database/sql"
	"errors"
	"strings"

	"entgo.io/ent/dialect"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// SQL returns the decorator of ent's driver (ent.WrapDriver) that makes a
// client span of each statement run inside a recorded trace: named by its
// operation and table ("INSERT tb_voucher_order"), with the statement's
// text as ent wrote it (placeholders, never the arguments). A transaction's
// statements are spanned too, and its COMMIT or ROLLBACK. Off (nil t), the
// driver is returned as is.
func (t *Tracing) SQL() func(dialect.Driver) dialect.Driver {
	return func(d dialect.Driver) dialect.Driver {
		if t == nil {
			return d
		}
		return &sqlDriver{Driver: d, t: t}
	}
}

type sqlDriver struct {
	dialect.Driver
	t *Tracing
}

// system is the db.system.name of a dialect.
func system(d string) string {
	switch d {
	case dialect.MySQL:
		return "mysql"
	case dialect.SQLite:
		return "sqlite"
	}
	return d
}

// statement runs do in a span of query (when ctx is in a recorded trace).
func (t *Tracing) statement(ctx context.Context, dialectName, query string, do func(context.Context) error) error {
	if !inTrace(ctx) {
		return do(ctx)
	}
	ctx, span := t.tracer.Start(ctx, spanNameOf(query), trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("db.system.name", system(dialectName)), attribute.String("db.query.text", query)))
	err := do(ctx)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
	return err
}

func (d *sqlDriver) Exec(ctx context.Context, query string, args, v any) error {
	return d.t.statement(ctx, d.Dialect(), query, func(ctx context.Context) error { return d.Driver.Exec(ctx, query, args, v) })
}

func (d *sqlDriver) Query(ctx context.Context, query string, args, v any) error {
	return d.t.statement(ctx, d.Dialect(), query, func(ctx context.Context) error { return d.Driver.Query(ctx, query, args, v) })
}

func (d *sqlDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &sqlTx{Tx: tx, t: d.t, ctx: ctx, dialect: d.Dialect()}, nil
}

// BeginTx is Tx with options, when the wrapped driver has it (ent asks for
// it by this method).
func (d *sqlDriver) BeginTx(ctx context.Context, opts *stdsql.TxOptions) (dialect.Tx, error) {
	b, ok := d.Driver.(interface {
		BeginTx(context.Context, *stdsql.TxOptions) (dialect.Tx, error)
	})
	if !ok {
		return nil, errors.New("tracing: the driver has no BeginTx")
	}
	tx, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &sqlTx{Tx: tx, t: d.t, ctx: ctx, dialect: d.Dialect()}, nil
}

// ExecContext and QueryContext are the database/sql methods ent's raw
// statements (client.ExecContext) reach the driver by.
func (d *sqlDriver) ExecContext(ctx context.Context, query string, args ...any) (res stdsql.Result, err error) {
	ex, ok := d.Driver.(interface {
		ExecContext(context.Context, string, ...any) (stdsql.Result, error)
	})
	if !ok {
		return nil, errors.New("tracing: the driver has no ExecContext")
	}
	err = d.t.statement(ctx, d.Dialect(), query, func(ctx context.Context) error {
		res, err = ex.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

func (d *sqlDriver) QueryContext(ctx context.Context, query string, args ...any) (rows *stdsql.Rows, err error) {
	q, ok := d.Driver.(interface {
		QueryContext(context.Context, string, ...any) (*stdsql.Rows, error)
	})
	if !ok {
		return nil, errors.New("tracing: the driver has no QueryContext")
	}
	err = d.t.statement(ctx, d.Dialect(), query, func(ctx context.Context) error {
		rows, err = q.QueryContext(ctx, query, args...)
		return err
	})
	return rows, err
}

// sqlTx is a transaction whose statements are spanned; ctx is the one it
// began with, the parent of its COMMIT or ROLLBACK.
type sqlTx struct {
	dialect.Tx
	t       *Tracing
	ctx     context.Context //nolint:containedctx // Commit and Rollback take none: the span of the end of a transaction needs its beginning's
	dialect string
}

func (x *sqlTx) Exec(ctx context.Context, query string, args, v any) error {
	return x.t.statement(ctx, x.dialect, query, func(ctx context.Context) error { return x.Tx.Exec(ctx, query, args, v) })
}

func (x *sqlTx) Query(ctx context.Context, query string, args, v any) error {
	return x.t.statement(ctx, x.dialect, query, func(ctx context.Context) error { return x.Tx.Query(ctx, query, args, v) })
}

func (x *sqlTx) Commit() error {
	return x.t.statement(x.ctx, x.dialect, "COMMIT", func(context.Context) error { return x.Tx.Commit() })
}

func (x *sqlTx) Rollback() error {
	return x.t.statement(x.ctx, x.dialect, "ROLLBACK", func(context.Context) error { return x.Tx.Rollback() })
}

func (x *sqlTx) ExecContext(ctx context.Context, query string, args ...any) (res stdsql.Result, err error) {
	ex, ok := x.Tx.(interface {
		ExecContext(context.Context, string, ...any) (stdsql.Result, error)
	})
	if !ok {
		return nil, errors.New("tracing: the transaction has no ExecContext")
	}
	err = x.t.statement(ctx, x.dialect, query, func(ctx context.Context) error {
		res, err = ex.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

func (x *sqlTx) QueryContext(ctx context.Context, query string, args ...any) (rows *stdsql.Rows, err error) {
	q, ok := x.Tx.(interface {
		QueryContext(context.Context, string, ...any) (*stdsql.Rows, error)
	})
	if !ok {
		return nil, errors.New("tracing: the transaction has no QueryContext")
	}
	err = x.t.statement(ctx, x.dialect, query, func(ctx context.Context) error {
		rows, err = q.QueryContext(ctx, query, args...)
		return err
	})
	return rows, err
}

// spanNameOf names a statement's span by its operation and, where it reads
// plainly, its table: "SELECT tb_shop", "INSERT tb_voucher_order",
// "UPDATE tb_seckill_voucher". The names stay few (one per operation and
// table), unlike the statements.
func spanNameOf(query string) string {
	f := strings.Fields(query)
	if len(f) == 0 {
		return "SQL"
	}
	op := strings.ToUpper(f[0])
	var after string
	switch op {
	case "INSERT", "REPLACE":
		after = "INTO"
	case "SELECT", "DELETE":
		after = "FROM"
	case "UPDATE":
		if len(f) > 1 && table(f[1]) != "" {
			return op + " " + table(f[1])
		}
		return op
	default:
		return op
	}
	for i := 1; i < len(f)-1; i++ {
		if strings.EqualFold(f[i], after) {
			if t := table(f[i+1]); t != "" { // not a subquery
				return op + " " + t
			}
			return op
		}
	}
	return op
}

// table is a table name as a statement spells it, without quotes.
func table(s string) string {
	if strings.HasPrefix(s, "(") { // a subquery
		return ""
	}
	s = strings.Trim(s, "`\"")
	if i := strings.IndexAny(s, "`\"("); i >= 0 {
		s = s[:i]
	}
	return s
}
