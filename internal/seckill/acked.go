package seckill

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/lua"
)

var lostScript = lua.Script("seckill_lost")

// An acknowledged admission lives only in Redis until a consumer persists
// it. Redis can lose it whole (a failover to a replica that never got it, a
// restart without persistence): buyer entry, stream entry and stock change
// go together, so no trace is left for the reconciliation job and the order
// would simply be gone, order(id) null and its unit sold again. Without
// WaitReplicas, the instance that acknowledged it therefore keeps it in this
// ledger until MySQL has it, and ends it visibly (REJECTED, reason "lost",
// announced on orderUpdates) once it finds it neither in MySQL nor held by
// its buyer. The ledger lives in the instance's memory: what an instance
// acknowledged and then lost with its own process is not watched.
const (
	ackCheckAfter = time.Second // younger admissions are not looked at: a consumer is on them
	ackCheckEvery = time.Second
	ackCheckBatch = 1000
	ackLedgerCap  = 100_000
)

type ackEntry struct {
	voucher, user int64
	at            time.Time
}

type ackLedger struct {
	s     *Service
	every time.Duration // ackCheckEvery; tests set their own before the first admission

	mu      sync.Mutex
	entries map[int64]ackEntry // by order id
	running bool
	cancel  context.CancelFunc
	full    bool // warned that the cap was reached
}

// newAckLedger returns nil when WaitReplicas makes acknowledgements durable.
func newAckLedger(s *Service) *ackLedger {
	if s.replicas != nil {
		return nil
	}
	return &ackLedger{s: s, every: ackCheckEvery, entries: map[int64]ackEntry{}}
}

// note keeps an acknowledged admission until it is seen persisted, and
// starts the checks when none run.
func (l *ackLedger) note(voucherID, userID, orderID int64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.entries) >= ackLedgerCap {
		if !l.full {
			l.full = true
			l.s.log.Warn("too many acknowledged flash-sale orders not yet persisted to watch them all; a lost one may go unnoticed", "watched", len(l.entries))
		}
		return
	}
	l.full = false
	l.entries[orderID] = ackEntry{voucher: voucherID, user: userID, at: time.Now()}
	if !l.running {
		l.running = true
		ctx, cancel := context.WithCancel(context.Background())
		l.cancel = cancel
		go l.loop(ctx)
	}
}

// stop ends the checks and forgets the admissions (the consumers' Stop).
func (l *ackLedger) stop() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running {
		l.cancel()
		l.running = false
	}
	l.entries = map[int64]ackEntry{}
}

// watched is how many acknowledged admissions wait to be seen persisted.
func (l *ackLedger) watched() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// loop checks the ledger every l.every until it is empty or stopped.
func (l *ackLedger) loop(ctx context.Context) {
	t := time.NewTicker(l.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.check(ctx, time.Now())
		l.mu.Lock()
		if ctx.Err() == nil && len(l.entries) == 0 {
			l.running = false
			l.cancel()
		}
		l.mu.Unlock()
	}
}

// check looks at the admissions acknowledged before now-ackCheckAfter, in
// batches of ackCheckBatch (one MySQL query and one Redis round per batch
// and node).
func (l *ackLedger) check(ctx context.Context, now time.Time) {
	var ids []int64
	l.mu.Lock()
	for id, e := range l.entries {
		if now.Sub(e.at) >= ackCheckAfter {
			ids = append(ids, id)
		}
	}
	l.mu.Unlock()
	for len(ids) > 0 && ctx.Err() == nil {
		n := min(len(ids), ackCheckBatch)
		l.checkBatch(ctx, ids[:n])
		ids = ids[n:]
	}
}

