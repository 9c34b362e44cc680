package app

import (
	"context"
	"database/sql"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

// replicaConfig is a test server on a fresh database of the replicated pair
// of scripts/mariadb-replication.sh (real Redis when configured), with the
// replica delayed by delay (0 = not delayed) until the test ends.
func replicaConfig(t *testing.T, delay time.Duration) config.Config {
	t.Helper()
	primary, replica := testenv.NewReplicatedDatabase(t)
	cfg := testConfig(t, "embedded")
	cfg.MySQLDSN, cfg.ReplicaDSNs = primary, []string{replica}
	cfg.ReplicaMaxLag = 30 * time.Second // a delayed replica is still in use
	cfg.RateLimits = false               // the tests poll searchShops until the replica catches up
	if testenv.RealRedisAddr() != "" {
		r := testenv.NewRealRedis(t)
		cfg.RedisAddrs = strings.Split(testenv.RealRedisAddr(), ",")
		cfg.RedisPrefix = r.Prefix
	}
	if delay > 0 {
		db, err := sql.Open("mysql", replica)
		if err != nil {
			t.Fatal(err)
		}
		setDelay := func(ctx context.Context, d time.Duration) error {
			for _, q := range []string{"STOP SLAVE", "CHANGE MASTER TO MASTER_DELAY = " + strconv.Itoa(int(d/time.Second)), "START SLAVE"} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					return err
				}
			}
			return nil
		}
		if err := setDelay(t.Context(), delay); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			// t.Context() has ended by the time cleanups run.
			if err := setDelay(context.Background(), 0); err != nil {
				t.Errorf("undo the replica's delay: %v", err)
			}
			_ = db.Close()
		})
	}
	return cfg
}

// With a replica 3 s behind, a shop an admin creates is found by that
// admin's search at once (read-your-writes sends their reads to the
// primary), while an anonymous search, served by the replica, sees it only
// once the replica catches up. /metrics counts the reads per back end.
func TestReplicaReadYourWrites(t *testing.T) {
	ts := startServerWith(t, "real", replicaConfig(t, 3*time.Second))
	ctx := t.Context()
	admin, anon := ts.gql(ts.login("13900000000")), ts.gql("")
	rep := ts.app.db.Replicas()[0]
	testenv.Eventually(t, 15*time.Second, "the replica has the tables (3 s behind)", func() bool {
		r0 := ts.app.db.Reads(rep)
		must(gqlclient.SearchShops(ctx, anon, "茶", nil, nil))(t)
		return ts.app.db.Reads(rep) > r0
	})
	name := "Replica Lab " + testenv.RandomHex(4)
	in := gqlclient.CreateShopInput{Name: name, TypeId: "1", Address: "1 Road", X: 120.15, Y: 30.334, AvgPrice: new(3500)}
	created := must(gqlclient.CreateShop(ctx, admin, in))(t).CreateShop
	found := must(gqlclient.SearchShops(ctx, admin, name, nil, nil))(t).SearchShops
	if len(found.Edges) != 1 || found.Edges[0].Node.Id != created.Id {
		t.Fatalf("the admin's own search right after createShop: %+v", found)
	}
	if n := len(must(gqlclient.SearchShops(ctx, anon, name, nil, nil))(t).SearchShops.Edges); n != 0 {
		t.Fatalf("an anonymous search read the primary (found %d): the replica is not in use", n)
	}
	testenv.Eventually(t, 15*time.Second, "the replica catches up", func() bool {
		return len(must(gqlclient.SearchShops(ctx, anon, name, nil, nil))(t).SearchShops.Edges) == 1
	})
	_, body := get(t, ts.URL+"/metrics")
	m := regexp.MustCompile(`hmdp_db_reads_total\{backend="` + regexp.QuoteMeta(rep) + `"\} (\d+)`).FindStringSubmatch(body)
	if m == nil || m[1] == "0" {
		t.Errorf("no replica reads in /metrics:\n%s", body)
	}
	if !strings.Contains(body, "hmdp_db_replicas_up 1") {
		t.Errorf("hmdp_db_replicas_up is not 1")
	}
}

// Reads spread to the replica through GraphQL: browsing lists and search as
// a visitor is served by it, not the primary.
func TestReplicaServesVisitorReads(t *testing.T) {
	ts := startServerWith(t, "real", replicaConfig(t, 0))
	ctx := t.Context()
	anon := ts.gql("")
	rep := ts.app.db.Replicas()[0]
	testenv.Eventually(t, 10*time.Second, "the replica has the seeded shops", func() bool {
		return len(must(gqlclient.SearchShops(ctx, anon, "茶", nil, nil))(t).SearchShops.Edges) > 0
	})
	// The primary's counter also counts the background workers' reads (the
	// flash-sale discovery, the order sweep), which rightly go there and can
	// land inside a window: a window of 20 searches without any primary read
	// shows the searches do not go there; three tries, or routing is wrong.
	var replicaReads, primaryReads int64
	for range 3 {
		r0, p0 := ts.app.db.Reads(rep), ts.app.db.Reads("primary")
		for range 20 {
			must(gqlclient.SearchShops(ctx, anon, "茶", nil, nil))(t)
		}
		replicaReads, primaryReads = ts.app.db.Reads(rep)-r0, ts.app.db.Reads("primary")-p0
		if primaryReads == 0 {
			break
		}
	}
	if replicaReads < 20 {
		t.Errorf("replica served %d reads of 20 searches", replicaReads)
	}
	if primaryReads != 0 {
		t.Errorf("primary served %d reads in each of 3 windows of 20 visitor searches", primaryReads)
	}
}
