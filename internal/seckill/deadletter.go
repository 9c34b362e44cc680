package seckill

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/lua"
)

// Dead letters are the accepted orders the consumers could not persist
// (reject.go): each is already ended for its buyer (REJECTED, buyer
// released, unit back when MySQL never took it). An operator may act on one:
//
//   - replay: admit it again as a new order, as a purchase is admitted
//     (seckill_dead_replay.lua: a unit off the Redis stock, the buyer
//     recorded, an entry in the order stream), then persist that entry at
//     once in one MySQL transaction (persist, as the consumers do; MySQL
//     decides finally). A new order id, because the payment deadline counts
//     from the id's time: the old id's window may be over. If the buyer holds
//     another order or no unit is left, the dead letter is ended instead.
//   - discard: end it for good (seckill_dead_discard.lua).
//
// Either removes the dead letter atomically with its effect, so of two
// actions on one dead letter one acts and the other answers
// OutcomeAlreadyHandled: replaying twice persists once. Each action is
// audited in hmdp_operator_audit, written before it runs and updated with
// its outcome. The buyer is told on orderUpdates (OnPersisted, OnRejected).

var (
	deadReplay  = lua.Script("seckill_dead_replay")
	deadDiscard = lua.Script("seckill_dead_discard")
)

// Outcomes of an operator action (hmdp_operator_audit.outcome).
const (
	OutcomeRequested      = "requested" // written before the action runs
	OutcomePersisted      = "persisted" // replayed: the new order is in MySQL
	OutcomeQueued         = "queued"    // replayed into the stream; MySQL failed now, the consumers persist it
	OutcomeRejected       = "rejected"  // replayed, and MySQL refused it: dead-lettered again (Detail: reason)
	OutcomeEnded          = "ended"     // replay impossible (Detail: why): ended for good
	OutcomeDiscarded      = "discarded"
	OutcomeAlreadyHandled = "already_handled" // the dead letter was acted on before
)

// DeadLetter is one entry of a sale's dead-letter stream.
type DeadLetter struct {
	VoucherID int64
	ID        string    // its id in the dead-letter stream
	At        time.Time // when it was dead-lettered
	Reason    string
	Consumer  string
	// EntryID is the order's id in the order stream; OrderID and UserID are
	// 0 for a malformed entry.
	EntryID         string
	OrderID, UserID int64
}

// ActionResult is what an operator action did.
type ActionResult struct {
	DeadLetter DeadLetter
	Outcome    string
	Detail     string
	// NewOrderID is the order a replay admitted (0 otherwise).
	NewOrderID int64
	// AuditID is the action's hmdp_operator_audit row.
	AuditID int
}

// MaxDeadLetterPage bounds one listing.
const MaxDeadLetterPage = 500

var streamID = regexp.MustCompile(`^[0-9]{1,20}-[0-9]{1,20}$`)

// DeadLetters lists up to limit (at most MaxDeadLetterPage) dead letters of
// voucherID after the id after ("" from the start), oldest first.
func (s *Service) DeadLetters(ctx context.Context, voucherID int64, after string, limit int) ([]DeadLetter, error) {
	if voucherID <= 0 {
		return nil, apperr.BadInput("sale", "must be a positive voucher id")
	}
	if after != "" && !streamID.MatchString(after) {
		return nil, apperr.BadInput("after", "must be a dead letter id (digits-digits)")
	}
	if limit <= 0 || limit > MaxDeadLetterPage {
		return nil, apperr.BadInput("limit", "must be between 1 and %d", MaxDeadLetterPage)
	}
	start := "-"
	if after != "" {
		start = "(" + after
	}
	msgs, err := s.rdb.XRangeN(ctx, KeysOf(s.prefix, voucherID).Dead, start, "+", int64(limit)).Result()
	if err != nil {
		return nil, err
	}
	out := make([]DeadLetter, len(msgs))
	for i, m := range msgs {
		out[i] = parseDead(voucherID, m)
	}
	return out, nil
}

// DeadLetterSales returns the sales that have a dead-letter stream, found
// with SCAN (COUNT 100) on every master, at most limit of them.
func (s *Service) DeadLetterSales(ctx context.Context, limit int) ([]int64, error) {
	pattern := s.prefix + "seckill:{*}:dead"
	var ids []int64
	scan := func(ctx context.Context, c *redis.Client) error {
		it := c.Scan(ctx, 0, pattern, 100).Iterator()
		for it.Next(ctx) && len(ids) < limit {
			k := strings.TrimPrefix(it.Val(), s.prefix+"seckill:{")
			if id, err := strconv.ParseInt(strings.TrimSuffix(k, "}:dead"), 10, 64); err == nil {
				ids = append(ids, id)
			}
		}
		return it.Err()
	}
	switch c := s.rdb.(type) {
	case *redis.ClusterClient:
		var mu sync.Mutex
		err := c.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
			mu.Lock() // masters are scanned concurrently; ids is shared
			defer mu.Unlock()
			return scan(ctx, n)
		})
		return ids, err
	case *redis.Client:
		return ids, scan(ctx, c)
	default:
		return nil, fmt.Errorf("dead-letter sales: unsupported Redis client %T", s.rdb)
	}
}

