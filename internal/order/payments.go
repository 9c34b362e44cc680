package order

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	entpayattempt "github.com/hmdp/hmdp/ent/payattempt"
	entpayment "github.com/hmdp/hmdp/ent/payment"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entseckillvoucher "github.com/hmdp/hmdp/ent/seckillvoucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/payment"
)

// Payment is one payment attempt of an order as clients see it (GraphQL
// OrderPayment): hmdp_pay_attempt.
type Payment struct {
	Attempt       int
	Status        enum.PaymentStatus
	Amount        int64
	PayType       enum.PayType
	PayURL        *string `json:",omitempty"`
	ProviderTxnID *string `json:",omitempty"`
	RefundAmount  int64
	CreateTime    time.Time
	PaidTime      *time.Time `json:",omitempty"`
	RefundTime    *time.Time `json:",omitempty"`
}

func paymentOf(a *ent.PayAttempt) *Payment {
	p := &Payment{Attempt: a.Attempt, Status: a.Status, Amount: a.Amount, PayType: a.PayType,
		RefundAmount: a.RefundAmount, CreateTime: a.CreateTime, PaidTime: a.PaidTime, RefundTime: a.RefundTime}
	if a.PayURL != "" && a.Status == enum.PaymentPaying {
		p.PayURL = &a.PayURL
	}
	if a.ProviderTxn != "" {
		p.ProviderTxnID = &a.ProviderTxn
	}
	return p
}

// Provider is the payment provider the service pays through (its notifies
// go to payment.NotifyHandler with the service as the Settler).
func (s *Service) Provider() payment.Provider { return s.payments }

// Payment returns o's latest payment attempt (nil if none), as carried by
// o when the change that produced it was one of its payment's.
func (s *Service) Payment(ctx context.Context, o *Order) (*Payment, error) {
	if o.Payment != nil || o.Status == enum.OrderPending || o.Status == enum.OrderRejected {
		return o.Payment, nil
	}
	a, err := s.latestAttempt(ctx, o.ID)
	if a == nil || err != nil {
		return nil, err
	}
	return paymentOf(a), nil
}

