package app

import (
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/payment/sandbox"
	"github.com/hmdp/hmdp/internal/testenv"
)

const payWithURL = `mutation($id: ID!, $p: PayType!) { payOrder(orderId: $id, payType: $p) {
  id status payment { attempt status amount payUrl } } }`

const orderPayment = `query($id: ID!) { order(id: $id) { status payment { status amount refundAmount providerTxnId } } }`

const refundWithPayment = `mutation($id: ID!) { refundOrder(orderId: $id) { status payment { status } } }`

type payView struct {
	Status  string
	Payment *struct {
		Attempt              int
		Status               string
		Amount, RefundAmount int64
		PayURL               *string `json:"payUrl"`
		ProviderTxnID        *string `json:"providerTxnId"`
	}
}

// The whole payment through GraphQL and the server's notify endpoint, with
// the sandbox provider delivering every notify three times: payOrder answers
// the sandbox's pay URL (the same on a second call), the buyer pays there,
// the order is PAID with the provider's transaction id; refundOrder answers
// REFUNDING, and the refund notify makes it REFUNDED. The sandbox's ledger
// agrees: 100 taken, 100 paid back.
func TestPayThroughTheSandboxProvider(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		pub, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		sb := sandbox.New(sandbox.Config{Key: key, Backoff: 20 * time.Millisecond, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		sbSrv := httptest.NewServer(sb.Handler())
		t.Cleanup(func() { sb.Close(); sbSrv.Close() })
		sb.SetFaults(sandbox.Faults{Dup: 3})
		provider := &payment.Sandbox{BaseURL: sbSrv.URL, PublicKey: pub}
		ts, _ := startOrdersApp(t, backend, Options{Seckill: fastSeckill,
			Orders: order.Config{PollEvery: 20 * time.Millisecond, Payments: provider}})
		provider.NotifyURL = ts.URL + payment.NotifyPath // before any payment is opened
		now := time.Now()
		v := ts.createSale(1, now.Add(-time.Minute), now.Add(time.Hour))
		tok := ts.users(1)[0]
		id := ts.seckill(tok, v)
		ts.waitStatus(tok, id, "UNPAID")

		var first, second struct{ PayOrder payView }
		ts.ok(tok, payWithURL, map[string]any{"id": id, "p": "ALIPAY"}, &first)
		ts.ok(tok, payWithURL, map[string]any{"id": id, "p": "ALIPAY"}, &second)
		p := first.PayOrder.Payment
		if first.PayOrder.Status != "UNPAID" || p == nil || p.Status != "PAYING" || p.Amount != 100 || p.PayURL == nil ||
			second.PayOrder.Payment.PayURL == nil || *second.PayOrder.Payment.PayURL != *p.PayURL {
			t.Fatalf("payOrder: %+v then %+v", first.PayOrder, second.PayOrder)
		}
		trade := (*p.PayURL)[strings.LastIndex(*p.PayURL, "/")+1:]
		if err := sb.Pay(trade, nil); err != nil {
			t.Fatal(err)
		}
		var got struct{ Order payView }
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool {
			ts.ok(tok, orderPayment, map[string]any{"id": id}, &got)
			return got.Order.Status == "PAID"
		})
		if got.Order.Payment.Status != "PAID" || got.Order.Payment.ProviderTxnID == nil {
			t.Fatalf("paid order: %+v", got.Order.Payment)
		}
		var refund struct{ RefundOrder payView }
		ts.ok(tok, refundWithPayment, map[string]any{"id": id}, &refund)
		if refund.RefundOrder.Status != "REFUNDING" && refund.RefundOrder.Status != "REFUNDED" {
			t.Fatalf("refundOrder: %+v", refund.RefundOrder)
		}
		testenv.Eventually(t, 10*time.Second, "order refunded", func() bool {
			ts.ok(tok, orderPayment, map[string]any{"id": id}, &got)
			return got.Order.Status == "REFUNDED"
		})
		testenv.Eventually(t, 10*time.Second, "sandbox quiet", sb.Quiet)
		l := sb.Ledger()
		if got.Order.Payment.Status != "REFUNDED" || got.Order.Payment.RefundAmount != 100 || l.Charged != 100 || l.Refunded != 100 {
			t.Fatalf("refunded order: %+v; sandbox charged %d, refunded %d", got.Order.Payment, l.Charged, l.Refunded)
		}
	})
}
