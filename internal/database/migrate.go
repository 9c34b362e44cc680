package database

import (
	"context"
	"fmt"
	"io"
	"sync"

	atlas "ariga.io/atlas/sql/schema"
	"entgo.io/ent/dialect/sql/schema"
)

// originalTables are the tables of hmdp.sql. Operators run the server on
// databases created from that file, so migration may add indexes to these
// tables but never change or drop a column, index or table of theirs.
var originalTables = map[string]bool{
	"tb_blog": true, "tb_blog_comments": true, "tb_follow": true, "tb_seckill_voucher": true,
	"tb_shop": true, "tb_shop_type": true, "tb_sign": true, "tb_user": true,
	"tb_user_info": true, "tb_voucher": true, "tb_voucher_order": true,
}

// Migrate creates what is missing: new tables whole, and on the original
// tables only new indexes (such as the unique keys that make flash-sale and
// follow writes idempotent).
func (d *DB) Migrate(ctx context.Context) error {
	// ent keeps the desired schema in package variables (migrate.Tables) and
	// writes them while planning: two migrations in one process at once race
	// (tests start many servers side by side).
	migrating.Lock()
	defer migrating.Unlock()
	if err := d.Client.Schema.Create(ctx, migrateOptions...); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Plan writes the statements Migrate would run now, without running them.
func (d *DB) Plan(ctx context.Context, w io.Writer) error {
	migrating.Lock()
	defer migrating.Unlock()
	if err := d.Client.Schema.WriteTo(ctx, w, migrateOptions...); err != nil {
		return fmt.Errorf("migration plan: %w", err)
	}
	return nil
}

var migrateOptions = []schema.MigrateOption{
	schema.WithForeignKeys(false), // hmdp.sql has none; ids are checked in code
	schema.WithDropColumn(false),
	schema.WithDropIndex(false),
	schema.WithDiffHook(onlyAdditions),
}

var migrating sync.Mutex

func onlyAdditions(next schema.Differ) schema.Differ {
	return schema.DiffFunc(func(current, desired *atlas.Schema) ([]atlas.Change, error) {
		changes, err := next.Diff(current, desired)
		if err != nil {
			return nil, err
		}
		return filterAdditions(changes), nil
	})
}

func filterAdditions(changes []atlas.Change) []atlas.Change {
	var kept []atlas.Change
	for _, c := range changes {
		switch c := c.(type) {
		case *atlas.AddTable:
			kept = append(kept, c)
		case *atlas.ModifyTable:
			if !originalTables[c.T.Name] {
				kept = append(kept, c) // our own tables evolve freely
				continue
			}
			var adds []atlas.Change
			for _, tc := range c.Changes {
				if ai, ok := tc.(*atlas.AddIndex); ok {
					adds = append(adds, ai)
				}
			}
			if len(adds) > 0 {
				c.Changes = adds
				kept = append(kept, c)
			}
		}
	}
	return kept
}