func (s *Service) latestAttempt(ctx context.Context, orderID int64) (*ent.PayAttempt, error) {
	a, err := s.db.PayAttempt.Query().Where(entpayattempt.OrderID(orderID)).
		Order(ent.Desc(entpayattempt.FieldAttempt)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return a, err
}

// withPayment reads userID's order id with its latest payment.
func (s *Service) withPayment(ctx context.Context, userID, id int64) (*Order, error) {
	o, err := s.Get(ctx, userID, id)
	if err != nil || o == nil {
		return o, err
	}
	o.Payment, err = s.Payment(ctx, o)
	return o, err
}

// Pay starts paying userID's unpaid order: it opens a payment attempt
// (hmdp_pay_attempt; the amount is the voucher's price times the order's
// quantity, Amount, never a client's figure) with the payment provider and returns the order, still UNPAID, with
// the attempt's payUrl, where the buyer pays. The provider's notify (Settle)
// moves the order to PAID. Racing calls with one pay type open one attempt:
// the same trade, charged at most once by the provider; paying a paid order
// returns it unchanged. A provider that charges at once (FakePayments) is
// settled before Pay returns.
func (s *Service) Pay(ctx context.Context, userID, id int64, pt enum.PayType) (*Order, error) {
	if !pt.Valid() {
		return nil, apperr.BadInput("payType", "unknown pay type %v", pt)
	}
	if !s.now().Before(s.Deadline(id)) {
		// The window has closed: cancel it now rather than wait for the
		// worker, so the buyer sees why and the unit is back on sale.
		if _, err := s.Expire(ctx, id); err != nil {
			return nil, err
		}
	}
	for round := 0; ; round++ {
		o, err := s.withPayment(ctx, userID, id)
		switch {
		case err != nil:
			return nil, err
		case o == nil:
			return nil, apperr.New(apperr.NotFound, "no order %d", id)
		case o.Status == enum.OrderPaid:
			return o, nil
		case o.Status == enum.OrderPending && round < 3:
			time.Sleep(50 * time.Millisecond)
			continue
		case o.Status == enum.OrderPending:
			return nil, apperr.New(apperr.Conflict, "the order is still being placed; pay it in a moment")
		case o.Status != enum.OrderUnpaid:
			return nil, apperr.New(apperr.Conflict, "the order is %s: only unpaid orders can be paid", o.Status)
		}
		return s.startPayment(ctx, o, pt)
	}
}

// startPayment opens (or reuses) the attempt and asks the provider for it.
func (s *Service) startPayment(ctx context.Context, o *Order, pt enum.PayType) (*Order, error) {
	a, fresh, err := s.openAttempt(ctx, o, pt)
	if err != nil {
		return nil, err
	}
	v, err := s.db.Voucher.Get(ctx, o.VoucherID)
	if err != nil {
		return nil, err
	}
	created, err := s.payments.Create(ctx, payment.Payment{TradeNo: a.ID, OrderID: o.ID, Amount: a.Amount,
		PayType: pt, Subject: v.Title, Expires: s.Deadline(o.ID)})
	if err != nil {
		s.log.WarnContext(ctx, "order: the payment provider did not open the payment", "order", o.ID, "trade", a.ID, "err", err)
		return nil, apperr.New(apperr.PaymentFailed, "the payment provider could not open the payment of order %d; try again", o.ID)
	}
	if a.PayURL == "" && created.PayURL != "" {
		if err := s.db.PayAttempt.Update().Where(entpayattempt.ID(a.ID), entpayattempt.PayURL("")).
			SetPayURL(created.PayURL).Exec(ctx); err != nil {
			return nil, err
		}
	}
	if created.Settled != nil {
		if err := s.Settle(ctx, *created.Settled); err != nil {
			return nil, err
		}
	}
	out, err := s.withPayment(ctx, o.UserID, o.ID)
	if err != nil {
		return nil, err
	}
	if fresh && created.Settled == nil {
		s.notifier.OrderChanged(ctx, out) // UNPAID, its payment PAYING
	}
	if out.Status != enum.OrderUnpaid && out.Status != enum.OrderPaid {
		return nil, apperr.New(apperr.Conflict, "the order is %s: only unpaid orders can be paid", out.Status)
	}
	return out, nil
}

// openAttempt returns the order's latest attempt if it is still waiting for
// payment with pay type pt, or records a new one (attempt n+1; the unique
// key (order_id, attempt) makes racing calls agree on one). It reports
// whether it recorded one.
func (s *Service) openAttempt(ctx context.Context, o *Order, pt enum.PayType) (*ent.PayAttempt, bool, error) {
	for try := 0; try < 10; try++ {
		last, err := s.latestAttempt(ctx, o.ID)
		if err != nil {
			return nil, false, err
		}
		n := 1
		if last != nil {
			if last.Status == enum.PaymentPaying && last.PayType == pt {
				return last, false, nil
			}
			n = last.Attempt + 1
		}
		amount, err := s.Amount(ctx, o)
		if err != nil {
			return nil, false, err
		}
		a, err := s.db.PayAttempt.Create().SetOrderID(o.ID).SetAttempt(n).SetUserID(o.UserID).
			SetAmount(amount).SetPayType(pt).Save(ctx)
		if ent.IsConstraintError(err) {
			continue // a racing call recorded attempt n: use it
		}
		return a, err == nil, err
	}
	return nil, false, apperr.New(apperr.Conflict, "the order's payment keeps changing; try again")
}

// Settle applies a verified notice of the payment provider (the notify
// endpoint, payment.NotifyHandler, or a provider that settled at once). Every
// notice applies once: a duplicate, or one that arrives after a later one,
// changes nothing and is acknowledged. A notice for an unknown trade, or whose
// amount is not the trade's, is a payment.Rejected and changes nothing.
func (s *Service) Settle(ctx context.Context, n payment.Notice) error {
	a, err := s.db.PayAttempt.Get(ctx, n.TradeNo)
	if ent.IsNotFound(err) {
		return &payment.Rejected{Reason: fmt.Sprintf("no trade %d", n.TradeNo)}
	}
	if err != nil {
		return err
	}
	switch n.Kind {
	case payment.Paid:
		return s.settlePaid(ctx, a, n)
	case payment.Closed:
		n, err := s.db.PayAttempt.Update().Where(entpayattempt.ID(a.ID), entpayattempt.StatusEQ(enum.PaymentPaying)).
			SetStatus(enum.PaymentClosed).Save(ctx)
		if err == nil && n == 1 { // this notice closed it: the buyer's app learns it may pay again
			s.announce(ctx, a.OrderID, nil, a, enum.PaymentClosed)
		}
		return err
	case payment.Refunded:
		return s.settleRefunded(ctx, a, n)
	}
	return &payment.Rejected{Reason: fmt.Sprintf("unknown notice kind %q", n.Kind)}
}

// settlePaid records that the provider charged attempt a: a PAYING (or
// CLOSED) -> PAID and, in the same transaction, its order UNPAID -> PAID with
// the payment record (hmdp_payment). If the order was no longer unpaid
// (cancelled at its deadline, or paid by another attempt), the money is
// refunded at once: the attempt goes PAID -> REFUNDING in that transaction,
// the provider is asked, and the buyer told.
func (s *Service) settlePaid(ctx context.Context, a *ent.PayAttempt, n payment.Notice) error {
	if n.Amount != a.Amount {
		return &payment.Rejected{Reason: fmt.Sprintf("trade %d: paid %d, the order's price is %d", a.ID, n.Amount, a.Amount)}
	}
	if a.Status.Charged() {
		if a.ProviderTxn != n.TxnID {
			s.log.ErrorContext(ctx, "order: a second provider transaction for a paid trade", "trade", a.ID,
				"txn", a.ProviderTxn, "other", n.TxnID)
		}
		return nil // a duplicate
	}
	var applied, captured bool
	var err error
	for try := 0; ; try++ {
		applied, captured, err = s.capture(ctx, a, n)
		if err != nil && retryable(err) && try < 5 {
			continue
		}
		break
	}
	if err != nil || !applied {
		return err
	}
	if captured {
		s.announce(ctx, a.OrderID, statusPtr(enum.OrderPaid), a, enum.PaymentPaid)
	} else {
		s.announce(ctx, a.OrderID, nil, a, enum.PaymentRefunding)
	}
	if !captured {
		s.log.InfoContext(ctx, "order: paid after it stopped being unpaid; refunding", "order", a.OrderID, "trade", a.ID)
		if err := s.askRefund(ctx, a); err != nil {
			// The sweep asks again (resumeRefunds); the notify is handled.
			s.log.WarnContext(ctx, "order: automatic refund not accepted yet", "trade", a.ID, "err", err)
		}
	}
	return nil
}

// capture is settlePaid's transaction; it reports whether it moved the
// attempt and whether the order was paid by it.
func (s *Service) capture(ctx context.Context, a *ent.PayAttempt, n payment.Notice) (applied, captured bool, err error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return false, false, err
	}
	at := s.now()
	k, err := tx.PayAttempt.Update().Where(entpayattempt.ID(a.ID),
		entpayattempt.StatusIn(enum.PaymentPaying, enum.PaymentClosed)).
		SetStatus(enum.PaymentPaid).SetProviderTxn(n.TxnID).SetPaidTime(at).Save(ctx)
	if err != nil || k == 0 {
		return false, false, errors.Join(err, tx.Rollback()) // a racing delivery applied it
	}
	m, err := tx.Order.Update().Where(entorder.ID(a.OrderID), entorder.UserID(a.UserID), entorder.Status(enum.OrderUnpaid)).
		SetStatus(enum.OrderPaid).SetPayType(a.PayType).SetPayTime(at).Save(ctx)
	if err != nil {
		return false, false, errors.Join(err, tx.Rollback())
	}
	if m == 1 {
		err = tx.Payment.Create().SetOrderID(a.OrderID).SetUserID(a.UserID).SetAmount(a.Amount).
			SetPayType(a.PayType).SetAttemptID(a.ID).SetCreateTime(at).Exec(ctx)
	} else {
		err = tx.PayAttempt.UpdateOneID(a.ID).SetStatus(enum.PaymentRefunding).Exec(ctx)
	}
	if err != nil {
		return false, false, errors.Join(err, tx.Rollback())
	}
	return true, m == 1, tx.Commit()
}

