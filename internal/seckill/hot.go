package seckill

import (
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/lua"
)

// Hot and cold sales: how an instance consumes thousands of sales with a
// bounded number of Redis connections.
//
// A blocking XREADGROUP holds a pooled connection for as long as it waits,
// and on a Redis Cluster one read cannot name the streams of several sales
// (each sale's keys hash on its own tag). So at most MaxHot sales — those
// with entries lately — have a reader of their own that blocks (work); every
// other watched sale is cold: one poller reads them all, every Poll, with
// non-blocking XREADGROUPs pipelined (go-redis splits a Cluster pipeline by
// node), each after a GET of the sale's epoch in the same pipeline (so a
// polled batch, too, notes the epoch before it is read: Redis runs one
// connection's commands in order, and both keys share the slot). A cold sale
// whose read yields entries becomes hot when a place is free (else its batch
// is persisted by one of MaxHot handlers, and the hot sale idle the longest
// is asked to give its place up); a hot sale with no entry for HotIdle, or
// over, goes back to the poller. Every ClaimEvery the poller also takes over
// idle entries (XAUTOCLAIM) of each cold sale and records its backlog (XLEN),
// in the same pipelines (a share of the sales in each round).
//
// Connections: MaxHot blocked readers + MaxHot handlers + the poller + the
// discovery, each holding at most one at a time (ConnBound; per node on a
// Cluster). Redis cost of an idle cold sale, per instance: 2 commands per
// Poll (GET, XREADGROUP) and 2 per ClaimEvery (XAUTOCLAIM, XLEN), all
// pipelined — 3 a second with the defaults, in one round trip per 512 sales
// and node. A cold sale's first order is read at most Poll plus a round's
// length after it is accepted.
//
// Dropping: once a sale is over by more than dropGrace and its stream is
// empty with nothing pending, seckill_drop.lua deletes the stream (and its
// group) and the sale is no longer watched: finished sales cost nothing.

// DefaultMaxHot is ConsumerConfig.MaxHot's default.
const DefaultMaxHot = 16

// ConnBound is the most pooled Redis connections the consumers of one
// instance hold at once (per node on a Cluster), for ConsumerConfig.MaxHot.
func ConnBound(maxHot int) int { return 2*maxHot + 2 }

// dropGrace is how long after a sale's end its drained stream is kept.
// Admissions add entries only while the sale is open by Redis's clock, which
// seckill_drop.lua checks too: the grace only spares a stream that may still
// be read by a consumer that saw the sale open.
const dropGrace = time.Minute

// pollChunk bounds the sales of one pipelined round trip.
const pollChunk = 512

var dropStream = lua.Script("seckill_drop")

// sale is one watched sale.
type sale struct {
	id  int64
	k   Keys
	end time.Time // zero: unknown
	// hot: it has its own blocking reader (work); busy: a cold batch of it
	// is being persisted. Either way the poller leaves it alone.
	hot, busy bool
	demote    bool      // asked to give its hot place up
	lastEntry time.Time // when entries were last read from it
}

// poll reads the cold sales every Poll until Stop. Each round also claims
// the idle entries of, and records the backlog of, the share of them whose
// turn it is, so that each is claimed every ClaimEvery and a round's length
// stays even.
func (c *consumers) poll() {
	t := time.NewTicker(c.cfg.Poll)
	defer t.Stop()
	turns := max(int64(c.cfg.ClaimEvery/c.cfg.Poll), 1)
	for round := int64(0); c.soft.Err() == nil; round++ {
		c.pollRound(turns, round%turns)
		select {
		case <-c.soft.Done():
			return
		case <-t.C:
		}
	}
}

// cold returns the sales the poller reads now.
func (c *consumers) cold() []*sale {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*sale, 0, len(c.sales))
	for _, sl := range c.sales {
		if !sl.hot && !sl.busy {
			out = append(out, sl)
		}
	}
	return out
}

func chunks(all []*sale) [][]*sale {
	var out [][]*sale
	for len(all) > 0 {
		n := min(len(all), pollChunk)
		out = append(out, all[:n])
		all = all[n:]
	}
	return out
}

// epochOfCmd reads a pipelined GET of a sale's epoch like epochOf.
func epochOfCmd(cmd *redis.StringCmd) string {
	e, err := cmd.Result()
	switch {
	case errors.Is(err, redis.Nil):
		return ""
	case err != nil:
		return unknownEpoch
	}
	return e
}