func parseDead(voucherID int64, m redis.XMessage) DeadLetter {
	str := func(f string) string { v, _ := m.Values[f].(string); return v }
	d := DeadLetter{VoucherID: voucherID, ID: m.ID, Reason: str("reason"), Consumer: str("consumer"), EntryID: str("id")}
	if ms, err := strconv.ParseInt(strings.SplitN(m.ID, "-", 2)[0], 10, 64); err == nil {
		d.At = time.UnixMilli(ms)
	}
	if e, err := parseEntry(redis.XMessage{ID: d.EntryID, Values: map[string]any{
		"order": str("entry_order"), "user": str("entry_user"), "voucher": str("entry_voucher"),
	}}); err == nil && e.voucher == voucherID {
		d.OrderID, d.UserID = e.order, e.user
	}
	return d
}

// deadLetter reads one dead letter (found false when it is not there).
func (s *Service) deadLetter(ctx context.Context, voucherID int64, id string) (DeadLetter, bool, error) {
	if voucherID <= 0 {
		return DeadLetter{}, false, apperr.BadInput("sale", "must be a positive voucher id")
	}
	if !streamID.MatchString(id) {
		return DeadLetter{}, false, apperr.BadInput("id", "must be a dead letter id (digits-digits)")
	}
	msgs, err := s.rdb.XRange(ctx, KeysOf(s.prefix, voucherID).Dead, id, id).Result()
	if err != nil || len(msgs) == 0 {
		return DeadLetter{VoucherID: voucherID, ID: id}, false, err
	}
	return parseDead(voucherID, msgs[0]), true, nil
}

// validActor checks who acts, as the audit row records it.
func validActor(actor string) error {
	if actor == "" || len([]rune(actor)) > maxlen.AuditActor {
		return apperr.BadInput("actor", "must be 1 to %d characters", maxlen.AuditActor)
	}
	return nil
}

// audit writes the action's row before it runs.
func (s *Service) audit(ctx context.Context, actor string, action enum.OperatorAction, d DeadLetter) (*ent.OperatorAudit, error) {
	return s.db.OperatorAudit.Create().SetActor(actor).SetAction(action).SetVoucherID(d.VoucherID).
		SetDeadID(d.ID).SetOrderID(d.OrderID).SetUserID(d.UserID).SetOutcome(OutcomeRequested).Save(ctx)
}

// finish records the action's outcome on its audit row.
func (s *Service) finish(ctx context.Context, row *ent.OperatorAudit, r ActionResult) (ActionResult, error) {
	r.AuditID = row.ID
	detail := r.Detail
	if rs := []rune(detail); len(rs) > maxlen.AuditDetail {
		detail = string(rs[:maxlen.AuditDetail])
	}
	err := row.Update().SetOutcome(r.Outcome).SetNewOrderID(r.NewOrderID).SetDetail(detail).Exec(context.WithoutCancel(ctx))
	if err != nil {
		return r, fmt.Errorf("dead letter %s acted on (%s) but its audit row %d not updated: %w", r.DeadLetter.ID, r.Outcome, row.ID, err)
	}
	s.log.InfoContext(ctx, "operator action on a dead-lettered order", "voucher", r.DeadLetter.VoucherID,
		"dead_letter", r.DeadLetter.ID, "order", r.DeadLetter.OrderID, "user", r.DeadLetter.UserID,
		"outcome", r.Outcome, "detail", r.Detail, "new_order", r.NewOrderID, "audit", row.ID)
	return r, nil
}

// start reads the dead letter and writes the audit row; a dead letter no
// longer there is audited as OutcomeAlreadyHandled at once (done true).
func (s *Service) start(ctx context.Context, actor string, action enum.OperatorAction, voucherID int64, id string) (DeadLetter, *ent.OperatorAudit, ActionResult, bool, error) {
	if err := validActor(actor); err != nil {
		return DeadLetter{}, nil, ActionResult{}, true, err
	}
	d, found, err := s.deadLetter(ctx, voucherID, id)
	if err != nil {
		return d, nil, ActionResult{}, true, err
	}
	row, err := s.audit(ctx, actor, action, d)
	if err != nil {
		return d, nil, ActionResult{}, true, err
	}
	if !found {
		r, err := s.finish(ctx, row, ActionResult{DeadLetter: d, Outcome: OutcomeAlreadyHandled, Detail: "no such dead letter: acted on before, or never there"})
		return d, row, r, true, err
	}
	return d, row, ActionResult{}, false, nil
}