// announce tells the buyer of order id as the change made it: with status
// st (nil: as read now) and, when a is set, that attempt with status ps. A
// racing change may have moved them on already; each change announces its
// own result, so none is announced twice or skipped.
func (s *Service) announce(ctx context.Context, id int64, st *enum.OrderStatus, a *ent.PayAttempt, ps enum.PaymentStatus) {
	o, err := s.db.Order.Get(ctx, id)
	if err != nil {
		s.log.WarnContext(ctx, "order: change not announced", "order", id, "err", err)
		return
	}
	out := fromEnt(o)
	if st != nil {
		out.Status = *st
	}
	if a == nil {
		out.Payment, err = s.Payment(ctx, out)
	} else if cur, gerr := s.db.PayAttempt.Get(ctx, a.ID); gerr == nil {
		out.Payment = paymentOf(cur)
		out.Payment.Status = ps
		if ps != enum.PaymentPaying {
			out.Payment.PayURL = nil
		}
	} else {
		err = gerr
	}
	if err != nil {
		s.log.WarnContext(ctx, "order: change announced without its payment", "order", id, "err", err)
	}
	s.notifier.OrderChanged(ctx, out)
}

func statusPtr(st enum.OrderStatus) *enum.OrderStatus { return &st }

// askRefund asks the provider to pay attempt a back (all of it; the refund
// number is the trade number, so asking again never pays twice) and applies
// the outcome if the provider settled at once.
func (s *Service) askRefund(ctx context.Context, a *ent.PayAttempt) error {
	acc, err := s.payments.Refund(ctx, payment.Refund{TradeNo: a.ID, RefundNo: a.ID, OrderID: a.OrderID, Amount: a.Amount})
	if err != nil {
		s.log.WarnContext(ctx, "order: refund not accepted by the payment provider", "order", a.OrderID, "trade", a.ID, "err", err)
		return apperr.New(apperr.PaymentFailed, "the refund of order %d did not go through; it stays REFUNDING: try again", a.OrderID)
	}
	if acc.Settled != nil {
		return s.Settle(ctx, *acc.Settled)
	}
	return nil
}

