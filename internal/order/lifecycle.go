package order

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	entordercancel "github.com/hmdp/hmdp/ent/ordercancel"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/idgen"
	"github.com/hmdp/hmdp/lua"
)

var claimDeadlines = lua.Script("order_deadline_claim")

// DeadlineKey is the ZSET of unpaid orders by payment deadline (unix ms). A
// single key: the claim script touches nothing else, so it works on Cluster.
func DeadlineKey(prefix string) string { return prefix + "order:pay-deadline" }

// Deadline is when an unpaid order id is cancelled: its admission time (in
// the id, to the second) plus the payment window.
func (s *Service) Deadline(id int64) time.Time { return idgen.Time(id).Add(s.payTimeout) }

// Schedule puts the persisted orders in the deadline queue. Called by the
// flash-sale consumers after each batch (see Persisted); a failure is logged
// only: the sweep finds overdue orders in MySQL anyway.
func (s *Service) Schedule(ctx context.Context, ids ...int64) {
	if s.rdb == nil || len(ids) == 0 {
		return
	}
	zs := make([]redis.Z, len(ids))
	for i, id := range ids {
		zs[i] = redis.Z{Score: float64(s.Deadline(id).UnixMilli()), Member: strconv.FormatInt(id, 10)}
	}
	if err := s.rdb.ZAddNX(ctx, DeadlineKey(s.prefix), zs...).Err(); err != nil {
		s.log.WarnContext(ctx, "order: payment deadlines not queued; the sweep will cancel them", "orders", len(ids), "err", err)
	}
}

// Start runs the payment-deadline worker: it claims due orders from the
// Redis queue every PollEvery and sweeps MySQL for overdue unpaid orders
// every SweepEvery (the backstop when Redis lost the queue). Every instance
// runs one; the claim script and the conditional UPDATE make each
// cancellation happen once.
func (s *Service) Start() {
	if s.rdb == nil || s.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.run(ctx)
	}()
}

// Stop ends the worker and waits for it.
func (s *Service) Stop() {
	if s.stop != nil {
		s.stop()
		s.wg.Wait()
	}
}

func (s *Service) run(ctx context.Context) {
	poll := time.NewTicker(s.cfg.PollEvery)
	defer poll.Stop()
	sweep := time.NewTicker(s.cfg.SweepEvery)
	defer sweep.Stop()
	s.Sweep(ctx) // overdue while no instance ran
	for {
		select {
		case <-ctx.Done():
			return
		case <-poll.C:
			if _, err := s.ExpireDue(ctx); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "order: payment deadlines", "err", err)
			}
		case <-sweep.C:
			s.Sweep(ctx)
		}
	}
}

// ExpireDue claims the due orders of the queue and cancels those still
// unpaid; it returns how many it cancelled. An order whose cancellation
// failed stays queued and is claimed again after the lease.
func (s *Service) ExpireDue(ctx context.Context) (int, error) {
	ids, err := claimDeadlines.Run(ctx, s.rdb, []string{DeadlineKey(s.prefix)}, 100, s.cfg.ClaimLease.Milliseconds()).StringSlice()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range ids {
		id, err := strconv.ParseInt(m, 10, 64)
		if err == nil {
			var done bool
			if done, err = s.Expire(ctx, id); err != nil {
				s.log.WarnContext(ctx, "order: not cancelled at its deadline; retried", "order", id, "err", err)
				continue
			}
			if done {
				n++
			}
		}
		if err := s.rdb.ZRem(ctx, DeadlineKey(s.prefix), m).Err(); err != nil {
			s.log.WarnContext(ctx, "order: handled deadline not dequeued", "order", m, "err", err)
		}
	}
	return n, nil
}

// Sweep cancels the unpaid orders past their deadline that MySQL holds:
// those the queue lost. create_time is when the row was persisted, never
// before admission, so the rows it selects are all overdue. It then finishes
// the refunds left REFUNDING (see resumeRefunds).
func (s *Service) Sweep(ctx context.Context) {
	defer s.resumeRefunds(ctx)
	for {
		ids, err := s.db.Order.Query().Where(entorder.Status(enum.OrderUnpaid),
			entorder.CreateTimeLT(s.now().Add(-s.payTimeout))).Limit(200).IDs(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "order: sweep of overdue unpaid orders", "err", err)
			}
			return
		}
		progress := false
		for _, id := range ids {
			if done, err := s.Expire(ctx, id); err != nil {
				s.log.WarnContext(ctx, "order: overdue order not cancelled", "order", id, "err", err)
			} else if done {
				progress = true
			}
		}
		if len(ids) < 200 || !progress {
			return
		}
	}
}

// Expire cancels order id for non-payment if it is unpaid and its deadline
// has passed, with the unit back on sale; it reports whether it did. An
// order not yet due is put back in the queue.
func (s *Service) Expire(ctx context.Context, id int64) (bool, error) {
	if d := s.Deadline(id); s.now().Before(d) {
		s.Schedule(ctx, id)
		return false, nil
	}
	for attempt := 0; ; attempt++ {
		o, err := s.db.Order.Get(ctx, id)
		if ent.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if o.Status != enum.OrderUnpaid {
			return false, nil
		}
		out := fromEnt(o)
		done, err := s.cancelUnpaid(ctx, o.UserID, out, enum.CancelPayTimeout)
		if err != nil && retryable(err) && attempt < 5 {
			continue
		}
		if err != nil || !done {
			return false, err
		}
		s.sk.Release(ctx, o.UserID, o.VoucherID, id)
		out.Status, out.Reason = enum.OrderCancelled, reasonPtr(enum.CancelPayTimeout)
		s.notifier.OrderChanged(ctx, out)
		return true, nil
	}
}

func reasonPtr(r enum.CancelReason) *enum.CancelReason { return &r }

// CancelReason returns why o was cancelled, nil if it was not.
func (s *Service) CancelReason(ctx context.Context, o *Order) (*enum.CancelReason, error) {
	if o.Reason != nil || o.Status != enum.OrderCancelled {
		return o.Reason, nil
	}
	c, err := s.db.OrderCancel.Query().Where(entordercancel.ID(o.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil // cancelled before reasons were recorded
	}
	if err != nil {
		return nil, err
	}
	return &c.Reason, nil
}
