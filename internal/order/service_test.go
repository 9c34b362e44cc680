package order

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/internal/testenv"
)

// recorder is a StatusNotifier that keeps what it heard.
type recorder struct {
	mu     sync.Mutex
	events []string
	pays   []string // "ORDER/PAYMENT" of the events that carried a payment
}

func (r *recorder) OrderChanged(_ context.Context, o *Order) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, o.Status.String())
	if o.Payment != nil {
		r.pays = append(r.pays, o.Status.String()+"/"+o.Payment.Status.String())
	}
}

func (r *recorder) payments() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.pays...)
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

type env struct {
	b   testenv.Backends
	sk  *seckill.Service
	svc *Service
	rec *recorder
}

func newEnv(t *testing.T, b testenv.Backends) *env {
	t.Helper()
	locks := lock.New(b.Redis.Client, b.Redis.Prefix)
	t.Cleanup(func() { _ = locks.Close() })
	rec := &recorder{}
	sk := seckill.New(seckill.Config{
		DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix,
		IDs:   idgen.New(b.Redis.Client, b.Redis.Prefix, "order", 0),
		Locks: locks, Limiter: ratelimit.New(b.Redis.Client, b.Redis.Prefix, false),
		Log: slog.New(slog.NewJSONHandler(io.Discard, nil)), Registerer: prometheus.NewRegistry(),
		OnPersisted: AnnouncePersisted(rec),
		Consumer: seckill.ConsumerConfig{
			Block: 50 * time.Millisecond, ClaimEvery: 50 * time.Millisecond, Refresh: 50 * time.Millisecond}})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		sk.Stop(ctx)
	})
	return &env{b: b, sk: sk, svc: New(Config{DB: b.DB.Client, Sales: sk, Notifier: rec}), rec: rec}
}

func (e *env) sale(t *testing.T, stock int) int64 {
	t.Helper()
	ctx := context.Background()
	sv := testenv.Sale{Stock: stock}.MustCreate(t, ctx, e.b.DB.Client)
	e.sk.Publish(ctx, sv)
	return sv.ID
}

func (e *env) waitStatus(t *testing.T, user, id int64, want enum.OrderStatus) *Order {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		o, err := e.svc.Get(context.Background(), user, id)
		if err != nil {
			t.Fatal(err)
		}
		if o != nil && o.Status == want {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatalf("order %d: %+v, want %s", id, o, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Every status change reaches the notifier, in order: PENDING (accepted),
// UNPAID (persisted), PAID; a second payment announces nothing.
func TestNotifierHearsEveryChange(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newEnv(t, b)
		ctx := context.Background()
		v := e.sale(t, 5)
		r, err := e.svc.Seckill(ctx, 1, v)
		if err != nil || r.Status != enum.OrderPending {
			t.Fatal(r, err)
		}
		if o, _ := e.svc.Get(ctx, 1, r.OrderID); o == nil || o.Status != enum.OrderPending {
			t.Fatalf("%+v", o)
		}
		if o, _ := e.svc.Get(ctx, 2, r.OrderID); o != nil {
			t.Fatal("another user sees the pending order")
		}
		e.sk.Start()
		e.waitStatus(t, 1, r.OrderID, enum.OrderUnpaid)
		for range 2 {
			if _, err := e.svc.Pay(ctx, 1, r.OrderID, enum.PayWechat); err != nil {
				t.Fatal(err)
			}
		}
		got := e.rec.list()
		if len(got) != 3 || got[0] != "PENDING" || got[1] != "UNPAID" || got[2] != "PAID" {
			t.Fatalf("notifications %v", got)
		}
		_, err = e.svc.Cancel(ctx, 1, r.OrderID)
		if apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("cancel paid: %v", err)
		}
	})
}

