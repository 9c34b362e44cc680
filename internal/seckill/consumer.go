package seckill

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
)

// ConsumerConfig tunes the stream consumers; zero values take the defaults.
type ConsumerConfig struct {
	Batch         int64         // entries per XREADGROUP (200)
	Block         time.Duration // how long a hot sale's read waits for new entries (2 s)
	ClaimIdle     time.Duration // an entry pending this long with a silent consumer is taken over (30 s)
	ClaimEvery    time.Duration // how often each sale is looked at for such entries (2 s)
	MaxDeliveries int64         // an entry delivered more often goes to the dead-letter stream (5)
	Refresh       time.Duration // how often the list of sales is re-read from MySQL (2 s)
	MinBackoff    time.Duration // first wait after a failed batch (100 ms), doubling...
	MaxBackoff    time.Duration // ...up to this (5 s)
	// MaxHot bounds the sales read by their own blocking XREADGROUP, and
	// the batches of the other sales persisted at once (DefaultMaxHot): the
	// consumers hold at most ConnBound(MaxHot) pooled connections, however
	// many sales they consume (hot.go).
	MaxHot int
	// Poll is how often the other (cold) sales are read, all of them in
	// pipelined non-blocking rounds (1 s, or Block when shorter): the most a
	// cold sale's first order waits before it is read.
	Poll time.Duration
	// HotIdle is how long a hot sale may go without a new entry before it
	// gives its blocking reader up and is polled again (30 s).
	HotIdle time.Duration
	// Name of this instance's consumer (random when empty).
	Name string
}

func (c *ConsumerConfig) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if c.Batch <= 0 {
		c.Batch = 200
	}
	if c.MaxDeliveries <= 0 {
		c.MaxDeliveries = 5
	}
	if c.MaxHot <= 0 {
		c.MaxHot = DefaultMaxHot
	}
	def(&c.Block, 2*time.Second)
	def(&c.ClaimIdle, 30*time.Second)
	def(&c.ClaimEvery, 2*time.Second)
	def(&c.Refresh, 2*time.Second)
	def(&c.MinBackoff, 100*time.Millisecond)
	def(&c.MaxBackoff, 5*time.Second)
	def(&c.Poll, min(time.Second, c.Block))
	def(&c.HotIdle, 30*time.Second)
	if c.Name == "" {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		c.Name = "c-" + hex.EncodeToString(b)
	}
}

// consumers consume every flash sale of the last day (and older ones with a
// backlog) on this instance: up to MaxHot "hot" sales, those with entries
// lately, each with its own blocking reader; all others by one poller
// (hot.go). Every instance runs them; they share each stream's consumer group.
type consumers struct {
	s   *Service
	cfg ConsumerConfig

	mu sync.Mutex
	// sales are the sales watched (being consumed).
	sales map[int64]*sale
	hot   int // sales with a blocking reader
	// dropped are sales whose drained stream was deleted (by end time):
	// not watched again unless their stream gets entries (watchOldBacklogs).
	dropped map[int64]time.Time
	// handlers bounds the cold sales' batches persisted at once.
	handlers chan struct{}
	// oldBacklogs are the sales that ended more than stateTTL ago with
	// orders still in their stream (their buyers hashes are gone, so
	// BacklogOrders reads the streams to show those orders PENDING).
	oldBacklogs map[int64]bool
	started     bool
	// soft stops reading new batches; hard abandons a batch still being retried.
	soft, hard         context.Context
	stopSoft, stopHard context.CancelFunc
	wg                 sync.WaitGroup
}

func newConsumers(s *Service) *consumers {
	return &consumers{s: s, cfg: s.cfg.Consumer, sales: map[int64]*sale{}, dropped: map[int64]time.Time{},
		handlers: make(chan struct{}, s.cfg.Consumer.MaxHot), oldBacklogs: map[int64]bool{}}
}

// Start runs the consumers until Stop (and may be called again after it).
func (s *Service) Start() {
	c := s.consumers
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started {
		return
	}
	c.started = true
	c.hard, c.stopHard = context.WithCancel(context.Background())
	c.soft, c.stopSoft = context.WithCancel(c.hard)
	c.wg.Go(c.discover)
	c.wg.Go(c.poll)
}

// Stop lets every reader finish the batch it holds, then returns; batches
// still failing when ctx ends are abandoned (they stay pending in Redis and
// another instance, or this one after a restart, takes them over).
func (s *Service) Stop(ctx context.Context) {
	s.acked.stop() // the ledger lives in memory: a stopping instance stops watching (acked.go)
	c := s.consumers
	c.mu.Lock()
	if !c.started {
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	c.stopSoft()
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		c.stopHard()
		<-done
	}
	c.stopHard()
	c.mu.Lock()
	c.started, c.sales, c.hot = false, map[int64]*sale{}, 0
	c.mu.Unlock()
}

// watch consumes voucher id (ending at end; zero: unknown) from the next poll on.
func (c *consumers) watch(id int64, end time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watchLocked(id, end)
}