// polled is one cold sale's commands in a round.
type polled struct {
	epoch *redis.StringCmd
	read  *redis.XStreamSliceCmd
	claim *redis.XAutoClaimCmd // nil: not its turn
	len   *redis.IntCmd
}

// pollRound reads every cold sale once, without blocking; those whose id
// is turn modulo turns also have their idle entries claimed and their
// backlog recorded, and, when finished and drained, their stream dropped.
// The commands run under the hard context, and what they deliver is handled
// even when stopping (as a blocking read's is).
func (c *consumers) pollRound(turns, turn int64) {
	now := c.s.now()
	for _, chunk := range chunks(c.cold()) {
		if c.soft.Err() != nil {
			return
		}
		cmds := make([]polled, len(chunk))
		_, _ = c.s.rdb.Pipelined(c.hard, func(p redis.Pipeliner) error {
			for i, sl := range chunk {
				// The epoch first: Redis runs the sale's commands in order
				// (one connection, one slot), so both batches note it before
				// they are read.
				cmds[i].epoch = p.Get(c.hard, sl.k.Epoch)
				cmds[i].read = p.XReadGroup(c.hard, &redis.XReadGroupArgs{
					Group: Group, Consumer: c.cfg.Name, Streams: []string{sl.k.Orders, ">"},
					Count: c.cfg.Batch, Block: -1, // -1: no BLOCK argument
				})
				if sl.id%turns == turn {
					cmds[i].claim = p.XAutoClaim(c.hard, &redis.XAutoClaimArgs{
						Stream: sl.k.Orders, Group: Group, Consumer: c.cfg.Name,
						MinIdle: c.cfg.ClaimIdle, Start: "0-0", Count: c.cfg.Batch,
					})
					cmds[i].len = p.XLen(c.hard, sl.k.Orders)
				}
			}
			return nil
		})
		failed, lastErr := 0, error(nil)
		var done []*sale
		for i, sl := range chunk {
			drop, err := c.polledSale(sl, cmds[i], now)
			if err != nil {
				failed, lastErr = failed+1, err
			}
			if drop {
				done = append(done, sl)
			}
		}
		if failed > 0 && c.soft.Err() == nil {
			c.s.log.Warn("reading order streams", "consumer", c.cfg.Name, "failed", failed, "of", len(chunk), "err", lastErr)
		}
		for _, sl := range done {
			c.drop(sl)
		}
	}
}

// polledSale acts on one sale's answers in a round: dispatches what it
// read, records its backlog, and reports whether its stream may be dropped.
func (c *consumers) polledSale(sl *sale, cm polled, now time.Time) (drop bool, err error) {
	var msgs, claimed []redis.XMessage
	res, err := cm.read.Result()
	switch {
	case errors.Is(err, redis.Nil):
		err = nil
	case isNoGroup(err): // the stream was lost, or dropped: recreate it
		if _, err := c.regroup(sl); err != nil && c.soft.Err() == nil {
			return false, err
		}
		return false, nil
	case err != nil:
	default:
		for _, st := range res {
			msgs = append(msgs, st.Messages...)
		}
	}
	if cm.claim != nil {
		if m, _, err := cm.claim.Result(); err == nil {
			claimed = m
		}
		g := c.s.metrics.pending.WithLabelValues(strconv.FormatInt(sl.id, 10))
		n, lenErr := cm.len.Result()
		if lenErr != nil {
			g.Set(nanGauge)
		} else {
			g.Set(float64(n))
		}
		drop = lenErr == nil && n == 0 && len(msgs)+len(claimed) == 0 && finished(c.endOf(sl), now)
	}
	if len(msgs)+len(claimed) > 0 {
		c.dispatch(sl, msgs, claimed, epochOfCmd(cm.epoch))
	}
	return drop, err
}