// ReplayDeadLetter replays dead letter id of voucherID for actor (see above).
func (s *Service) ReplayDeadLetter(ctx context.Context, actor string, voucherID int64, id string) (*ActionResult, error) {
	r, err := s.replay(ctx, actor, voucherID, id)
	return &r, err
}

func (s *Service) replay(ctx context.Context, actor string, voucherID int64, id string) (ActionResult, error) {
	d, row, r, done, err := s.start(ctx, actor, enum.OperatorReplay, voucherID, id)
	if done || err != nil {
		return r, err
	}
	if d.OrderID == 0 {
		return s.finishDiscard(ctx, row, d, "malformed entry: nothing to replay")
	}
	newID, err := s.ids.Next(ctx)
	if err != nil {
		return s.failed(ctx, row, d, err)
	}
	k := KeysOf(s.prefix, voucherID)
	var res any
	for attempt := 0; ; attempt++ {
		res, err = deadReplay.Run(ctx, s.rdb, []string{k.State, k.Buyers, k.Orders, k.Dead},
			id, d.UserID, newID, voucherID).Result()
		if err != nil {
			return s.failed(ctx, row, d, err)
		}
		if code, ok := res.(int64); !ok || code != stateMissing || attempt == 1 {
			break
		}
		if err := s.rebuild(ctx, voucherID); err != nil {
			return s.failed(ctx, row, d, err)
		}
	}
	switch v := res.(type) {
	case int64:
		switch v {
		case 1:
			return s.finish(ctx, row, ActionResult{DeadLetter: d, Outcome: OutcomeAlreadyHandled, Detail: "acted on meanwhile"})
		case outOfStock:
			return s.finishDiscard(ctx, row, d, "no unit left in the sale")
		case alreadyOrdered:
			return s.finishDiscard(ctx, row, d, "the buyer holds another order for the sale")
		}
		return s.failed(ctx, row, d, fmt.Errorf("dead-letter replay: unexpected result %d", v))
	case []any:
		sid, _ := v[1].(string)
		if len(v) != 2 || sid == "" {
			return s.failed(ctx, row, d, fmt.Errorf("dead-letter replay: unexpected result %v", v))
		}
		return s.persistReplay(ctx, row, d, entry{streamID: sid, order: newID, user: d.UserID, voucher: voucherID})
	}
	return s.failed(ctx, row, d, fmt.Errorf("dead-letter replay: unexpected result %v", res))
}

// persistReplay persists a replayed entry now, in one transaction, as a
// consumer would (the entry's stream is its witness until then: should this
// fail, the consumers persist it).
func (s *Service) persistReplay(ctx context.Context, row *ent.OperatorAudit, d DeadLetter, e entry) (ActionResult, error) {
	r := ActionResult{DeadLetter: d, NewOrderID: e.order}
	k := KeysOf(s.prefix, d.VoucherID)
	out, err := s.persist(ctx, d.VoucherID, []entry{e})
	if err != nil {
		// A consumer may have read the entry and persisted it first (then
		// this insert hit its row): the order is in MySQL either way.
		if ok, qerr := s.db.Order.Query().Where(entorder.ID(e.order), entorder.UserID(e.user)).Exist(ctx); qerr == nil && ok {
			r.Outcome, r.Detail = OutcomePersisted, "persisted by a consumer meanwhile"
			return s.finish(ctx, row, r)
		}
		r.Outcome, r.Detail = OutcomeQueued, "persisting now failed; the consumers persist it: "+err.Error()
		return s.finish(ctx, row, r)
	}
	if len(out.rejected) > 0 {
		rj := out.rejected[0]
		if _, err := s.endStreamEntry(ctx, k, e, rj.reason, rj.unit, rj.keep); err != nil {
			r.Outcome, r.Detail = OutcomeQueued, "refused by MySQL ("+rj.reason+") and not ended yet; the consumers end it: "+err.Error()
			return s.finish(ctx, row, r)
		}
		if s.onRejected != nil {
			s.onRejected(ctx, []Rejected{{OrderID: e.order, UserID: e.user, VoucherID: d.VoucherID, Reason: rj.reason}})
		}
		r.Outcome, r.Detail = OutcomeRejected, rj.reason
		return s.finish(ctx, row, r)
	}
	// Persisted (or by a consumer that read the entry meanwhile: then
	// created is empty here and that consumer told the buyer).
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAck(ctx, k.Orders, Group, e.streamID)
		p.XDel(ctx, k.Orders, e.streamID)
		return nil
	})
	if err != nil {
		s.log.WarnContext(ctx, "replayed order persisted but not acknowledged; it is redelivered and skipped", "entry", e.streamID, "err", err)
	}
	s.metrics.persisted.Add(float64(len(out.created)))
	if s.onPersisted != nil && len(out.created) > 0 {
		s.onPersisted(ctx, out.created)
	}
	r.Outcome = OutcomePersisted
	return s.finish(ctx, row, r)
}

