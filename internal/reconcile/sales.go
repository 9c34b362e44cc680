package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/seckill"
	"github.com/hmdp/hmdp/lua"
)

var (
	fixBuyer = lua.Script("reconcile_buyer")
	fixStock = lua.Script("reconcile_stock")
)

// recentSales is how long after its end a sale is still compared: as long
// as its Redis state lives (and the least a lost order's rejection is kept).
const recentSales = 24 * time.Hour

// saleLook is one look at a sale: Redis (one atomic snapshot) and then MySQL.
type saleLook struct {
	id int64
	k  seckill.Keys
	// Redis
	stock   int64
	buyers  map[int64]int64 // user -> order
	nBuyers int64           // HLEN, the sentinel included
	stream  map[int64]bool  // order ids in the stream
	xlen    int64
	epoch   string
	// MySQL
	mysqlStock int64
	byID       map[int64]*ent.Order
	live       map[int64]int64 // user -> live order
	// findings of this look, with what a repair needs
	found []saleFinding
}

type saleFinding struct {
	Finding
	// for buyers: the order id Redis held ("" none), what to hold now ("" none), unit back, reason
	held, hold string
	unit       bool
	reason     string
	delta      int64
}

func (f saleFinding) same(g saleFinding) bool {
	return f.Kind == g.Kind && f.User == g.User && f.Order == g.Order && f.Redis == g.Redis && f.MySQL == g.MySQL &&
		f.held == g.held && f.hold == g.hold
}

