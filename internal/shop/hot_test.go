package shop

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/go-sql-driver/mysql"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// tcpProxy forwards to MySQL until cut: then it drops every connection and
// refuses new ones, like a server that went away.
type tcpProxy struct {
	ln     net.Listener
	target string
	down   atomic.Bool
	mu     sync.Mutex
	conns  map[net.Conn]bool
}

func newProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { _ = ln.Close(); p.cut() })
	// Not t.Context(): cleanups that run before this one may still connect
	// through the proxy.
	go p.serve(context.WithoutCancel(t.Context()))
	return p
}

func (p *tcpProxy) serve(ctx context.Context) {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if p.down.Load() {
			_ = c.Close()
			continue
		}
		s, err := new(net.Dialer).DialContext(ctx, "tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[s] = true, true
		p.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); _ = s.Close() }()
		go func() { _, _ = io.Copy(c, s); _ = c.Close() }()
	}
}

func (p *tcpProxy) cut() {
	p.down.Store(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		_ = c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// downDriver fails every statement once down is set: the embedded back end's
// stand-in for an unreachable MySQL (SQLite has no connection to cut).
type downDriver struct {
	dialect.Driver
	down *atomic.Bool
}

var errDown = errors.New("database unreachable")

func (d downDriver) Exec(ctx context.Context, q string, args, v any) error {
	if d.down.Load() {
		return errDown
	}
	return d.Driver.Exec(ctx, q, args, v)
}

func (d downDriver) Query(ctx context.Context, q string, args, v any) error {
	if d.down.Load() {
		return errDown
	}
	return d.Driver.Query(ctx, q, args, v)
}

// breakable returns a client of e's database and a func that makes the
// database unreachable for it: through a TCP proxy on real MySQL.
func (e env) breakable(t *testing.T) (*ent.Client, func()) {
	t.Helper()
	if e.db.Dialect != dialect.MySQL {
		var down atomic.Bool
		return ent.NewClient(ent.Driver(downDriver{entsql.OpenDB(e.db.Dialect, e.db.SQL), &down})), func() { down.Store(true) }
	}
	var name string
	if err := e.db.SQL.QueryRowContext(t.Context(), "SELECT DATABASE()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	dsn, err := mysql.ParseDSN(testenv.RealMySQLDSN())
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, dsn.Addr)
	dsn.Addr, dsn.DBName = p.ln.Addr().String(), name
	db, err := database.OpenMySQL(dsn.FormatDSN(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db.Client, p.cut
}

// makeStale moves the logical expiry of a hot entry into the past.
func makeStale(t *testing.T, s *Service, id int64) {
	t.Helper()
	ctx, key := context.Background(), s.HotCache().Key(id)
	raw, err := s.rdb.Get(ctx, key).Bytes()
	if err != nil {
		t.Fatalf("hot entry of shop %d: %v", id, err)
	}
	var e map[string]json.RawMessage
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	e["exp"] = json.RawMessage("1")
	raw, _ = json.Marshal(e)
	if err := s.rdb.Do(ctx, "SET", key, raw, "KEEPTTL").Err(); err != nil {
		t.Fatal(err)
	}
}

func hotExp(t *testing.T, s *Service, id int64) int64 {
	t.Helper()
	var e struct{ Exp int64 }
	raw, err := s.rdb.Get(context.Background(), s.HotCache().Key(id)).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e.Exp
}

// With MySQL unreachable, a hot shop (even a stale one) keeps answering from
// Redis with no error, while a shop that is not hot (mutex strategy) fails.
func TestHotShopAnswersWhileMySQLIsDown(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		db, cut := e.breakable(t)
		s := e.instance(t, func(c *Config) { c.DB, c.NearTTL, c.HotShops = db, 0, []int64{1} })
		ctx := context.Background()
		if sh, err := s.Get(ctx, 2); err != nil || sh == nil {
			t.Fatalf("shop 2 before the outage: %v %v", sh, err)
		}
		// Shop 2 took the mutex path: its entry is the plain one, not a hot one.
		if n := s.rdb.Exists(ctx, s.Cache().Key(2)).Val(); n != 1 {
			t.Fatal("shop 2 (not hot) was not cached by the mutex strategy")
		}
		if n := s.rdb.Exists(ctx, s.HotCache().Key(2), s.Cache().Key(1)).Val(); n != 0 {
			t.Fatal("a shop was cached by the other strategy")
		}
		cut()
		makeStale(t, s, 1)
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					sh, err := s.View(ctx, 1, Visitor{UserID: 7})
					if err != nil || sh == nil || sh.ID != 1 || sh.Name != "103茶餐厅" {
						t.Errorf("hot shop 1 while MySQL is down: %+v %v", sh, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if _, err := s.Get(ctx, 4); err == nil {
			t.Fatal("shop 4 (not hot, not cached) answered while MySQL is down: it did not use the mutex strategy")
		}
	})
}

// 400 reads of a stale hot shop on two instances: every one answers at once
// with the stale value and exactly one rebuild reaches MySQL.
func TestStaleHotShopRebuildsOnceAcrossInstances(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		hot := func(c *Config) { c.HotShops = []int64{1} }
		a, b := e.instance(t, hot), e.instance(t, hot)
		ctx := context.Background()
		makeStale(t, a, 1)
		e.q.byID.Store(0)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 400 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s := a
				if i%2 == 1 {
					s = b
				}
				if sh, err := s.Get(ctx, 1); err != nil || sh == nil || sh.ID != 1 {
					t.Errorf("read %d: %+v %v", i, sh, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		testenv.Eventually(t, 5*time.Second, "the hot entry is fresh again", func() bool {
			return hotExp(t, a, 1) > time.Now().UnixMilli()
		})
		time.Sleep(200 * time.Millisecond) // let any second rebuild show up
		if n := e.q.byID.Load(); n != 1 {
			t.Fatalf("MySQL loads of stale hot shop 1: %d, want exactly 1", n)
		}
	})
}

// updateShop rewrites the hot entry in place: a reader polling Redis never
// finds it missing, and it holds the new value as soon as Update returns, also
// when the writing instance does not count the shop as hot.
func TestUpdateRewritesHotShop(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		a := e.instance(t, func(c *Config) { c.HotShops = []int64{1} })
		b := e.instance(t, nil)
		ctx := context.Background()
		key := a.HotCache().Key(1)
		var misses, polls atomic.Int64
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if n, err := a.rdb.Exists(ctx, key).Result(); err == nil {
					polls.Add(1)
					if n == 0 {
						misses.Add(1)
					}
				}
			}
		}()
		for i, s := range []*Service{a, b, a, b} {
			name := "hot " + string(rune('A'+i))
			if _, err := s.Update(asAdmin(ctx), 1, UpdateInput{Name: ptr(name)}); err != nil {
				t.Fatal(err)
			}
			var got struct{ V struct{ Name string } }
			if err := json.Unmarshal([]byte(a.rdb.Get(ctx, key).Val()), &got); err != nil {
				t.Fatal(err)
			}
			if got.V.Name != name {
				t.Fatalf("hot entry after update %d holds %q, want %q", i, got.V.Name, name)
			}
			for _, s := range []*Service{a, b} {
				testenv.Eventually(t, 3*time.Second, "every instance reads the new name", func() bool {
					sh, err := s.Get(ctx, 1)
					return err == nil && sh != nil && sh.Name == name
				})
			}
		}
		close(stop)
		<-done
		if misses.Load() != 0 || polls.Load() == 0 {
			t.Fatalf("hot entry missing in %d of %d polls during updates", misses.Load(), polls.Load())
		}
	})
}

