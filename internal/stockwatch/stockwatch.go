// Package stockwatch follows the live stock and state of flash sales for the
// saleUpdates subscription (a shop page open on many phones).
//
// One poller per instance reads the Redis state of every sale that has a
// subscriber on this instance, all in one pipelined round trip per tick
// (Every, half a second by default), and wakes the subscriptions whose sales
// changed. Its cost is one round trip per tick per instance, whatever the
// number of sales, subscribers and purchases: publishing each admission
// instead would cost a message per purchase in the busiest second of a sale.
// Each subscription has its own goroutine, which owns its channel and sends
// the latest values when woken, so a slow client delays only itself and
// never sees stale values queued up.
package stockwatch

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/seckill"
)

// MaxVouchers is how many sales one subscription may follow.
const MaxVouchers = 20

// DefaultEvery is how often the sales followed on an instance are read.
const DefaultEvery = 500 * time.Millisecond

// Sale is a flash sale as a buyer sees it now.
type Sale struct {
	VoucherID int64
	// Stock is what Redis can still admit (the sale's live count; MySQL's
	// stock lags it by the orders not yet persisted).
	Stock int
	State enum.SaleState
}

// Config holds the watcher's dependencies; zero values take the defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string        // Redis key prefix ("hmdp:")
	Every  time.Duration // default DefaultEvery
	Now    func() time.Time
	Log    *slog.Logger
}

// Watcher follows sales for the subscriptions of this instance.
type Watcher struct {
	cfg  Config
	life context.Context // the poller's, ended by Close
	stop context.CancelFunc

	mu      sync.Mutex
	sales   map[int64]*followed
	polling bool
}

// followed is one sale with subscribers on this instance.
type followed struct {
	begin, end time.Time
	stock      int
	state      enum.SaleState // at the last read: the clock moves it too
	subs       map[*subscription]struct{}
}

type subscription struct {
	ids  []int64
	wake chan struct{} // buffer 1: "something changed", never blocks the poller
}

// New returns a watcher; it polls only while someone subscribes.
func New(cfg Config) *Watcher {
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	w := &Watcher{cfg: cfg, sales: map[int64]*followed{}}
	w.life, w.stop = context.WithCancel(context.Background())
	return w
}

// Close stops the poller (subscriptions end with their own contexts).
func (w *Watcher) Close() { w.stop() }

// Subscribe follows the sales of voucherIDs (1 to MaxVouchers flash-sale
// vouchers, else BAD_USER_INPUT or NOT_FOUND naming ids) until ctx
// ends: the channel gets each sale's values at once, then each change.
func (w *Watcher) Subscribe(ctx context.Context, voucherIDs []int64) (<-chan *Sale, error) {
	ids := dedupe(voucherIDs)
	if len(ids) == 0 || len(ids) > MaxVouchers {
		return nil, apperr.BadInput("ids", "give 1 to %d voucher ids, got %d", MaxVouchers, len(ids))
	}
	rows, err := w.cfg.DB.SeckillVoucher.Query().Where(entseckillvoucher.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) != len(ids) {
		return nil, &apperr.Error{Code: apperr.NotFound, Field: "ids",
			Message: fmt.Sprintf("%d of the %d ids are not flash-sale vouchers", len(ids)-len(rows), len(ids))}
	}
	s := &subscription{ids: ids, wake: make(chan struct{}, 1)}
	w.add(s, rows) //nolint:contextcheck // the poller serves every subscription of the instance, on the watcher's own context, not this one's
	out := make(chan *Sale, len(ids))
	go w.serve(ctx, s, out)
	return out, nil
}

// serve sends s's sales to out, all at first and then those changed, until
// ctx ends; it owns out.
func (w *Watcher) serve(ctx context.Context, s *subscription, out chan<- *Sale) {
	defer close(out)
	defer w.remove(s)
	sent := map[int64]Sale{}
	for {
		for _, sale := range w.current(s.ids) {
			if last, ok := sent[sale.VoucherID]; ok && last == sale {
				continue
			}
			select {
			case out <- &sale:
				sent[sale.VoucherID] = sale
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
			return
		}
	}
}

// current is what ids stand at now.
func (w *Watcher) current(ids []int64) []Sale {
	now := w.cfg.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Sale, 0, len(ids))
	for _, id := range ids {
		if f := w.sales[id]; f != nil {
			out = append(out, Sale{VoucherID: id, Stock: f.stock, State: stateOf(now, f.begin, f.end, f.stock)})
		}
	}
	return out
}

