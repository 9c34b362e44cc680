package binlog_test

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/binlog"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/testenv"
)

// seen records the ids the handler got and whether OnGap ran.
type seen struct {
	mu   sync.Mutex
	ids  []int64
	gaps int
}

func (s *seen) handler(_ context.Context, ids []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, ids...)
	return nil
}

func (s *seen) gap(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gaps++
	return nil
}

func (s *seen) gapCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gaps
}

func (s *seen) has(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.ids, id)
}

type fixture struct {
	dsn    string
	db     *sql.DB
	redis  testenv.RedisBackend
	seen   *seen
	prefix string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dsn, _ := testenv.NewReplicatedDatabase(t)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.ExecContext(t.Context(), "CREATE TABLE tb_shop (id BIGINT UNSIGNED PRIMARY KEY, name VARCHAR(64))"); err != nil {
		t.Fatal(err)
	}
	r := testenv.NewEmbeddedRedis(t)
	return &fixture{dsn: dsn, db: db, redis: r, seen: &seen{}, prefix: r.Prefix}
}

// tailer starts a tailer whose lock lives on client with a short lease.
func (f *fixture) tailer(t *testing.T, client redis.UniversalClient) *binlog.Tailer {
	t.Helper()
	locks := lock.New(client, f.prefix, lock.WithWatchdog(time.Second, 300*time.Millisecond))
	t.Cleanup(func() { _ = locks.Close() })
	tl, err := binlog.New(binlog.Config{DSN: f.dsn, Redis: client, Prefix: f.prefix, Locker: locks,
		Tables: map[string]binlog.Handler{"tb_shop": f.seen.handler}, OnGap: f.seen.gap, Retry: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	tl.Start()
	t.Cleanup(tl.Close)
	testenv.Eventually(t, 5*time.Second, "the tailer leads", tl.Leading)
	return tl
}

func (f *fixture) insert(t *testing.T, id int64) {
	t.Helper()
	if _, err := f.db.ExecContext(t.Context(), "INSERT INTO tb_shop (id, name) VALUES (?, 'x')", id); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) arrives(t *testing.T, id int64) {
	t.Helper()
	// Generous: a loaded machine (CI's stages side by side) took over 2 s.
	testenv.Eventually(t, 10*time.Second, "the change of row "+strconv.FormatInt(id, 10)+" arrives", func() bool { return f.seen.has(id) })
}

// A restarted tailer resumes at the kept position (changes made while none
// ran still arrive); a kept position purged from the binlog runs OnGap.
func TestBinlogResumesAndClearsAfterGap(t *testing.T) {
	f := newFixture(t)
	a := f.tailer(t, f.redis.Client)
	time.Sleep(200 * time.Millisecond) // the stream is open
	f.insert(t, 1)
	f.arrives(t, 1)
	a.Close()

	f.insert(t, 2) // while no instance tails
	b := f.tailer(t, f.redis.Client)
	f.arrives(t, 2)
	if f.seen.gapCount() != 0 {
		t.Fatal("OnGap ran without a gap")
	}
	b.Close()

	f.insert(t, 3)
	var file string
	var pos int64
	if _, err := f.db.ExecContext(t.Context(), "FLUSH BINARY LOGS"); err != nil {
		t.Fatal(err)
	}
	if err := f.db.QueryRowContext(t.Context(), "SHOW MASTER STATUS").Scan(&file, &pos, new(sql.NullString), new(sql.NullString)); err != nil {
		t.Fatal(err)
	}
	// The replica may still read the older file, which PURGE then keeps.
	testenv.Eventually(t, 5*time.Second, "older binlogs purged", func() bool {
		if _, err := f.db.ExecContext(t.Context(), "PURGE BINARY LOGS TO '"+file+"'"); err != nil {
			t.Fatal(err)
		}
		var first string
		return f.db.QueryRowContext(t.Context(), "SHOW BINARY LOGS").Scan(&first, new(sql.NullString)) == nil && first == file
	})
	f.tailer(t, f.redis.Client)
	time.Sleep(200 * time.Millisecond)
	if f.seen.gapCount() != 1 {
		t.Fatalf("OnGap ran %d times after the kept position was purged", f.seen.gapCount())
	}
	f.insert(t, 4)
	f.arrives(t, 4)
}

// When the tailing instance dies (here: loses Redis, so its lock's lease
// runs out), another takes over and changes still arrive; the dead one
// stops tailing.
func TestBinlogTakeoverWhenLeaderDies(t *testing.T) {
	f := newFixture(t)
	// The real Redis: the lease must run out by the clock (miniredis's
	// keys expire only when its time is moved).
	f.redis = testenv.NewRealRedis(t)
	f.prefix = f.redis.Prefix
	proxy := testenv.NewProxy(t, testenv.RealRedisAddr())
	cut := redis.NewClient(&redis.Options{Addr: proxy.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = cut.Close() })
	a := f.tailer(t, cut)
	locks := lock.New(f.redis.Client, f.prefix, lock.WithWatchdog(time.Second, 300*time.Millisecond))
	t.Cleanup(func() { _ = locks.Close() })
	b, err := binlog.New(binlog.Config{DSN: f.dsn, Redis: f.redis.Client, Prefix: f.prefix, Locker: locks,
		Tables: map[string]binlog.Handler{"tb_shop": f.seen.handler}, Retry: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	b.Start()
	t.Cleanup(b.Close)
	time.Sleep(500 * time.Millisecond)
	if b.Leading() {
		t.Fatal("two tailers lead")
	}
	f.insert(t, 1)
	f.arrives(t, 1)

	proxy.Stop()
	testenv.Eventually(t, 5*time.Second, "the other tailer takes over", b.Leading)
	testenv.Eventually(t, 5*time.Second, "the dead tailer stops", func() bool { return !a.Leading() })
	time.Sleep(200 * time.Millisecond)
	f.insert(t, 2)
	f.arrives(t, 2)
}
