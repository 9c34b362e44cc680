package app

import (
	"database/sql"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

// binlogConfig is a server on a fresh database of the binlog-writing primary
// of scripts/mariadb-replication.sh and the real Redis, tailing the binlog.
func binlogConfig(t *testing.T) (config.Config, *sql.DB) {
	t.Helper()
	primary, _ := testenv.NewReplicatedDatabase(t)
	if testenv.RealRedisAddr() == "" {
		t.Skip("HMDP_TEST_REDIS_ADDR not set: two instances share one Redis")
	}
	cfg := testConfig(t, "embedded")
	cfg.MySQLDSN, cfg.Binlog = primary, "on"
	r := testenv.NewRealRedis(t)
	cfg.RedisAddrs, cfg.RedisPrefix = strings.Split(testenv.RealRedisAddr(), ","), r.Prefix
	db, err := sql.Open("mysql", primary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return cfg, db
}

// An operator's UPDATE typed into the mysql client shows in shop(id) on
// every instance within 1 s; when the tailing instance stops, the other
// takes over and updates still arrive.
func TestBinlogInvalidatesEveryInstance(t *testing.T) {
	cfg, db := binlogConfig(t)
	a := startServerWith(t, "real", cfg)
	cfg.Seed = false
	b := startServerWith(t, "real", cfg)
	ctx := t.Context()
	servers := []*testServer{a, b}
	testenv.Eventually(t, 10*time.Second, "one instance tails the binlog", func() bool {
		return a.app.binlog.Leading() || b.app.binlog.Leading()
	})
	if a.app.binlog.Leading() && b.app.binlog.Leading() {
		t.Fatal("both instances tail the binlog")
	}
	name := func(ts *testServer) string {
		s := must(gqlclient.Shop(ctx, ts.gql(""), "1"))(t).Shop
		return s.Name
	}
	update := func(servers []*testServer, to string) {
		t.Helper()
		for _, ts := range servers { // cached on every instance (Redis and near cache)
			if name(ts) == to {
				t.Fatalf("already %q", to)
			}
		}
		if _, err := db.ExecContext(t.Context(), "UPDATE tb_shop SET name = ? WHERE id = 1", to); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for _, ts := range servers {
			testenv.Eventually(t, time.Second-time.Since(start), "shop 1 renamed to "+to+" on every instance", func() bool {
				return name(ts) == to
			})
		}
		t.Logf("%q on every instance after %v", to, time.Since(start))
	}
	update(servers, "Renamed by SQL")
	// How long an operator's UPDATE takes to show everywhere, over 20 more.
	var took []time.Duration
	for i := range 20 {
		start := time.Now()
		update(servers, "Renamed "+strconv.Itoa(i))
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	t.Logf("UPDATE to shop(id) on both instances: p50 %v, max %v (20 updates)", took[10], took[19])

	leader, other := a, b
	if b.app.binlog.Leading() {
		leader, other = b, a
	}
	leader.app.binlog.Close()
	testenv.Eventually(t, 10*time.Second, "the other instance takes over", other.app.binlog.Leading)
	update([]*testServer{other}, "Renamed again")
}

// Without a usable binlog, auto starts without a tailer (the outbox path
// alone) and on refuses to start, naming the setting.
func TestWithoutBinlogOutboxOnly(t *testing.T) {
	t.Run("embedded", func(t *testing.T) {
		if ts := startServer(t, "embedded"); ts.app.binlog != nil {
			t.Error("a binlog tailer on the embedded database")
		}
	})
	t.Run("real, binlog off", func(t *testing.T) {
		cfg := testConfig(t, "real")
		db, err := sql.Open("mysql", cfg.MySQLDSN)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var logBin int
		if err := db.QueryRowContext(t.Context(), "SELECT @@log_bin").Scan(&logBin); err != nil {
			t.Fatal(err)
		}
		if logBin == 1 {
			t.Skip("HMDP_TEST_MYSQL_DSN's server writes a binlog")
		}
		if ts := startServerWith(t, "real", cfg); ts.app.binlog != nil {
			t.Error("auto started a tailer without a binlog")
		}
		cfg.Binlog = "on"
		_, err = New(t.Context(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), Options{Sender: &smsBox{codes: map[string]string{}}})
		if err == nil || !strings.HasPrefix(err.Error(), "HMDP_BINLOG=on: ") {
			t.Errorf("HMDP_BINLOG=on without a binlog: %v", err)
		}
	})
}

// With a replica 2 s behind, a cache miss right after an operator's UPDATE
// reads the old row from the replica and caches it; the second invalidation,
// once the replica has caught up, brings the new row everywhere.
func TestBinlogSecondInvalidationAfterReplicaLag(t *testing.T) {
	cfg := replicaConfig(t, 2*time.Second)
	cfg.Binlog = "on"
	if testenv.RealRedisAddr() == "" {
		t.Skip("HMDP_TEST_REDIS_ADDR not set")
	}
	ts := startServerWith(t, "real", cfg)
	ctx := t.Context()
	anon := ts.gql("")
	rep := ts.app.db.Replicas()[0]
	testenv.Eventually(t, 15*time.Second, "the replica has the seeded shops (2 s behind)", func() bool {
		r0 := ts.app.db.Reads(rep)
		found := must(gqlclient.SearchShops(ctx, anon, "茶", nil, nil))(t).SearchShops.Edges
		return ts.app.db.Reads(rep) > r0 && len(found) > 0
	})
	testenv.Eventually(t, 5*time.Second, "the tailer leads", ts.app.binlog.Leading)
	old := must(gqlclient.Shop(ctx, anon, "1"))(t).Shop.Name
	db, err := sql.Open("mysql", cfg.MySQLDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), "UPDATE tb_shop SET name = 'After the lag' WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the first invalidation, then a miss served by the replica
	if got := must(gqlclient.Shop(ctx, anon, "1"))(t).Shop.Name; got != old {
		t.Fatalf("right after the UPDATE: %q, want the replica's old %q (is the replica behind?)", got, old)
	}
	testenv.Eventually(t, 5*time.Second, "the new name once the replica caught up", func() bool {
		return must(gqlclient.Shop(ctx, anon, "1"))(t).Shop.Name == "After the lag"
	})
}