// settleRefunded records the provider's refund of attempt a: REFUNDING ->
// REFUNDED for at most its amount and, if the attempt paid its order, the
// order REFUNDING -> REFUNDED with hmdp_payment marked refunded and the unit
// back while the sale is open, in one transaction.
func (s *Service) settleRefunded(ctx context.Context, a *ent.PayAttempt, n payment.Notice) error {
	switch {
	case a.Status == enum.PaymentRefunded:
		return nil // a duplicate
	case a.Status != enum.PaymentRefunding:
		return &payment.Rejected{Reason: fmt.Sprintf("trade %d is %v: no refund was asked for", a.ID, a.Status)}
	case n.Amount != a.Amount:
		return &payment.Rejected{Reason: fmt.Sprintf("trade %d: refunded %d of %d (only whole refunds are asked for)", a.ID, n.Amount, a.Amount)}
	}
	o, err := s.db.Order.Get(ctx, a.OrderID)
	if err != nil {
		return err
	}
	for try := 0; ; try++ {
		done, ofOrder, returned, err := s.markRefunded(ctx, o, a, n.Amount)
		if err != nil && retryable(err) && try < 5 {
			continue
		}
		if err != nil {
			return err
		}
		if returned {
			// The unit is back on sale; the buyer stays the sale's buyer
			// (ALREADY_ORDERED): the refunded row keeps (user_id, voucher_id).
			s.sk.ReturnUnit(ctx, o.UserID, o.VoucherID, o.ID)
		}
		switch {
		case done && ofOrder:
			s.announce(ctx, o.ID, statusPtr(enum.OrderRefunded), a, enum.PaymentRefunded)
		case done:
			s.announce(ctx, o.ID, nil, a, enum.PaymentRefunded)
		}
		return nil
	}
}

