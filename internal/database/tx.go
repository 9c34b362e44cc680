package database

import (
	"context"
	"errors"

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
