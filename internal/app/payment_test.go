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

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/payment/sandbox"
	"github.com/hmdp/hmdp/internal/testenv"
)

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

		ctx, c := t.Context(), ts.gql(tok)
		pay := func() gqlclient.PayOrderPaymentPayOrderVoucherOrder {
			return must(gqlclient.PayOrderPayment(ctx, c, id, gqlclient.PayTypeAlipay))(t).PayOrder
		}
		first, second := pay(), pay()
		p := first.Payment
		if first.Status != "UNPAID" || p == nil || p.Status != "PAYING" || p.Amount != 100 || p.PayUrl == nil ||
			second.Payment == nil || second.Payment.PayUrl == nil || *second.Payment.PayUrl != *p.PayUrl {
			t.Fatalf("payOrder: %+v then %+v", first, second)
		}
		trade := (*p.PayUrl)[strings.LastIndex(*p.PayUrl, "/")+1:]
		if err := sb.Pay(trade, nil); err != nil {
			t.Fatal(err)
		}
		var got *gqlclient.OrderPaymentOrderVoucherOrder
		read := func() {
			got = must(gqlclient.OrderPayment(ctx, c, id))(t).Order
		}
		testenv.Eventually(t, 10*time.Second, "order paid", func() bool {
			read()
			return got != nil && got.Status == "PAID"
		})
		if got.Payment == nil || got.Payment.Status != "PAID" || got.Payment.ProviderTxnId == nil {
			t.Fatalf("paid order: %+v", got.Payment)
		}
		refund := must(gqlclient.RefundOrderPayment(ctx, c, id))(t).RefundOrder
		if refund.Status != "REFUNDING" && refund.Status != "REFUNDED" {
			t.Fatalf("refundOrder: %+v", refund)
		}
		testenv.Eventually(t, 10*time.Second, "order refunded", func() bool {
			read()
			return got != nil && got.Status == "REFUNDED"
		})
		testenv.Eventually(t, 10*time.Second, "sandbox quiet", sb.Quiet)
		l := sb.Ledger()
		if got.Payment == nil || got.Payment.Status != "REFUNDED" || got.Payment.RefundAmount != 100 || l.Charged != 100 || l.Refunded != 100 {
			t.Fatalf("refunded order: %+v; sandbox charged %d, refunded %d", got.Payment, l.Charged, l.Refunded)
		}
	})
}