// markRefunded is settleRefunded's transaction (the voucher row locked
// first, as cancelUnpaid does). It reports whether it moved the attempt,
// whether it moved the order (the attempt had paid it) and whether the unit
// went back.
func (s *Service) markRefunded(ctx context.Context, o *ent.Order, a *ent.PayAttempt, amount int64) (done, ofOrder, returned bool, err error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return false, false, false, err
	}
	at := s.now()
	p, err := tx.Payment.Query().Where(entpayment.OrderID(o.ID), entpayment.AttemptID(a.ID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return false, false, false, errors.Join(err, tx.Rollback())
	}
	n := 0
	if p != nil { // the attempt paid the order: the order is refunded
		n, err = tx.SeckillVoucher.Update().Where(entseckillvoucher.ID(o.VoucherID),
			entseckillvoucher.EndTimeGT(at)).AddStock(1).Save(ctx)
		if err != nil {
			return false, false, false, errors.Join(err, tx.Rollback())
		}
	}
	k, err := tx.PayAttempt.Update().Where(entpayattempt.ID(a.ID), entpayattempt.StatusEQ(enum.PaymentRefunding)).
		SetStatus(enum.PaymentRefunded).SetRefundAmount(amount).SetRefundTime(at).Save(ctx)
	if err != nil || k == 0 {
		return false, false, false, errors.Join(err, tx.Rollback())
	}
	if p != nil {
		m, err := tx.Order.Update().Where(entorder.ID(o.ID), entorder.Status(enum.OrderRefunding)).
			SetStatus(enum.OrderRefunded).SetRefundTime(at).Save(ctx)
		if err == nil && m != 1 {
			err = fmt.Errorf("order %d: refunded trade %d, but the order is not REFUNDING", o.ID, a.ID)
		}
		if err == nil {
			err = tx.Payment.UpdateOneID(p.ID).SetStatus(entpayment.StatusREFUNDED).SetRefundAmount(amount).
				SetRefundTime(at).Exec(ctx)
		}
		if err != nil {
			return false, false, false, errors.Join(err, tx.Rollback())
		}
	}
	return true, p != nil, n == 1, tx.Commit()
}

// Refund pays a paid order back through the payment provider, against the
// payment that paid it (hmdp_payment, linked to its provider trade): the
// order PAID -> REFUNDING and the trade PAID -> REFUNDING in one transaction
// (of racing calls one moves them), then the provider is asked for the whole
// amount recorded, never more, and its refund notify moves both to REFUNDED
// (settleRefunded). An order without a payment recorded from a provider is
// refused with NO_PAYMENT, nothing asked. Refunding a REFUNDED order returns
// it unchanged; refunding a REFUNDING one asks the provider again (it pays
// back once per trade); PAYMENT_FAILED leaves it REFUNDING.
func (s *Service) Refund(ctx context.Context, userID, id int64) (*Order, error) {
	for try := 0; try < 10; try++ {
		o, err := s.db.Order.Query().Where(entorder.ID(id), entorder.UserID(userID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.New(apperr.NotFound, "no order %d", id)
		}
		if err != nil {
			return nil, err
		}
		switch o.Status {
		case enum.OrderRefunded:
			return s.withPayment(ctx, userID, id)
		case enum.OrderPaid:
			a, err := s.paidBy(ctx, id)
			if err != nil {
				return nil, err
			}
			moved, err := s.startRefund(ctx, id, a)
			if err != nil {
				return nil, err
			}
			if !moved {
				continue // redeemed or refunded meanwhile
			}
			s.announce(ctx, id, statusPtr(enum.OrderRefunding), a, enum.PaymentRefunding)
		case enum.OrderRefunding:
		default:
			return nil, apperr.New(apperr.Conflict, "the order is %s: only paid orders can be refunded", o.Status)
		}
		return s.finishRefund(ctx, o)
	}
	return nil, apperr.New(apperr.Conflict, "the order keeps changing; try again")
}

// paidBy returns the provider trade that paid order id: NO_PAYMENT if none
// (an order marked paid by hand, or before payments went through a provider).
func (s *Service) paidBy(ctx context.Context, id int64) (*ent.PayAttempt, error) {
	p, err := s.db.Payment.Query().Where(entpayment.OrderID(id)).Only(ctx)
	if err == nil && p.AttemptID == 0 {
		err = &ent.NotFoundError{}
	}
	var a *ent.PayAttempt
	if err == nil {
		a, err = s.db.PayAttempt.Get(ctx, p.AttemptID)
	}
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NoPayment, "order %d has no payment recorded from the payment provider: there is nothing to refund", id)
	}
	return a, err
}

