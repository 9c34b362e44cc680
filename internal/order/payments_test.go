package order

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	entpayattempt "github.com/hmdp/hmdp/ent/payattempt"
	entpayment "github.com/hmdp/hmdp/ent/payment"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/payment/sandbox"
	"github.com/hmdp/hmdp/internal/testenv"
)

// sbEnv is a flash sale whose order services ("instances") pay through the
// sandbox provider over HTTP: its notifies reach the instances' notify
// endpoints in turn.
type sbEnv struct {
	*lcEnv
	sb     *sandbox.Server
	key    ed25519.PrivateKey
	notify string // the notify endpoint's URL
}

func newSandboxEnv(t *testing.T, b testenv.Backends, instances int, tune func(i int, c *Config)) *sbEnv {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	sb := sandbox.New(sandbox.Config{Key: key, Backoff: 20 * time.Millisecond, MaxTries: 15, Log: quiet})
	sbSrv := httptest.NewServer(sb.Handler())
	e := &sbEnv{sb: sb, key: key}
	var turn atomic.Int64
	var handlers []http.Handler
	notifySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handlers[int(turn.Add(1))%len(handlers)].ServeHTTP(w, r)
	}))
	e.notify = notifySrv.URL + payment.NotifyPath
	t.Cleanup(func() { sb.Close(); sbSrv.Close(); notifySrv.Close() })
	e.lcEnv = newLifecycle(t, b, instances, func(i int, c *Config) {
		c.Payments = &payment.Sandbox{BaseURL: sbSrv.URL, NotifyURL: e.notify, PublicKey: key.Public().(ed25519.PublicKey)}
		if tune != nil {
			tune(i, c)
		}
	})
	for _, s := range e.svcs {
		handlers = append(handlers, payment.NotifyHandler(s.payments, s, quiet))
	}
	return e
}

// attempts returns order id's payment attempts, first first.
func (e *lcEnv) attempts(t *testing.T, id int64) []*ent.PayAttempt {
	t.Helper()
	as, err := e.b.DB.Client.PayAttempt.Query().Where(entpayattempt.OrderID(id)).
		Order(ent.Asc(entpayattempt.FieldAttempt)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// checkMoney checks, for the given orders, that money in = money out + money
// kept on the payment records, that the provider's ledger says the same, and
// that only a PAID order keeps money (one attempt's worth, recorded in its
// hmdp_payment).
func (e *sbEnv) checkMoney(t *testing.T, ids ...int64) (in, out, kept int64) {
	t.Helper()
	testenv.Eventually(t, 15*time.Second, "sandbox quiet", e.sb.Quiet)
	ps := e.payments(t, ids...)
	for _, id := range ids {
		var orderKept int64
		for _, a := range e.attempts(t, id) {
			if a.Status.Charged() {
				in += a.Amount
			}
			out += a.RefundAmount
			if a.Status == enum.PaymentPaid {
				orderKept += a.Amount
			}
			if a.RefundAmount > a.Amount {
				t.Fatalf("trade %d refunded %d of %d", a.ID, a.RefundAmount, a.Amount)
			}
		}
		st := e.status(t, id)
		switch {
		case st == enum.OrderPaid || st == enum.OrderUsed:
			if p := ps[id]; p == nil || p.AttemptID == 0 || p.Status != entpayment.StatusPAID || p.Amount != orderKept {
				t.Fatalf("order %d is %v keeping %d, payment %+v", id, st, orderKept, p)
			}
		case orderKept != 0:
			t.Fatalf("order %d is %v and keeps %d", id, st, orderKept)
		}
		kept += orderKept
	}
	l := e.sb.Ledger()
	if in != out+kept || l.Charged != in || l.Refunded != out {
		t.Fatalf("records: in %d, out %d, kept %d; provider: charged %d, refunded %d", in, out, kept, l.Charged, l.Refunded)
	}
	return in, out, kept
}

func tradeOf(t *testing.T, o *Order, e *lcEnv) string {
	t.Helper()
	as := e.attempts(t, o.ID)
	if len(as) == 0 {
		t.Fatalf("order %d has no payment attempt", o.ID)
	}
	return strconv.FormatInt(as[len(as)-1].ID, 10)
}

// Two server instances, many payOrder calls at once for one order: one
// attempt, one pay URL, one charge when the buyer pays; the order is PAID
// once, and payOrder on it afterwards opens nothing.
func TestPayOrderConcurrentlyOneCharge(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newSandboxEnv(t, b, 2, nil)
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		ctx := context.Background()
		urls := make(chan string, 40)
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				o, err := e.svcs[i%2].Pay(ctx, 1, id, enum.PayAlipay)
				if err != nil || o.Status != enum.OrderUnpaid || o.Payment == nil || o.Payment.PayURL == nil ||
					o.Payment.Status != enum.PaymentPaying || o.Payment.Amount != 7 {
					t.Errorf("pay: %+v %v", o, err)
					return
				}
				urls <- *o.Payment.PayURL
			})
		}
		wg.Wait()
		close(urls)
		seen := map[string]bool{}
		for u := range urls {
			seen[u] = true
		}
		if len(seen) != 1 || len(e.attempts(t, id)) != 1 {
			t.Fatalf("pay URLs %v, %d attempts", seen, len(e.attempts(t, id)))
		}
		trade := tradeOf(t, &Order{ID: id}, e.lcEnv)
		// The buyer pays, twice (a double click): the sandbox charges once.
		for range 2 {
			if err := e.sb.Pay(trade, nil); err != nil {
				t.Fatal(err)
			}
		}
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool { return e.status(t, id) == enum.OrderPaid })
		if o, err := e.svcs[1].Pay(ctx, 1, id, enum.PayWechat); err != nil || o.Status != enum.OrderPaid || len(e.attempts(t, id)) != 1 {
			t.Fatalf("pay a paid order: %+v %v, %d attempts", o, err, len(e.attempts(t, id)))
		}
		if in, out, kept := e.checkMoney(t, id); in != 7 || out != 0 || kept != 7 {
			t.Fatalf("in %d out %d kept %d", in, out, kept)
		}
		a := e.attempts(t, id)[0]
		if a.ProviderTxn == "" || a.PaidTime == nil {
			t.Fatalf("attempt %+v", a)
		}
		ev := append(e.recs[0].payments(), e.recs[1].payments()...)
		if count(ev, "UNPAID/PAYING") != 1 || count(ev, "PAID/PAID") != 1 {
			t.Fatalf("events %v", ev)
		}
	})
}