// sales compares the sales of opt (see the Kinds' rules).
func (j *Job) sales(ctx context.Context, opt Options, rep *Report) error {
	ids := []int64{opt.Sale}
	if opt.Sale == 0 {
		cutoff := j.cfg.Now().Add(-recentSales)
		var err error
		ids, err = j.cfg.DB.SeckillVoucher.Query().Where(entseckillvoucher.EndTimeGT(cutoff)).
			Order(ent.Asc(entseckillvoucher.FieldID)).Limit(j.cfg.MaxSales).IDs(ctx)
		if err != nil {
			return fmt.Errorf("reconcile: list sales: %w", err)
		}
	}
	first := map[int64]*saleLook{}
	for _, id := range ids {
		l, err := j.lookSale(ctx, id)
		if err != nil {
			return err
		}
		if l == nil {
			continue
		}
		rep.Sales++
		if len(l.found) > 0 {
			first[id] = l
		}
	}
	if len(first) == 0 {
		return nil
	}
	if err := j.settle(ctx); err != nil {
		return err
	}
	for _, id := range ids {
		if a := first[id]; a != nil {
			if err := j.confirmSale(ctx, opt, rep, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// confirmSale looks at a's sale again and reports (and repairs, unless a
// dry run) the findings both looks share.
func (j *Job) confirmSale(ctx context.Context, opt Options, rep *Report, a *saleLook) error {
	b, err := j.lookSale(ctx, a.id)
	if err != nil || b == nil {
		return err
	}
	for _, f := range b.found {
		seen := false
		for _, g := range a.found {
			seen = seen || f.same(g)
		}
		if !seen || (f.Kind == SaleStock && !sameRedis(a, b)) {
			continue // gone, or the sale moved between the looks: a quieter run decides
		}
		if !opt.DryRun {
			if f.Repaired, err = j.repairSale(ctx, b, f); err != nil {
				return err
			}
		}
		j.report(ctx, rep, f.Finding)
	}
	return nil
}

func sameRedis(a, b *saleLook) bool {
	return a.stock == b.stock && a.nBuyers == b.nBuyers && a.xlen == b.xlen && a.epoch == b.epoch
}

// lookSale reads sale id: Redis first (state, buyers and stream in one
// MULTI, so they agree with each other), then MySQL in one transaction; nil
// when Redis holds no state for it (the next attempt rebuilds it) or it is
// too big to compare.
func (j *Job) lookSale(ctx context.Context, id int64) (*saleLook, error) {
	k := seckill.KeysOf(j.cfg.Prefix, id)
	n, err := j.cfg.Redis.HLen(ctx, k.Buyers).Result()
	if err != nil {
		return nil, err
	}
	if n > int64(j.cfg.MaxSaleItems) {
		j.log.WarnContext(ctx, "reconcile: sale too big to compare; skipped", "sale", id, "buyers", n)
		return nil, nil
	}
	var stock *redis.StringCmd
	var buyers *redis.MapStringStringCmd
	var xlen *redis.IntCmd
	var entries *redis.XMessageSliceCmd
	var epoch *redis.StringCmd
	_, err = j.cfg.Redis.TxPipelined(ctx, func(p redis.Pipeliner) error {
		stock = p.HGet(ctx, k.State, "stock")
		buyers = p.HGetAll(ctx, k.Buyers)
		xlen = p.XLen(ctx, k.Orders)
		entries = p.XRangeN(ctx, k.Orders, "-", "+", int64(j.cfg.MaxSaleItems)+1)
		epoch = p.Get(ctx, k.Epoch)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	st, err := stock.Int64()
	if errors.Is(err, redis.Nil) || len(buyers.Val()) == 0 {
		return nil, nil // no state: rebuilt from MySQL on the next attempt
	}
	if err != nil {
		return nil, err
	}
	if len(entries.Val()) > j.cfg.MaxSaleItems {
		j.log.WarnContext(ctx, "reconcile: sale stream too long to compare; skipped", "sale", id, "entries", xlen.Val())
		return nil, nil
	}
	l := &saleLook{id: id, k: k, stock: st, buyers: map[int64]int64{}, nBuyers: int64(len(buyers.Val())),
		stream: map[int64]bool{}, xlen: xlen.Val(), epoch: epoch.Val(), byID: map[int64]*ent.Order{}, live: map[int64]int64{}}
	for u, o := range buyers.Val() {
		uid, err1 := strconv.ParseInt(u, 10, 64)
		oid, err2 := strconv.ParseInt(o, 10, 64)
		if err1 == nil && err2 == nil && uid > 0 {
			l.buyers[uid] = oid
		}
	}
	var pending []int64 // orders of stream entries
	for _, m := range entries.Val() {
		if o, err := strconv.ParseInt(fmt.Sprint(m.Values["order"]), 10, 64); err == nil {
			l.stream[o] = true
			pending = append(pending, o)
		}
	}
	err = database.WithTx(ctx, j.cfg.DB, func(tx *ent.Tx) error {
		sv, err := tx.SeckillVoucher.Get(ctx, id)
		if err != nil {
			return err
		}
		l.mysqlStock = int64(sv.Stock)
		orders, err := tx.Order.Query().Where(entorder.VoucherID(id)).Limit(j.cfg.MaxSaleItems+1).
			Select(entorder.FieldID, entorder.FieldUserID, entorder.FieldStatus, entorder.FieldVoucherID).All(ctx)
		if err != nil {
			return err
		}
		if len(orders) > j.cfg.MaxSaleItems {
			return errTooBig
		}
		for _, o := range orders {
			l.byID[o.ID] = o
			if o.Status != enum.OrderCancelled {
				l.live[o.UserID] = o.ID
			}
		}
		return nil
	})
	if errors.Is(err, errTooBig) || ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reconcile: sale %d: %w", id, err)
	}
	l.compare(pending)
	return l, nil
}

var errTooBig = errors.New("too big")

// compare finds the look's differences (the Kinds' rules).
func (l *saleLook) compare(pending []int64) {
	key := l.k.Buyers
	fid := func(v int64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	for u, o := range l.buyers {
		ord := l.byID[o]
		switch {
		case ord != nil && ord.UserID == u && ord.Status != enum.OrderCancelled:
		case l.stream[o]:
			// pending: a consumer persists or rejects it
		case ord != nil && ord.UserID == u:
			l.found = append(l.found, saleFinding{Finding: Finding{Kind: SaleBuyerOfCancelledOrder, Key: key, Sale: l.id, User: u, Order: o},
				held: fid(o), unit: true})
		default:
			f := saleFinding{Finding: Finding{Kind: SaleBuyerWithoutOrder, Key: key, Sale: l.id, User: u, Order: o},
				held: fid(o), unit: true, reason: seckill.ReasonLost}
			if live := l.live[u]; live != 0 {
				f.hold, f.reason = fid(live), ""
			}
			l.found = append(l.found, f)
		}
	}
	for u, o := range l.live {
		if _, ok := l.buyers[u]; !ok {
			l.found = append(l.found, saleFinding{Finding: Finding{Kind: SaleOrderWithoutBuyer, Key: key, Sale: l.id, User: u, Order: o},
				hold: fid(o)})
		}
	}
	if len(l.found) > 0 {
		return // the buyers' repairs move the stock: compared once they agree
	}
	unpersisted := int64(0)
	for _, o := range pending {
		if l.byID[o] == nil {
			unpersisted++
		}
	}
	want := l.mysqlStock - unpersisted
	if want >= 0 && want != l.stock {
		l.found = append(l.found, saleFinding{Finding: Finding{Kind: SaleStock, Key: l.k.State, Sale: l.id, Redis: l.stock, MySQL: want},
			delta: want - l.stock})
	}
}

// repairSale makes f's repair (see the Kinds), reporting whether Redis
// still held what was seen.
func (j *Job) repairSale(ctx context.Context, l *saleLook, f saleFinding) (bool, error) {
	k := l.k
	var n int64
	var err error
	if f.Kind == SaleStock {
		n, err = fixStock.Run(ctx, j.cfg.Redis, []string{k.State, k.Buyers, k.Orders, k.Epoch},
			l.stock, l.nBuyers, l.xlen, l.epoch, f.delta).Int64()
	} else {
		unit := "0"
		if f.unit {
			unit = "1"
		}
		n, err = fixBuyer.Run(ctx, j.cfg.Redis, []string{k.State, k.Buyers, k.Rejected},
			f.User, f.held, f.hold, unit, f.reason, recentSales.Milliseconds()).Int64()
	}
	if err != nil {
		return false, fmt.Errorf("reconcile: repair %s of sale %d: %w", f.Kind, l.id, err)
	}
	if n == 1 && f.reason != "" && j.cfg.OnRejected != nil {
		j.cfg.OnRejected(ctx, []seckill.Rejected{{OrderID: f.Order, UserID: f.User, VoucherID: l.id, Reason: f.reason}})
	}
	return n == 1, nil
}
