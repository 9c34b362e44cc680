package payment

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
)

// Instant is the in-process payment provider of tests and of development
// without the sandbox (HMDP_PAY_PROVIDER=instant; order.FakePayments): it
// charges a trade once when it is created (Created.Settled) unless Async is
// set, and refunds once per trade (RefundAccepted.Settled), failing when Fail
// says so. Its ledger is the provider's side of the money checks.
type Instant struct {
	mu       sync.Mutex
	trades   map[int64]*fakeTrade
	refunds  map[int64]int64 // by order id
	requests int
	// Fail, when set, is asked before each refund; its error is returned.
	Fail func(orderID int64) error
	// Async leaves created trades waiting for the buyer: PayNow charges one.
	Async bool
}

type fakeTrade struct {
	orderID, amount   int64
	charged, refunded bool
	refundedAmount    int64
}

// Create opens trade p.TradeNo (once) and, unless Async, charges it.
func (f *Instant) Create(_ context.Context, p Payment) (Created, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.trades == nil {
		f.trades = map[int64]*fakeTrade{}
	}
	t := f.trades[p.TradeNo]
	if t == nil {
		t = &fakeTrade{orderID: p.OrderID, amount: p.Amount}
		f.trades[p.TradeNo] = t
	}
	out := Created{PayURL: "fake://pay/" + strconv.FormatInt(p.TradeNo, 10)}
	if !f.Async {
		t.charged = true
		out.Settled = &Notice{Kind: Paid, TradeNo: p.TradeNo, TxnID: fakeTxn(p.TradeNo), Amount: t.amount}
	}
	return out, nil
}

// PayNow is the buyer paying trade (Async): it is charged once, and the
// notice the provider would send is returned.
func (f *Instant) PayNow(trade int64) (Notice, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.trades[trade]
	if t == nil {
		return Notice{}, errors.New("instant payments: no such trade")
	}
	t.charged = true
	return Notice{Kind: Paid, TradeNo: trade, TxnID: fakeTxn(trade), Amount: t.amount}, nil
}

func fakeTxn(trade int64) string { return "FAKE" + strconv.FormatInt(trade, 10) }

// Refund pays a charged trade back, once.
func (f *Instant) Refund(_ context.Context, r Refund) (RefundAccepted, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if f.Fail != nil {
		if err := f.Fail(r.OrderID); err != nil {
			return RefundAccepted{}, err
		}
	}
	t := f.trades[r.TradeNo]
	if t == nil || !t.charged {
		return RefundAccepted{}, errors.New("instant payments: refund of a trade never charged")
	}
	if !t.refunded {
		if r.Amount > t.amount {
			return RefundAccepted{}, errors.New("instant payments: refund over the amount charged")
		}
		t.refunded, t.refundedAmount = true, r.Amount
		if f.refunds == nil {
			f.refunds = map[int64]int64{}
		}
		f.refunds[r.OrderID] += r.Amount
	}
	return RefundAccepted{Settled: &Notice{Kind: Refunded, TradeNo: r.TradeNo,
		RefundNo: r.RefundNo, TxnID: fakeTxn(r.TradeNo), Amount: t.refundedAmount}}, nil
}

// ParseNotify refuses everything: this provider answers in process.
func (f *Instant) ParseNotify(*http.Request) (Notice, error) {
	return Notice{}, ErrBadSignature
}

// Answer answers as the sandbox does.
func (f *Instant) Answer(w http.ResponseWriter, err error) { (&Sandbox{}).Answer(w, err) }

// Refunded returns the amount refunded for orderID and whether it was.
func (f *Instant) Refunded(orderID int64) (int64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.refunds[orderID]
	return a, ok
}

// Requests counts the refund calls the provider received.
func (f *Instant) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// Ledger is the money the provider took and paid back.
func (f *Instant) Ledger() (charged, refunded int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.trades {
		if t.charged {
			charged += t.amount
		}
		refunded += t.refundedAmount
	}
	return charged, refunded
}
