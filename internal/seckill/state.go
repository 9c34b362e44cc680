package seckill

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
)

// State is a voucher's sale as Redis holds it.
type State struct {
	Stock      int
	Begin, End time.Time
	// Buyers maps user id -> order id.
	Buyers map[int64]int64
}

// voucherOnSale is tb_voucher.status of a voucher on sale.
const voucherOnSale = 1

// stateTTL keeps a finished sale's state a day past its end, then lets it go:
// later attempts rebuild it (and are told SALE_ENDED).
const stateTTL = 24 * time.Hour

// writeState replaces the voucher's sale state in one MULTI (all keys share
// the voucher's hash tag) and makes sure its stream and consumer group exist.
func writeState(ctx context.Context, rdb redis.UniversalClient, k Keys, st State) error {
	// A sale long over still gets its state for a while, so attempts are told
	// SALE_ENDED rather than rebuilding it again and again.
	expire := st.End.Add(stateTTL)
	if soon := time.Now().Add(time.Hour); expire.Before(soon) {
		expire = soon
	}
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k.Buyers)
		buyers := []any{"0", "0"} // sentinel: an absent hash means lost, not empty
		for u, o := range st.Buyers {
			buyers = append(buyers, strconv.FormatInt(u, 10), strconv.FormatInt(o, 10))
		}
		p.HSet(ctx, k.Buyers, buyers...)
		p.HSet(ctx, k.State, "stock", st.Stock, "begin", st.Begin.UnixMilli(), "end", st.End.UnixMilli())
		p.PExpireAt(ctx, k.Buyers, expire)
		p.PExpireAt(ctx, k.State, expire)
		return nil
	})
	if err != nil {
		return fmt.Errorf("write sale state: %w", err)
	}
	return ensureGroup(ctx, rdb, k.Orders)
}

// ensureGroup creates the stream's consumer group (reading from the start, so
// entries added before it existed are persisted too).
func ensureGroup(ctx context.Context, rdb redis.UniversalClient, stream string) error {
	err := rdb.XGroupCreateMkStream(ctx, stream, Group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return fmt.Errorf("create consumer group on %s: %w", stream, err)
	}
	return nil
}

// entry is one accepted order in a voucher's stream.
type entry struct {
	streamID string
	order    int64
	user     int64
	voucher  int64
	// traceparent is the admission's trace (trace.go), "" when untraced.
	traceparent string
}

func parseEntry(m redis.XMessage) (entry, error) {
	e := entry{streamID: m.ID}
	var err error
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"order", &e.order}, {"user", &e.user}, {"voucher", &e.voucher}} {
		s, _ := m.Values[f.name].(string)
		if *f.dst, err = strconv.ParseInt(s, 10, 64); err != nil || *f.dst <= 0 {
			return e, fmt.Errorf("stream entry %s: bad %s %q", m.ID, f.name, s)
		}
	}
	e.traceparent, _ = m.Values[traceField].(string)
	return e, nil
}

// loadState computes the sale state from MySQL and the stream: stock = MySQL
// stock minus the stream's orders not yet in MySQL; buyers = users with live
// (not cancelled) orders in MySQL plus those in the stream. The stream is read
// first and MySQL then in one transaction (one snapshot of stock and orders),
// so an entry persisted in between is seen in MySQL and counted once.
func (s *Service) loadState(ctx context.Context, voucherID int64, k Keys) (State, error) {
	msgs, err := s.rdb.XRange(ctx, k.Orders, "-", "+").Result()
	if err != nil {
		return State{}, fmt.Errorf("read stream: %w", err)
	}
	var st State
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		sv, err := tx.SeckillVoucher.Query().Where(entseckillvoucher.ID(voucherID)).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.New(apperr.NotFound, "voucher %d is not a flash-sale voucher", voucherID)
		}
		if err != nil {
			return err
		}
		live, err := tx.Order.Query().
			Where(entorder.VoucherID(voucherID), entorder.StatusNEQ(enum.OrderCancelled)).
			Select(entorder.FieldID, entorder.FieldUserID).All(ctx)
		if err != nil {
			return err
		}
		st = State{Stock: sv.Stock, Begin: sv.BeginTime, End: sv.EndTime, Buyers: make(map[int64]int64, len(live)+len(msgs))}
		// A voucher taken off sale (tb_voucher.status, setVoucherOnSale)
		// admits no one: its window is written closed (SALE_ENDED).
		if on, err := tx.Voucher.Query().Where(entvoucher.ID(voucherID), entvoucher.Status(voucherOnSale)).Exist(ctx); err != nil {
			return err
		} else if !on {
			st.Begin, st.End = time.UnixMilli(0), time.UnixMilli(0)
		}
		persisted := make(map[int64]bool, len(live))
		for _, o := range live {
			st.Buyers[o.UserID] = o.ID
			persisted[o.ID] = true
		}
		for _, m := range msgs {
			e, err := parseEntry(m)
			if err != nil || persisted[e.order] {
				continue // malformed entries are dead-lettered by the consumer, never persisted
			}
			if _, dup := st.Buyers[e.user]; dup {
				continue // a replay of a user who already has an order: the consumer drops it
			}
			st.Stock--
			st.Buyers[e.user] = e.order
		}
		st.Stock = max(st.Stock, 0)
		return nil
	})
	return st, err
}

// rebuild restores a missing sale state from MySQL, one instance at a time
// (a lock from internal/lock), and returns once the state exists.
func (s *Service) rebuild(ctx context.Context, voucherID int64) error {
	k := KeysOf(s.prefix, voucherID)
	return s.locks.WithLock(ctx, k.Lock, 5*time.Second, func(ctx context.Context) error {
		n, err := s.rdb.Exists(ctx, k.State, k.Buyers).Result()
		if err != nil {
			return err
		}
		if n == 2 {
			return nil // another caller rebuilt it while we waited
		}
		if err := newEpoch(ctx, s.rdb, k); err != nil { // before reading: epoch.go
			return err
		}
		st, err := s.loadState(ctx, voucherID, k)
		if err != nil {
			return err
		}
		s.log.InfoContext(ctx, "rebuilt flash-sale state from MySQL", "voucher", voucherID, "stock", st.Stock, "buyers", len(st.Buyers))
		s.metrics.rebuilds.Inc()
		return writeState(ctx, s.rdb, k, st)
	})
}

// Publish writes a new flash-sale voucher's state (called after its
// transaction commits). A failure is only logged: the first attempt to buy
// finds the state missing and rebuilds it from MySQL.
func (s *Service) Publish(ctx context.Context, sv *ent.SeckillVoucher) {
	k := KeysOf(s.prefix, sv.ID)
	s.noSale.Drop(strconv.FormatInt(sv.ID, 10)) // a sale this instance may have found absent just before
	err := writeState(ctx, s.rdb, k, State{Stock: sv.Stock, Begin: sv.BeginTime, End: sv.EndTime})
	if err != nil {
		s.log.WarnContext(ctx, "flash-sale state not written; it will be rebuilt on first use", "voucher", sv.ID, "err", err)
	}
	s.consumers.undrop(sv.ID)
	s.consumers.watch(sv.ID, sv.EndTime)
}