// Cancellations racing with new buyers: whatever the interleaving, live
// orders + MySQL stock = the initial stock (nothing oversold, nothing lost),
// and Redis ends with MySQL's stock.
func TestCancelRacingBuyersNeitherOversellsNorLosesStock(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newEnv(t, b)
		ctx := context.Background()
		const stock = 10
		v := e.sale(t, stock)
		e.sk.Start()
		first := map[int64]int64{}
		for u := int64(1); u <= stock; u++ {
			r, err := e.svc.Seckill(ctx, u, v)
			if err != nil {
				t.Fatal(err)
			}
			first[u] = r.OrderID
		}
		for u, id := range first {
			e.waitStatus(t, u, id, enum.OrderUnpaid)
		}
		var wg sync.WaitGroup
		for u, id := range first {
			wg.Go(func() {
				if _, err := e.svc.Cancel(ctx, u, id); err != nil {
					t.Error(err)
				}
			})
		}
		for u := int64(100); u < 130; u++ {
			wg.Go(func() {
				for range 20 {
					_, err := e.svc.Seckill(ctx, u, v)
					if err == nil || apperr.CodeOf(err) == apperr.AlreadyOrdered {
						return
					}
					if apperr.CodeOf(err) != apperr.OutOfStock {
						t.Error(err)
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			})
		}
		wg.Wait()
		// Whatever the racers left unsold is sold now, one buyer at a time.
		for u := int64(200); ; u++ {
			_, err := e.svc.Seckill(ctx, u, v)
			if apperr.CodeOf(err) == apperr.OutOfStock {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		// Drain, then check the books.
		k := seckill.KeysOf(b.Redis.Prefix, v)
		deadline := time.Now().Add(15 * time.Second)
		for {
			left, _ := b.Redis.Client.XLen(ctx, k.Orders).Result()
			if left == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d entries not persisted", left)
			}
			time.Sleep(10 * time.Millisecond)
		}
		live, err := b.DB.Client.Order.Query().Where(entorder.VoucherID(v), entorder.StatusNEQ(enum.OrderCancelled)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := b.DB.Client.SeckillVoucher.Get(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		if live+sv.Stock != stock || live != stock {
			t.Fatalf("live orders %d + MySQL stock %d, want %d sold", live, sv.Stock, stock)
		}
		rs, err := b.Redis.Client.HGet(ctx, k.State, "stock").Int()
		if err != nil || rs != sv.Stock {
			t.Fatalf("Redis stock %d (%v), MySQL %d", rs, err, sv.Stock)
		}
	})
}

var _ = ent.IsNotFound

// Paging myOrders with any page size returns each order exactly once, newest
// first, however the pending (Redis-only) orders interleave with persisted
// ones and wherever a page boundary falls among them.
func TestMinePagingReturnsEachOrderOnce(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newEnv(t, b)
		ctx := context.Background()
		const user = 7
		// Persisted orders take ids from the same generator between the
		// pending ones, so the two kinds interleave; some are older than all.
		ids := idgen.New(b.Redis.Client, b.Redis.Prefix, "order", 0)
		var pending, persisted []int64
		for i := range 10 {
			if i%3 == 1 { // the consumer is not started: these stay PENDING
				r, err := e.svc.Seckill(ctx, user, e.sale(t, 5))
				if err != nil || r.Status != enum.OrderPending {
					t.Fatal(r, err)
				}
				pending = append(pending, r.OrderID)
				continue
			}
			id, err := ids.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.DB.Client.Order.Create().SetID(id).SetUserID(user).SetVoucherID(int64(1000 + i)).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			persisted = append(persisted, id)
		}
		want := len(pending) + len(persisted)
		for first := 1; first <= 5; first++ {
			var got []int64
			var after *string
			for pages := 0; ; pages++ {
				if pages > want {
					t.Fatalf("first=%d: paging does not end", first)
				}
				c, err := e.svc.Mine(ctx, user, &first, after, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, ed := range c.Edges {
					got = append(got, ed.Node.ID)
				}
				if !c.Info.HasNextPage {
					break
				}
				s := c.Info.EndCursor.String()
				after = &s
			}
			if len(got) != want {
				t.Fatalf("first=%d: %d orders %v, want %d", first, len(got), got, want)
			}
			for i := 1; i < len(got); i++ {
				if got[i] >= got[i-1] {
					t.Fatalf("first=%d: not newest first, each once: %v", first, got)
				}
			}
		}
	})
}