func (c *consumers) watchLocked(id int64, end time.Time) {
	if !c.started || c.soft.Err() != nil {
		return
	}
	if sl, ok := c.sales[id]; ok {
		if !end.IsZero() {
			sl.end = end
		}
		return
	}
	c.sales[id] = &sale{id: id, k: KeysOf(c.s.prefix, id), end: end}
}

// discover watches every sale that ended less than a day ago (the sale
// state's lifetime) and whose stream was not dropped since, re-reading the
// list from MySQL periodically so sales created on other instances are
// picked up; and, at start and every 30 refreshes, older or dropped sales
// whose stream holds orders (a backlog left by an outage must be persisted,
// however late).
func (c *consumers) discover() {
	t := time.NewTicker(c.cfg.Refresh)
	defer t.Stop()
	for round := 0; ; round++ {
		cutoff := c.s.now().Add(-stateTTL)
		svs, err := c.s.db.SeckillVoucher.Query().Where(entseckillvoucher.EndTimeGT(cutoff)).
			Select(entseckillvoucher.FieldID, entseckillvoucher.FieldEndTime).All(c.soft)
		if err != nil && c.soft.Err() == nil {
			c.s.log.Warn("cannot list flash sales; keeping the current consumers", "err", err)
		}
		c.mu.Lock()
		for _, sv := range svs {
			if _, gone := c.dropped[sv.ID]; !gone {
				c.watchLocked(sv.ID, sv.EndTime)
			}
		}
		for id, end := range c.dropped {
			if end.Before(cutoff) {
				delete(c.dropped, id) // older sales are checked for a backlog anyway
			}
		}
		c.mu.Unlock()
		if round%30 == 0 {
			c.watchOldBacklogs(cutoff)
		}
		select {
		case <-c.soft.Done():
			return
		case <-t.C:
		}
	}
}

// watchOldBacklogs watches each sale that ended before cutoff, or whose
// stream was dropped, and whose stream holds entries.
func (c *consumers) watchOldBacklogs(cutoff time.Time) {
	svs, err := c.s.db.SeckillVoucher.Query().Where(entseckillvoucher.EndTimeLTE(cutoff)).
		Select(entseckillvoucher.FieldID, entseckillvoucher.FieldEndTime).All(c.soft)
	if err != nil {
		return
	}
	c.mu.Lock()
	type cand struct {
		id  int64
		end time.Time
		old bool
	}
	var todo []cand
	for _, sv := range svs {
		if c.sales[sv.ID] == nil {
			todo = append(todo, cand{sv.ID, sv.EndTime, true})
		}
	}
	for id, end := range c.dropped {
		todo = append(todo, cand{id, end, false})
	}
	c.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	lens := make([]*redis.IntCmd, len(todo))
	_, err = c.s.rdb.Pipelined(c.soft, func(p redis.Pipeliner) error {
		for i, s := range todo {
			lens[i] = p.XLen(c.soft, KeysOf(c.s.prefix, s.id).Orders)
		}
		return nil
	})
	if err != nil && c.soft.Err() == nil {
		c.s.log.Warn("cannot check finished sales for a backlog", "err", err)
	}
	for i, s := range todo {
		if lens[i].Val() == 0 {
			continue
		}
		c.mu.Lock()
		if s.old {
			c.s.log.Warn("persisting the backlog of a sale that ended more than a day ago", "voucher", s.id, "orders", lens[i].Val())
			c.oldBacklogs[s.id] = true
		} else {
			c.s.log.Warn("the dropped stream of a finished sale has entries again; consuming it", "voucher", s.id, "orders", lens[i].Val())
		}
		delete(c.dropped, s.id)
		c.watchLocked(s.id, s.end)
		c.mu.Unlock()
	}
}

// work reads a hot sale's stream with blocking reads, after handling msgs
// (the batch that made it hot) and claimed (entries the same poll took
// over), both read with epoch, until Stop, until it has had no new entry for
// HotIdle or is over, or until asked to give its place up.
func (c *consumers) work(sl *sale, msgs, claimed []redis.XMessage, epoch string) {
	k, voucherID := sl.k, sl.id
	log := c.s.log.With("voucher", voucherID, "consumer", c.cfg.Name)
	defer c.cool(sl)
	c.handle(k, voucherID, msgs, epoch, log)
	if len(claimed) > 0 {
		c.claimed(k, voucherID, claimed, epoch, log)
	}
	c.refreshPending(k, voucherID)
	backoff := newBackoff(c.cfg)
	var lastClaim time.Time
	groupReady := true // the poller just read it
	for c.soft.Err() == nil {
		if !groupReady {
			keep, err := c.regroup(sl)
			if !keep {
				return // dropped
			}
			if err != nil {
				if c.soft.Err() == nil {
					log.Warn("order stream unavailable", "err", err)
					backoff.wait(c.soft)
				}
				continue
			}
			groupReady = true
		}
		if time.Since(lastClaim) >= c.cfg.ClaimEvery {
			lastClaim = time.Now()
			c.claim(k, voucherID, log)
		}
		// BLOCK rather than polling, so a hot sale's orders are read at
		// once; at most MaxHot sales do so (each holds one pooled
		// connection while blocked), and Block bounds how long Stop waits.
		// The read runs under the hard context: a read cut off by Stop after
		// Redis delivered would leave entries pending with no one to handle them.
		epoch := c.readEpoch(k)
		res, err := c.s.rdb.XReadGroup(c.hard, &redis.XReadGroupArgs{
			Group: Group, Consumer: c.cfg.Name, Streams: []string{k.Orders, ">"},
			Count: c.cfg.Batch, Block: c.cfg.Block,
		}).Result()
		switch {
		case errors.Is(err, redis.Nil):
			backoff.reset()
			c.refreshPending(k, voucherID)
			if c.idle(sl) {
				return
			}
			continue
		case err != nil:
			if c.soft.Err() != nil {
				return
			}
			if isNoGroup(err) { // the stream was lost (or dropped): recreate it
				groupReady = false
				continue
			}
			log.Warn("reading the order stream", "err", err)
			backoff.wait(c.soft)
			continue
		}
		backoff.reset()
		c.sawEntries(sl)
		for _, st := range res {
			c.handle(k, voucherID, st.Messages, epoch, log)
		}
		c.refreshPending(k, voucherID)
	}
}