// The most-read shops of the window become hot (preloaded) on the next tick,
// and an instance starting later finds the same set.
func TestMostReadShopsBecomeHot(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		top := func(c *Config) { c.HotTop, c.HotEvery, c.HotShops = 2, time.Hour, []int64{9} }
		a := e.instance(t, top)
		ctx := context.Background()
		if got := a.Hot(); !slices.Equal(got, []int64{9}) {
			t.Fatalf("hot before any read: %v", got)
		}
		for id, n := range map[int64]int{5: 10, 3: 6, 1: 2} {
			for range n {
				if _, err := a.View(ctx, id, Visitor{UserID: 1}); err != nil {
					t.Fatal(err)
				}
			}
		}
		a.HotTick(ctx)
		if got := a.Hot(); !slices.Equal(got, []int64{3, 5, 9}) {
			t.Fatalf("hot after the tick: %v, want [3 5 9]", got)
		}
		for _, id := range []int64{3, 5} { // one key per EXISTS: on a cluster they are in different slots
			if n, err := a.rdb.Exists(ctx, a.HotCache().Key(id)).Result(); err != nil || n != 1 {
				t.Fatalf("new hot shop %d not preloaded (%v)", id, err)
			}
		}
		b := e.instance(t, top)
		if got := b.Hot(); !slices.Equal(got, []int64{3, 5, 9}) {
			t.Fatalf("hot on a new instance: %v", got)
		}
	})
}