// dispatch hands a cold sale's batches, read with epoch (msgs: new entries;
// claimed: taken over by XAUTOCLAIM), to a new hot reader when it has new
// entries and a place is free, else to a handler.
func (c *consumers) dispatch(sl *sale, msgs, claimed []redis.XMessage, epoch string) {
	log := c.s.log.With("voucher", sl.id, "consumer", c.cfg.Name)
	c.mu.Lock()
	if len(msgs) > 0 {
		sl.lastEntry = time.Now()
		if c.hot < c.cfg.MaxHot && c.soft.Err() == nil {
			sl.hot = true
			c.hot++
			c.mu.Unlock()
			c.wg.Go(func() { c.work(sl, msgs, claimed, epoch) })
			return
		}
		c.askDemotionLocked()
	}
	sl.busy = true
	c.mu.Unlock()
	c.wg.Go(func() {
		c.handlers <- struct{}{}
		defer func() { <-c.handlers }()
		c.handle(sl.k, sl.id, msgs, epoch, log)
		if len(claimed) > 0 {
			c.claimed(sl.k, sl.id, claimed, epoch, log)
		}
		c.refreshPending(sl.k, sl.id)
		c.mu.Lock()
		sl.busy = false
		c.mu.Unlock()
	})
}

// askDemotionLocked asks the hot sale with no entries for the longest (at
// least one Poll) to go back to the poller, freeing its place.
func (c *consumers) askDemotionLocked() {
	var oldest *sale
	for _, sl := range c.sales {
		if sl.hot && !sl.demote && (oldest == nil || sl.lastEntry.Before(oldest.lastEntry)) {
			oldest = sl
		}
	}
	if oldest != nil && time.Since(oldest.lastEntry) > c.cfg.Poll {
		oldest.demote = true
	}
}

// idle reports whether a hot sale, whose read just found nothing, should go
// back to the poller: asked to, idle for HotIdle, or over (no admission adds
// entries to it any more; the poller drops its stream once drained).
func (c *consumers) idle(sl *sale) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	over := !sl.end.IsZero() && c.s.now().After(sl.end)
	return sl.demote || over || time.Since(sl.lastEntry) >= c.cfg.HotIdle
}

// endOf is sl's end time (zero: unknown).
func (c *consumers) endOf(sl *sale) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sl.end
}

func (c *consumers) sawEntries(sl *sale) {
	c.mu.Lock()
	sl.lastEntry = time.Now()
	c.mu.Unlock()
}

// cool ends a hot sale's reader.
func (c *consumers) cool(sl *sale) {
	c.mu.Lock()
	sl.hot, sl.demote = false, false
	c.hot--
	c.mu.Unlock()
}

// regroup answers NOGROUP on sl's stream: a finished sale's stream that is
// gone was dropped (by another instance): it is no longer watched (keep
// false). Otherwise the stream was lost, or got entries after it was
// dropped: its group is recreated, reading from the start.
func (c *consumers) regroup(sl *sale) (keep bool, err error) {
	if finished(c.endOf(sl), c.s.now()) {
		n, err := c.s.rdb.XLen(c.hard, sl.k.Orders).Result()
		if err != nil {
			return true, err
		}
		if n == 0 {
			c.unwatch(sl)
			return false, nil
		}
	}
	return true, ensureGroup(c.hard, c.s.rdb, sl.k.Orders)
}

// finished reports whether a sale ending at end (zero: unknown) is over by
// more than dropGrace at now.
func finished(end, now time.Time) bool {
	return !end.IsZero() && now.After(end.Add(dropGrace))
}

// drop deletes a finished sale's drained stream and stops watching it.
func (c *consumers) drop(sl *sale) {
	n, err := dropStream.Run(c.hard, c.s.rdb, []string{sl.k.Orders, sl.k.State}, c.endOf(sl).UnixMilli(), dropGrace.Milliseconds()).Int()
	if err != nil {
		if c.soft.Err() == nil {
			c.s.log.Warn("cannot drop a finished sale's stream", "voucher", sl.id, "err", err)
		}
		return
	}
	if n == 1 {
		c.s.log.Info("dropped the drained order stream of a finished sale", "voucher", sl.id)
		c.unwatch(sl)
	}
}

// unwatch stops consuming sl (its stream is gone).
func (c *consumers) unwatch(sl *sale) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sales[sl.id] == sl {
		delete(c.sales, sl.id)
	}
	c.dropped[sl.id] = sl.end
	c.s.metrics.pending.DeleteLabelValues(strconv.FormatInt(sl.id, 10))
}

// undrop forgets that voucherID's stream was dropped (it is published again).
func (c *consumers) undrop(voucherID int64) {
	c.mu.Lock()
	delete(c.dropped, voucherID)
	c.mu.Unlock()
}
