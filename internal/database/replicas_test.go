package database_test

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// openReplicated opens a fresh replicated database with the replica behind
// a proxy (to stop it), migrated and seeded, waiting until the replica has
// the seed.
func openReplicated(t testing.TB) (*database.DB, *testenv.Proxy, *sql.DB) {
	t.Helper()
	pdsn, rdsn := testenv.NewReplicatedDatabase(t)
	rcfg, err := mysql.ParseDSN(rdsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewProxy(t, rcfg.Addr)
	ctx := context.Background()
	db, err := database.OpenMySQLReplicas(ctx, pdsn, database.ReplicaConfig{
		DSNs: []string{testenv.WithAddr(t, rdsn, proxy.Addr())}, MaxLag: 2 * time.Second, CheckEvery: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Seed(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	replica, err := sql.Open("mysql", rdsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = replica.Close() })
	testenv.Eventually(t, 10*time.Second, "the replica has the seeded shops", func() bool {
		var n int
		return replica.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM tb_shop").Scan(&n) == nil && n > 0
	})
	return db, proxy, replica
}

// Lag-tolerant reads go to the replica; plain reads, reads marked
// PrimaryOnly, transactions and writes go to the primary.
func TestReplicaRouting(t *testing.T) {
	db, _, _ := openReplicated(t)
	ctx := context.Background()
	rep := db.Replicas()[0]
	p0, r0 := db.Reads("primary"), db.Reads(rep)
	for range 10 {
		db.Client.Shop.Query().Where().AllX(database.LagTolerant(ctx))
	}
	if got := db.Reads(rep) - r0; got != 10 {
		t.Errorf("replica served %d of 10 lag-tolerant reads", got)
	}
	db.Client.Shop.Query().AllX(ctx)
	db.Client.Shop.Query().AllX(database.PrimaryOnly(database.LagTolerant(ctx)))
	if got := db.Reads("primary") - p0; got != 2 {
		t.Errorf("primary served %d reads, want 2 (one plain, one PrimaryOnly)", got)
	}
	// A transaction reads its own uncommitted write: it runs on the primary.
	r1 := db.Reads(rep)
	err := database.WithTx(database.LagTolerant(ctx), db.Client, func(tx *ent.Tx) error {
		tx.ShopType.Create().SetName("tx-only").SetIcon("x").SetSort(99).ExecX(ctx)
		if n := tx.ShopType.Query().CountX(database.LagTolerant(ctx)); n == 0 {
			t.Error("transaction does not see its write")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if db.Reads(rep) != r1 {
		t.Error("a read inside a transaction went to the replica")
	}
}

// Reads spread over the replicas round robin: with the same replica listed
// twice, each entry serves half of many concurrent reads.
func TestReplicaRoundRobinConcurrent(t *testing.T) {
	pdsn, rdsn := testenv.NewReplicatedDatabase(t)
	ctx := context.Background()
	p1 := testenv.NewProxy(t, mustAddr(t, rdsn))
	p2 := testenv.NewProxy(t, mustAddr(t, rdsn))
	db, err := database.OpenMySQLReplicas(ctx, pdsn, database.ReplicaConfig{
		DSNs: []string{testenv.WithAddr(t, rdsn, p1.Addr()), testenv.WithAddr(t, rdsn, p2.Addr())}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the tables replicate
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for range 40 {
		wg.Go(func() {
			for range 10 {
				if _, err := db.Client.Shop.Query().All(database.LagTolerant(ctx)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	a, b := db.Reads(p1.Addr()), db.Reads(p2.Addr())
	if a+b != 400 || a != 200 {
		t.Errorf("replica reads %d + %d, want 200 + 200", a, b)
	}
}

func mustAddr(t *testing.T, dsn string) string {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Addr
}

// A stopped replica costs no error: reads fall back to the primary at once,
// the replica is skipped, and used again once it is back.
func TestReplicaStoppedCostsNoErrors(t *testing.T) {
	db, proxy, _ := openReplicated(t)
	ctx := database.LagTolerant(context.Background())
	rep := db.Replicas()[0]
	db.Client.Shop.Query().AllX(ctx)
	if db.Reads(rep) == 0 {
		t.Fatal("the replica served no read")
	}
	proxy.Stop()
	p0 := db.Reads("primary")
	for i := range 50 {
		if _, err := db.Client.Shop.Query().All(ctx); err != nil {
			t.Fatalf("read %d with the replica stopped: %v", i, err)
		}
	}
	if got := db.Reads("primary") - p0; got != 50 {
		t.Errorf("primary served %d of 50 reads with the replica stopped", got)
	}
	proxy.Start(t)
	r0 := db.Reads(rep)
	testenv.Eventually(t, 5*time.Second, "the replica is used again", func() bool {
		db.Client.Shop.Query().AllX(ctx)
		return db.Reads(rep) > r0
	})
}

// A replica whose replication stopped (its SQL thread) is skipped: it
// would serve ever staler data. It is used again once replication runs.
func TestReplicaNotReplicatingSkipped(t *testing.T) {
	db, _, replica := openReplicated(t)
	ctx := database.LagTolerant(context.Background())
	rep := db.Replicas()[0]
	if _, err := replica.ExecContext(t.Context(), "STOP SLAVE SQL_THREAD"); err != nil {
		t.Fatal(err)
	}
	restarted := false
	defer func() {
		if !restarted {
			_, _ = replica.ExecContext(t.Context(), "START SLAVE SQL_THREAD")
		}
	}()
	time.Sleep(300 * time.Millisecond) // a few checks
	r0 := db.Reads(rep)
	for range 10 {
		db.Client.Shop.Query().AllX(ctx)
	}
	if db.Reads(rep) != r0 {
		t.Errorf("a replica not replicating served %d reads", db.Reads(rep)-r0)
	}
	if _, err := replica.ExecContext(t.Context(), "START SLAVE SQL_THREAD"); err != nil {
		t.Fatal(err)
	}
	restarted = true
	testenv.Eventually(t, 5*time.Second, "the replica is used again", func() bool {
		db.Client.Shop.Query().AllX(ctx)
		return db.Reads(rep) > r0
	})
}