// DiscardDeadLetter ends dead letter id of voucherID for good, for actor.
func (s *Service) DiscardDeadLetter(ctx context.Context, actor string, voucherID int64, id string) (*ActionResult, error) {
	d, row, r, done, err := s.start(ctx, actor, enum.OperatorDiscard, voucherID, id)
	if done || err != nil {
		return &r, err
	}
	r, err = s.finishDiscard(ctx, row, d, "")
	return &r, err
}

// finishDiscard ends d (seckill_dead_discard.lua) and tells its buyer.
func (s *Service) finishDiscard(ctx context.Context, row *ent.OperatorAudit, d DeadLetter, why string) (ActionResult, error) {
	k := KeysOf(s.prefix, d.VoucherID)
	user, order, unit := "", "", "0"
	if d.OrderID != 0 {
		user, order = strconv.FormatInt(d.UserID, 10), strconv.FormatInt(d.OrderID, 10)
	}
	if unitReturned(d.Reason) {
		unit = "1"
	}
	n, err := deadDiscard.Run(ctx, s.rdb, []string{k.State, k.Buyers, k.Dead, k.Rejected},
		d.ID, user, order, unit, d.Reason, stateTTL.Milliseconds()).Int64()
	if err != nil {
		return s.failed(ctx, row, d, err)
	}
	if n == 0 {
		return s.finish(ctx, row, ActionResult{DeadLetter: d, Outcome: OutcomeAlreadyHandled, Detail: "acted on meanwhile"})
	}
	if d.OrderID != 0 && s.onRejected != nil {
		s.onRejected(ctx, []Rejected{{OrderID: d.OrderID, UserID: d.UserID, VoucherID: d.VoucherID, Reason: d.Reason}})
	}
	r := ActionResult{DeadLetter: d, Outcome: OutcomeDiscarded, Detail: why}
	if why != "" {
		r.Outcome = OutcomeEnded
	}
	return s.finish(ctx, row, r)
}

// unitReturned reports whether an order dead-lettered for reason gives its
// unit back to Redis, as the consumers decide it (persist.go): not when
// Redis sold more than MySQL had, nor for a sale MySQL does not know.
func unitReturned(reason string) bool {
	return reason != ReasonNoStockInMySQL && reason != ReasonNoSuchSale && reason != ReasonMalformed
}

// failed records an action that failed midway (it may be retried: the dead
// letter is still there unless the failure came after the Redis step, and
// then a retry answers OutcomeAlreadyHandled).
func (s *Service) failed(ctx context.Context, row *ent.OperatorAudit, d DeadLetter, cause error) (ActionResult, error) {
	r, err := s.finish(ctx, row, ActionResult{DeadLetter: d, Outcome: "failed", Detail: cause.Error()})
	return r, errors.Join(cause, err)
}

// endStreamEntry ends an order-stream entry MySQL refused, as the consumers'
// endEntry does, under ctx (the operator's command, not a consumer).
func (s *Service) endStreamEntry(ctx context.Context, k Keys, e entry, reason string, unit bool, keep int64) (bool, error) {
	keepArg, unitArg := "", "0"
	if keep > 0 {
		keepArg = strconv.FormatInt(keep, 10)
	}
	if unit {
		unitArg = "1"
	}
	m := e.msg()
	args := []any{m.ID, Group, strconv.FormatInt(e.user, 10), strconv.FormatInt(e.order, 10), unitArg, keepArg, reason, "operator", stateTTL.Milliseconds()}
	for f, v := range m.Values {
		args = append(args, f, v)
	}
	n, err := rejectScript.Run(ctx, s.rdb, []string{k.State, k.Buyers, k.Orders, k.Dead, k.Rejected}, args...).Int64()
	if err != nil {
		return false, err
	}
	if n == 1 {
		s.metrics.deadLettered.WithLabelValues(reason).Inc()
	}
	return n == 1, nil
}