// stateOf is a sale's state at now.
func stateOf(now, begin, end time.Time, stock int) enum.SaleState {
	switch {
	case now.Before(begin):
		return enum.SaleUpcoming
	case !now.Before(end):
		return enum.SaleEnded
	case stock <= 0:
		return enum.SaleSoldOut
	default:
		return enum.SaleOnSale
	}
}

// add registers s, starting from MySQL's values for sales not followed yet
// (the first poll replaces them with Redis's), and starts the poller.
func (w *Watcher) add(s *subscription, rows []*ent.SeckillVoucher) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range rows {
		f := w.sales[r.ID]
		if f == nil {
			f = &followed{begin: r.BeginTime, end: r.EndTime, stock: r.Stock, subs: map[*subscription]struct{}{}}
			f.state = stateOf(w.cfg.Now(), f.begin, f.end, f.stock)
			w.sales[r.ID] = f
		}
		f.subs[s] = struct{}{}
	}
	if !w.polling {
		w.polling = true
		go w.poll()
	}
}

// remove forgets s, and the sales nobody else follows.
func (w *Watcher) remove(s *subscription) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range s.ids {
		if f := w.sales[id]; f != nil {
			delete(f.subs, s)
			if len(f.subs) == 0 {
				delete(w.sales, id)
			}
		}
	}
}

// poll reads the followed sales every tick until none is followed.
func (w *Watcher) poll() {
	t := time.NewTicker(w.cfg.Every)
	defer t.Stop()
	for {
		w.mu.Lock()
		ids := make([]int64, 0, len(w.sales))
		for id := range w.sales {
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			w.polling = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		if err := w.read(ids); err != nil && w.life.Err() == nil {
			w.cfg.Log.Warn("stockwatch: reading the sales failed; retrying at the next tick", "sales", len(ids), "err", err)
		}
		select {
		case <-t.C:
		case <-w.life.Done():
			w.mu.Lock()
			w.polling = false
			w.mu.Unlock()
			return
		}
	}
}

// read reads ids' Redis states in one round trip and wakes the subscribers
// of those that changed. A sale whose state Redis lost keeps its last
// values until the next attempt to buy rebuilds it.
func (w *Watcher) read(ids []int64) error {
	ctx, cancel := context.WithTimeout(w.life, w.cfg.Every)
	defer cancel()
	pipe := w.cfg.Redis.Pipeline()
	cmds := make([]*redis.SliceCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HMGet(ctx, seckill.KeysOf(w.cfg.Prefix, id).State, "stock", "begin", "end")
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	now := w.cfg.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, id := range ids {
		f := w.sales[id]
		if f == nil {
			continue
		}
		stock, begin, end, ok := parseState(cmds[i].Val())
		if !ok { // lost by Redis: the last values stand
			stock, begin, end = f.stock, f.begin, f.end
		}
		state := stateOf(now, begin, end, stock)
		changed := f.stock != stock || !f.begin.Equal(begin) || !f.end.Equal(end) || f.state != state
		f.stock, f.begin, f.end, f.state = stock, begin, end, state
		if changed {
			for s := range f.subs {
				select {
				case s.wake <- struct{}{}:
				default: // already woken
				}
			}
		}
	}
	return nil
}

// parseState reads HMGET stock begin end of a sale's state hash.
func parseState(vals []any) (stock int, begin, end time.Time, ok bool) {
	if len(vals) != 3 || vals[0] == nil {
		return 0, time.Time{}, time.Time{}, false
	}
	stock, err1 := strconv.Atoi(fmt.Sprint(vals[0]))
	b, err2 := strconv.ParseInt(fmt.Sprint(vals[1]), 10, 64)
	e, err3 := strconv.ParseInt(fmt.Sprint(vals[2]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, time.Time{}, time.Time{}, false
	}
	return stock, time.UnixMilli(b), time.UnixMilli(e), true
}

func dedupe(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