// startRefund moves order id PAID -> REFUNDING and its trade a PAID ->
// REFUNDING in one transaction; false if the order was no longer PAID.
func (s *Service) startRefund(ctx context.Context, id int64, a *ent.PayAttempt) (bool, error) {
	for try := 0; ; try++ {
		tx, err := s.db.Tx(ctx)
		if err != nil {
			return false, err
		}
		n, err := tx.Order.Update().Where(entorder.ID(id), entorder.Status(enum.OrderPaid)).
			SetStatus(enum.OrderRefunding).Save(ctx)
		if err == nil && n == 1 {
			var k int
			k, err = tx.PayAttempt.Update().Where(entpayattempt.ID(a.ID), entpayattempt.StatusEQ(enum.PaymentPaid)).
				SetStatus(enum.PaymentRefunding).Save(ctx)
			if err == nil && k != 1 {
				err = fmt.Errorf("order %d: its trade %d is not PAID", id, a.ID)
			}
		}
		if err != nil || n == 0 {
			err = errors.Join(err, tx.Rollback())
			if err != nil && retryable(err) && try < 5 {
				continue
			}
			return false, err
		}
		return true, tx.Commit()
	}
}

// finishRefund asks the provider to pay back the trade that paid o (REFUNDING)
// and returns the order as it then is: REFUNDED if the provider settled at
// once, else REFUNDING until its notify. A REFUNDING order without such a
// trade (left so before payments went through a provider) goes back to PAID,
// nothing asked of the provider, and the call fails with NO_PAYMENT.
func (s *Service) finishRefund(ctx context.Context, o *ent.Order) (*Order, error) {
	a, err := s.paidBy(ctx, o.ID)
	if apperr.CodeOf(err) == apperr.NoPayment {
		if uerr := s.db.Order.Update().Where(entorder.ID(o.ID), entorder.Status(enum.OrderRefunding)).
			SetStatus(enum.OrderPaid).Exec(ctx); uerr != nil {
			return nil, errors.Join(err, uerr)
		}
		s.log.WarnContext(ctx, "order: refund without a recorded payment refused; the order is PAID again", "order", o.ID)
		s.announce(ctx, o.ID, nil, nil, 0)
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	if a.Status == enum.PaymentRefunding {
		if err := s.askRefund(ctx, a); err != nil {
			return nil, err
		}
	}
	return s.withPayment(ctx, o.UserID, o.ID)
}

// resumeRefunds asks the provider again for the refunds that have sat
// REFUNDING for ResumeRefundsAfter: orders whose provider call failed (the
// buyer did not try again, or the instance died between the two steps), and
// automatic refunds of money taken for orders no longer unpaid. The provider
// pays back once per trade, so asking again never pays twice.
func (s *Service) resumeRefunds(ctx context.Context) {
	before := s.now().Add(-s.cfg.ResumeRefundsAfter)
	stuck, err := s.db.Order.Query().Where(entorder.Status(enum.OrderRefunding), entorder.UpdateTimeLT(before)).Limit(200).All(ctx)
	if err == nil {
		for _, o := range stuck {
			if _, err := s.finishRefund(ctx, o); err != nil {
				s.log.WarnContext(ctx, "order: unfinished refund still not done", "order", o.ID, "err", err)
			}
		}
	}
	var auto []*ent.PayAttempt
	if err == nil {
		auto, err = s.db.PayAttempt.Query().Where(entpayattempt.StatusEQ(enum.PaymentRefunding),
			entpayattempt.UpdateTimeLT(before)).Limit(200).All(ctx)
	}
	if err != nil {
		if ctx.Err() == nil {
			s.log.WarnContext(ctx, "order: sweep of unfinished refunds", "err", err)
		}
		return
	}
	for _, a := range auto {
		if err := s.askRefund(ctx, a); err != nil {
			s.log.WarnContext(ctx, "order: unfinished automatic refund still not done", "trade", a.ID, "err", err)
		}
	}
}
