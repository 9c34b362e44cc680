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

	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/redis/go-redis/v9"
)

// ConsumerConfig tunes the stream consumers; zero values take the defaults.
type ConsumerConfig struct {
	Batch         int64         // entries per XREADGROUP (200)
	Block         time.Duration // how long a read waits for new entries (2 s)
	ClaimIdle     time.Duration // an entry pending this long with a silent consumer is taken over (30 s)
	ClaimEvery    time.Duration // how often each worker looks for such entries (2 s)
	MaxDeliveries int64         // an entry delivered more often goes to the dead-letter stream (5)
	Refresh       time.Duration // how often the list of sales is re-read from MySQL (2 s)
	MinBackoff    time.Duration // first wait after a failed batch (100 ms), doubling...
	MaxBackoff    time.Duration // ...up to this (5 s)
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
	def(&c.Block, 2*time.Second)
	def(&c.ClaimIdle, 30*time.Second)
	def(&c.ClaimEvery, 2*time.Second)
	def(&c.Refresh, 2*time.Second)
	def(&c.MinBackoff, 100*time.Millisecond)
	def(&c.MaxBackoff, 5*time.Second)
	if c.Name == "" {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		c.Name = "c-" + hex.EncodeToString(b)
	}
}

// consumers runs one worker per flash-sale voucher in this instance. Every
// instance runs them; they share each stream's consumer group.
type consumers struct {
	s   *Service
	cfg ConsumerConfig

	mu      sync.Mutex
	running map[int64]bool
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
	return &consumers{s: s, cfg: s.cfg.Consumer, running: map[int64]bool{}, oldBacklogs: map[int64]bool{}}
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
}

// Stop lets every worker finish the batch it holds, then returns; batches
// still failing when ctx ends are abandoned (they stay pending in Redis and
// another instance, or this one after a restart, takes them over).
func (s *Service) Stop(ctx context.Context) {
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
	c.started, c.running = false, map[int64]bool{}
	c.mu.Unlock()
}

// watch starts a worker for voucher id now rather than at the next refresh.
func (c *consumers) watch(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started || c.soft.Err() != nil || c.running[id] {
		return
	}
	c.running[id] = true
	c.wg.Go(func() { c.work(id) })
}

// discover starts a worker for every sale that ended less than a day ago
// (the sale state's lifetime), re-reading the list from MySQL periodically so
// sales created on other instances are picked up; and, at start and every
// 30 refreshes, for older sales whose stream still holds orders (a backlog
// left by an outage must be persisted, however late).
func (c *consumers) discover() {
	t := time.NewTicker(c.cfg.Refresh)
	defer t.Stop()
	for round := 0; ; round++ {
		cutoff := c.s.now().Add(-stateTTL)
		ids, err := c.s.db.SeckillVoucher.Query().
			Where(entseckillvoucher.EndTimeGT(cutoff)).IDs(c.soft)
		if err != nil && c.soft.Err() == nil {
			c.s.log.Warn("cannot list flash sales; keeping the current consumers", "err", err)
		}
		for _, id := range ids {
			c.watch(id)
		}
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

// watchOldBacklogs starts a worker for each sale that ended before cutoff and
// still has entries in its stream.
func (c *consumers) watchOldBacklogs(cutoff time.Time) {
	ids, err := c.s.db.SeckillVoucher.Query().Where(entseckillvoucher.EndTimeLTE(cutoff)).IDs(c.soft)
	if err != nil || len(ids) == 0 {
		return
	}
	c.mu.Lock()
	todo := ids[:0]
	for _, id := range ids {
		if !c.running[id] {
			todo = append(todo, id)
		}
	}
	c.mu.Unlock()
	lens := make([]*redis.IntCmd, len(todo))
	_, err = c.s.rdb.Pipelined(c.soft, func(p redis.Pipeliner) error {
		for i, id := range todo {
			lens[i] = p.XLen(c.soft, KeysOf(c.s.prefix, id).Orders)
		}
		return nil
	})
	if err != nil && c.soft.Err() == nil {
		c.s.log.Warn("cannot check finished sales for a backlog", "err", err)
	}
	for i, id := range todo {
		if lens[i].Val() > 0 {
			c.s.log.Warn("persisting the backlog of a sale that ended more than a day ago", "voucher", id, "orders", lens[i].Val())
			c.mu.Lock()
			c.oldBacklogs[id] = true
			c.mu.Unlock()
			c.watch(id)
		}
	}
}

// work consumes one voucher's stream until Stop.
func (c *consumers) work(voucherID int64) {
	k := KeysOf(c.s.prefix, voucherID)
	log := c.s.log.With("voucher", voucherID, "consumer", c.cfg.Name)
	backoff := newBackoff(c.cfg)
	var lastClaim time.Time
	groupReady := false
	for c.soft.Err() == nil {
		if !groupReady {
			if err := ensureGroup(c.soft, c.s.rdb, k.Orders); err != nil {
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
		// BLOCK rather than polling (which cost every instance ten reads a
		// second per sale): a blocked read holds one pooled connection per
		// sale consumed (sales that ended less than a day ago, or with a
		// backlog), so the pool must exceed the number of such sales
		// (redisx.PoolSize leaves 256 for them); Block bounds how long Stop
		// waits for it.
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
			continue
		case err != nil:
			if c.soft.Err() != nil {
				return
			}
			if strings.HasPrefix(err.Error(), "NOGROUP") { // the stream was lost: recreate it
				groupReady = false
				continue
			}
			log.Warn("reading the order stream", "err", err)
			backoff.wait(c.soft)
			continue
		}
		backoff.reset()
		for _, st := range res {
			c.handle(k, voucherID, st.Messages, epoch, log)
		}
		c.refreshPending(k, voucherID)
	}
}

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
		if err != nil && c.soft.Err() == nil && !strings.HasPrefix(err.Error(), "NOGROUP") {
			log.Warn("claiming idle entries", "err", err)
		}
		return
	}
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
