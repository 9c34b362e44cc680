package database

import (
	"context"
	"errors"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/hmdp/hmdp/ent"
)

// WithTx runs fn in a transaction: committed when fn succeeds, rolled back
// (and both errors reported) when it fails.
func WithTx(ctx context.Context, db *ent.Client, fn func(tx *ent.Tx) error) error {
	tx, err := db.Tx(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// ForUpdate makes a query a locking read on MySQL, as a Where predicate:
// q.Where(database.ForUpdate). SQLite has no FOR UPDATE and needs none: its
// transactions are serialized.
func ForUpdate(sel *sql.Selector) {
	if sel.Dialect() == dialect.MySQL {
		sel.ForUpdate()
	}
}