// checkBatch looks at these admissions: MySQL first (persisted: forgotten),
// then Redis (held by its buyer: still on its way; rejected: ended already),
// then MySQL again for those Redis no longer holds (a cancellation releases
// the buyer only after MySQL has the order), and what is in neither is
// recorded lost.
func (l *ackLedger) checkBatch(ctx context.Context, these []int64) {
	due := make(map[int64]ackEntry, len(these))
	l.mu.Lock()
	for _, id := range these {
		if e, ok := l.entries[id]; ok {
			due[id] = e
		}
	}
	l.mu.Unlock()
	if len(due) == 0 || l.forgetPersisted(ctx, due) != nil {
		return
	}
	ids := make([]int64, 0, len(due))
	for id := range due {
		ids = append(ids, id)
	}
	held := make([]*redis.StringCmd, len(ids))
	marked := make([]*redis.BoolCmd, len(ids))
	rejected := make([]*redis.BoolCmd, len(ids))
	_, _ = l.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			k := KeysOf(l.s.prefix, due[id].voucher)
			held[i] = p.HGet(ctx, k.Buyers, strconv.FormatInt(due[id].user, 10))
			marked[i] = p.HExists(ctx, k.Buyers, "0")
			rejected[i] = p.HExists(ctx, k.Rejected, strconv.FormatInt(id, 10))
		}
		return nil
	})
	gone := map[int64]ackEntry{}
	unmarked := map[int64]bool{} // sales whose buyers hash is missing
	for i, id := range ids {
		v, err := held[i].Result()
		if err != nil && !errors.Is(err, redis.Nil) || marked[i].Err() != nil || rejected[i].Err() != nil {
			continue // Redis unreachable: look again next time
		}
		switch {
		case rejected[i].Val():
			l.forget(id) // ended, and its buyer told, by whoever rejected it
		case v == strconv.FormatInt(id, 10):
			// held: a consumer will persist it
		case !marked[i].Val():
			unmarked[due[id].voucher] = true // judged once the sale is rebuilt
		default:
			gone[id] = due[id]
		}
	}
	l.rebuild(ctx, unmarked)
	if len(gone) == 0 || l.forgetPersisted(ctx, gone) != nil {
		return
	}
	l.endLost(ctx, gone)
}

// rebuild restores the sales Redis lost whole from MySQL and their streams
// (as the next purchase would): their lost orders are then told apart at
// the next look, even if nobody buys any more.
func (l *ackLedger) rebuild(ctx context.Context, sales map[int64]bool) {
	if l.s.locks == nil {
		return
	}
	for v := range sales {
		if err := l.s.rebuild(ctx, v); err != nil && ctx.Err() == nil {
			l.s.log.Warn("cannot rebuild a flash sale Redis lost; its acknowledged orders are looked at again later", "voucher", v, "err", err)
		}
	}
}

// endLost records as lost, and announces, the orders found neither in MySQL
// nor in Redis.
func (l *ackLedger) endLost(ctx context.Context, gone map[int64]ackEntry) {
	var lost []Rejected
	for id, e := range gone {
		k := KeysOf(l.s.prefix, e.voucher)
		n, err := lostScript.Run(ctx, l.s.rdb, []string{k.State, k.Buyers, k.Rejected}, e.user, id, stateTTL.Milliseconds()).Int64()
		if err != nil {
			continue
		}
		if n != 0 {
			l.forget(id)
		}
		if n == 1 {
			l.s.log.Error("an acknowledged flash-sale order was lost by Redis before it was persisted; it is ended as rejected (lost)",
				"voucher", e.voucher, "order", id, "user", e.user)
			lost = append(lost, Rejected{OrderID: id, UserID: e.user, VoucherID: e.voucher, Reason: ReasonLost})
		}
	}
	if h := l.s.onRejected; h != nil && len(lost) > 0 {
		h(ctx, lost)
	}
}

// forgetPersisted drops from the ledger, and from these, the orders MySQL
// has. An id MySQL has for another buyer is not this order: a counter
// Redis lost too handed it out again (ARCHITECTURE 6.4a).
func (l *ackLedger) forgetPersisted(ctx context.Context, these map[int64]ackEntry) error {
	ids := make([]int64, 0, len(these))
	for id := range these {
		ids = append(ids, id)
	}
	found, err := l.s.db.Order.Query().Where(entorder.IDIn(ids...)).Select(entorder.FieldID, entorder.FieldUserID).All(ctx)
	if err != nil {
		if ctx.Err() == nil {
			l.s.log.Warn("cannot look up acknowledged flash-sale orders; looking again later", "err", err)
		}
		return err
	}
	for _, o := range found {
		if o.UserID == these[o.ID].user {
			delete(these, o.ID)
			l.forget(o.ID)
		}
	}
	return nil
}

func (l *ackLedger) forget(id int64) {
	l.mu.Lock()
	delete(l.entries, id)
	l.mu.Unlock()
}