// The pay notify delivered 5 times, its copies held back until after the
// refund notify: the order is PAID once, then REFUNDED once; the late copies
// change nothing. The refund asked twice at once (two instances) pays back
// once.
func TestNotifiesDuplicatedAndReorderedWithTheRefund(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newSandboxEnv(t, b, 2, nil)
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		ctx := context.Background()
		o, err := e.svcs[0].Pay(ctx, 1, id, enum.PayWechat)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.sb.Pay(tradeOf(t, o, e.lcEnv), &sandbox.Faults{Dup: 5, Reorder: true}); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool { return e.status(t, id) == enum.OrderPaid })
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				o, err := e.svcs[i%2].Refund(ctx, 1, id)
				if err != nil || (o.Status != enum.OrderRefunding && o.Status != enum.OrderRefunded) {
					t.Errorf("refund: %+v %v", o, err)
				}
			})
		}
		wg.Wait()
		testenv.Eventually(t, 10*time.Second, "order refunded", func() bool { return e.status(t, id) == enum.OrderRefunded })
		if in, out, kept := e.checkMoney(t, id); in != 7 || out != 7 || kept != 0 {
			t.Fatalf("in %d out %d kept %d", in, out, kept)
		}
		if st := e.status(t, id); st != enum.OrderRefunded || e.stock(t, v) != 1 {
			t.Fatalf("after the late copies: %v, stock %d", st, e.stock(t, v))
		}
		ev := append(e.recs[0].list(), e.recs[1].list()...)
		if count(ev, "PAID") != 1 || count(ev, "REFUNDING") != 1 || count(ev, "REFUNDED") != 1 {
			t.Fatalf("events %v", ev)
		}
		if o, err := e.svcs[0].Refund(ctx, 1, id); err != nil || o.Status != enum.OrderRefunded || o.Payment.Status != enum.PaymentRefunded {
			t.Fatalf("refund a refunded order: %+v %v", o, err)
		}
	})
}

// The buyer pays after the order was cancelled at its deadline: the money is
// refunded automatically, the order stays CANCELLED (its unit back on sale
// once), and the buyer is told (payment REFUNDING, then REFUNDED).
func TestPaidAfterCancelledAtDeadlineIsRefunded(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		var late atomic.Int64
		e := newSandboxEnv(t, b, 2, func(i int, c *Config) {
			if i == 1 { // the instance whose clock is past the deadline
				c.Now = func() time.Time { return time.UnixMilli(late.Load()) }
			}
		})
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		ctx := context.Background()
		o, err := e.svcs[0].Pay(ctx, 1, id, enum.PayAlipay)
		if err != nil {
			t.Fatal(err)
		}
		late.Store(e.svcs[0].Deadline(id).Add(time.Second).UnixMilli())
		if done, err := e.svcs[1].Expire(ctx, id); err != nil || !done {
			t.Fatalf("expire: %v %v", done, err)
		}
		if err := e.sb.Pay(tradeOf(t, o, e.lcEnv), &sandbox.Faults{Dup: 3}); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "refunded", func() bool {
			return e.attempts(t, id)[0].Status == enum.PaymentRefunded
		})
		if in, out, kept := e.checkMoney(t, id); in != 7 || out != 7 || kept != 0 {
			t.Fatalf("in %d out %d kept %d", in, out, kept)
		}
		if e.status(t, id) != enum.OrderCancelled || e.stock(t, v) != 1 {
			t.Fatalf("order %v, stock %d", e.status(t, id), e.stock(t, v))
		}
		ev := append(e.recs[0].payments(), e.recs[1].payments()...)
		if count(ev, "CANCELLED/REFUNDING") != 1 || count(ev, "CANCELLED/REFUNDED") != 1 {
			t.Fatalf("events %v", ev)
		}
		if _, err := e.svcs[0].Pay(ctx, 1, id, enum.PayAlipay); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("pay a cancelled order: %v", err)
		}
	})
}

