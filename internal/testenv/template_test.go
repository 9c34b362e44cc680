package testenv_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/embedded"
	"github.com/hmdp/hmdp/internal/testenv"
)

func plan(t *testing.T, db *database.DB) string {
	t.Helper()
	var p strings.Builder
	if err := db.Plan(context.Background(), &p); err != nil {
		t.Fatal(err)
	}
	return p.String()
}

// The copied schema is what a migration makes: migrating a copy plans
// nothing, where an empty database plans every table.
func TestMigratedCopiesNeedNoMigration(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		if p := plan(t, db); p != "" {
			t.Errorf("a migration of the copy would run:\n%s", p)
		}
	})
	t.Run("empty database", func(t *testing.T) {
		db, err := embedded.OpenSQLite(filepath.Join(t.TempDir(), "empty.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if p := plan(t, db); !strings.Contains(p, "CREATE TABLE") {
			t.Errorf("no tables planned for an empty database:\n%s", p)
		}
	})
}