func isNoGroup(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOGROUP") }

// claim takes over entries another consumer left pending for ClaimIdle (it
// died or hangs): those delivered more than MaxDeliveries times go to the
// dead-letter stream, the rest are persisted here.
func (c *consumers) claim(k Keys, voucherID int64, log *slog.Logger) {
	epoch := c.readEpoch(k)
	msgs, _, err := c.s.rdb.XAutoClaim(c.hard, &redis.XAutoClaimArgs{
		Stream: k.Orders, Group: Group, Consumer: c.cfg.Name,
		MinIdle: c.cfg.ClaimIdle, Start: "0-0", Count: c.cfg.Batch,
	}).Result()
	if err != nil || len(msgs) == 0 {
		if err != nil && c.soft.Err() == nil && !isNoGroup(err) {
			log.Warn("claiming idle entries", "err", err)
		}
		return
	}
	c.claimed(k, voucherID, msgs, epoch, log)
}

// claimed deals with entries XAUTOCLAIM took over (read with epoch): those
// delivered more than MaxDeliveries times go to the dead-letter stream, the
// rest are persisted here.
func (c *consumers) claimed(k Keys, voucherID int64, msgs []redis.XMessage, epoch string, log *slog.Logger) {
	counts, err := c.s.rdb.XPendingExt(c.hard, &redis.XPendingExtArgs{
		Stream: k.Orders, Group: Group, Consumer: c.cfg.Name,
		Start: msgs[0].ID, End: msgs[len(msgs)-1].ID, Count: int64(len(msgs)) + c.cfg.Batch,
	}).Result()
	if err != nil {
		return // still pending with us: retried at the next claim
	}
	deliveries := make(map[string]int64, len(counts))
	for _, p := range counts {
		deliveries[p.ID] = p.RetryCount
	}
	keep := msgs[:0]
	var ended []Rejected
	for _, m := range msgs {
		if deliveries[m.ID] > c.cfg.MaxDeliveries {
			e, err := parseEntry(m)
			switch {
			case err != nil || e.voucher != voucherID:
				c.endEntry(k, voucherID, m, nil, ReasonMalformed, false, 0)
			case c.endEntry(k, voucherID, m, &e, ReasonDeliveredTooOften, true, 0):
				ended = append(ended, Rejected{OrderID: e.order, UserID: e.user, VoucherID: voucherID, Reason: ReasonDeliveredTooOften})
			}
			continue
		}
		keep = append(keep, m)
	}
	c.announceRejected(ended)
	if len(keep) > 0 {
		log.Warn("took over idle order entries", "count", len(keep))
		c.handle(k, voucherID, keep, epoch, log)
	}
}

// maxBacklogScan bounds the entries BacklogOrders reads per old sale.
const maxBacklogScan = 10_000

// BacklogOrders returns userID's orders, by voucher, still waiting in the
// streams of sales that ended more than a day ago (a backlog an outage left
// behind, being persisted now): their buyers hashes have expired, so
// HeldOrders cannot show them. Empty unless such a backlog was found.
func (s *Service) BacklogOrders(ctx context.Context, userID int64) (map[int64]int64, error) {
	c := s.consumers
	c.mu.Lock()
	ids := make([]int64, 0, len(c.oldBacklogs))
	for id := range c.oldBacklogs {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	out := map[int64]int64{}
	for _, id := range ids {
		msgs, err := s.rdb.XRangeN(ctx, KeysOf(s.prefix, id).Orders, "-", "+", maxBacklogScan).Result()
		if err != nil {
			return nil, err
		}
		if len(msgs) == 0 {
			c.mu.Lock()
			delete(c.oldBacklogs, id) // persisted: nothing left to show
			c.mu.Unlock()
			continue
		}
		for _, m := range msgs {
			if e, err := parseEntry(m); err == nil && e.user == userID && e.voucher == id {
				out[id] = e.order
			}
		}
	}
	return out, nil
}