// Notifies that are not the provider's, or that cannot apply, change
// nothing and are answered as failures: a forged signature, a signed notify
// with a changed amount, a notify for an unknown trade; a notify corrupted
// in transit is refused and its sound redelivery applies once.
func TestForgedAndCorruptNotifiesChangeNothing(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newSandboxEnv(t, b, 1, nil)
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		ctx := context.Background()
		o, err := e.svcs[0].Pay(ctx, 1, id, enum.PayAlipay)
		if err != nil {
			t.Fatal(err)
		}
		trade := e.attempts(t, id)[0].ID
		_, forger, _ := ed25519.GenerateKey(rand.Reader)
		post := func(key ed25519.PrivateKey, n payment.Notice) int {
			body, _ := json.Marshal(n)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.notify, bytes.NewReader(body))
			req.Header.Set(payment.SignatureHeader, payment.Sign(key, body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			return resp.StatusCode
		}
		paid := payment.Notice{Kind: payment.Paid, TradeNo: trade, TxnID: "X1", Amount: 7}
		changed := paid
		changed.Amount = 1
		unknown := paid
		unknown.TradeNo = trade + 1000
		for name, c := range map[string]struct {
			key ed25519.PrivateKey
			n   payment.Notice
		}{"forged": {forger, paid}, "amount": {e.key, changed}, "unknown": {e.key, unknown}} {
			for range 5 {
				if code := post(c.key, c.n); code != http.StatusBadRequest {
					t.Fatalf("%s: HTTP %d", name, code)
				}
			}
		}
		refunded := payment.Notice{Kind: payment.Refunded, TradeNo: trade, RefundNo: trade, TxnID: "X1", Amount: 7}
		if code := post(e.key, refunded); code != http.StatusBadRequest {
			t.Fatalf("refund notify of an unpaid trade: HTTP %d", code)
		}
		if e.status(t, id) != enum.OrderUnpaid || e.attempts(t, id)[0].Status != enum.PaymentPaying || len(e.payments(t, id)) != 0 {
			t.Fatalf("after forged notifies: %v, %v", e.status(t, id), e.attempts(t, id)[0].Status)
		}
		if err := e.sb.Pay(tradeOf(t, o, e.lcEnv), &sandbox.Faults{Corrupt: true, Dup: 2}); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool { return e.status(t, id) == enum.OrderPaid })
		if in, out, kept := e.checkMoney(t, id); in != 7 || out != 0 || kept != 7 {
			t.Fatalf("in %d out %d kept %d", in, out, kept)
		}
	})
}

// The buyer cancels on the pay page: the attempt is CLOSED and payOrder
// opens a second one; paying both (the first one's page was still open) keeps
// one and refunds the other automatically.
func TestSecondAttemptAndDoublePayment(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		e := newSandboxEnv(t, b, 1, nil)
		v := e.sale(t, 1)
		id := e.unpaid(t, v, 1)[1]
		ctx := context.Background()
		if _, err := e.svcs[0].Pay(ctx, 1, id, enum.PayAlipay); err != nil {
			t.Fatal(err)
		}
		first := strconv.FormatInt(e.attempts(t, id)[0].ID, 10)
		if err := e.sb.Cancel(first); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 10*time.Second, "closed", func() bool { return e.attempts(t, id)[0].Status == enum.PaymentClosed })
		// The buyer's app is told (it need not poll to offer paying again).
		testenv.Eventually(t, 10*time.Second, "the closed payment announced", func() bool {
			return count(e.recs[0].payments(), "UNPAID/CLOSED") == 1
		})
		o, err := e.svcs[0].Pay(ctx, 1, id, enum.PayAlipay)
		if err != nil || o.Payment.Attempt != 2 {
			t.Fatalf("second attempt: %+v %v", o, err)
		}
		// A third attempt by another channel, both paid.
		if _, err := e.svcs[0].Pay(ctx, 1, id, enum.PayWechat); err != nil {
			t.Fatal(err)
		}
		as := e.attempts(t, id)
		for _, a := range as[1:] {
			if err := e.sb.Pay(strconv.FormatInt(a.ID, 10), nil); err != nil {
				t.Fatal(err)
			}
		}
		testenv.Eventually(t, 10*time.Second, "one kept, one refunded", func() bool {
			as := e.attempts(t, id)
			return e.status(t, id) == enum.OrderPaid && (as[1].Status == enum.PaymentRefunded) != (as[2].Status == enum.PaymentRefunded)
		})
		if in, out, kept := e.checkMoney(t, id); in != 14 || out != 7 || kept != 7 {
			t.Fatalf("in %d out %d kept %d", in, out, kept)
		}
	})
}
