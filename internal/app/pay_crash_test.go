package app

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/payment/sandbox"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Documents of the test's raw requests, which go to server processes' own
// URLs (first.url, second.url) that ts.gql's client (of ts, in process)
// cannot reach; payView is what they answer.
const (
	payWithURL = `mutation($id: ID!, $p: PayType!) { payOrder(orderId: $id, payType: $p) {
  id status payment { attempt status amount payUrl } } }`
	orderPayment = `query($id: ID!) { order(id: $id) { status payment { status amount refundAmount providerTxnId } } }`
)

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

// The instance is killed (kill -9) after it committed a payment notify and
// before its answer reached the provider: the provider, with no answer,
// delivers the notify again, to the instance restarted where the first one
// listened, which answers it as done without doing it twice. The order is
// PAID once, with one paid attempt of the order's amount, and money in
// (the sandbox's ledger) equals the money the records keep. The built
// binary, real MariaDB and Redis; the answer is lost on a proxy in front of
// the instance (testenv.Proxy.HoleAnswers) until the kill.
func TestNotifyAnsweredAfterAKillBetweenCommitAndAnswer(t *testing.T) {
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR: a server process uses them")
	}
	t.Parallel()
	bin := buildServer(t)
	cfg := sharedConfig(t, testenv.Real)
	if len(cfg.RedisAddrs) > 1 {
		t.Skip("a fault of MySQL and the payment notify: a Redis Cluster does not change its answer (make test-cluster)")
	}
	ts := startServerWith(t, testenv.Real, cfg)

	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	sb := sandbox.New(sandbox.Config{Key: key, Backoff: 200 * time.Millisecond, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	sbSrv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { sb.Close(); sbSrv.Close() })

	addr := freeAddr(t)
	proxy := testenv.NewProxy(t, addr) // the provider reaches the instance through it
	env := processEnv(cfg, "HMDP_ADDR="+addr, "HMDP_RATE_LIMITS=off", "HMDP_PAY_PROVIDER=sandbox",
		"HMDP_PAY_PROVIDER_URL="+sbSrv.URL, "HMDP_PAY_NOTIFY_URL=http://"+proxy.Addr()+payment.NotifyPath,
		"HMDP_PAY_PUBLIC_KEY="+base64.StdEncoding.EncodeToString(pub))
	first := startProcess(t, bin, env)

	created := must(gqlclient.CreateVoucher(t.Context(), ts.gql(ts.admin()), gqlclient.CreateVoucherInput{
		ShopId: "1", Title: "plain", PayValue: 100, ActualValue: 200}))(t).CreateVoucher
	tok := ts.users(1)[0]
	// Raw: these requests go to a server process (first.url, second.url, by
	// postGraphQL), which ts.gql's client (of ts.URL, in process) cannot reach.
	gql := func(url, query string, vars map[string]any, out any) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		r, err := postGraphQL(url, tok, body)
		if err != nil || len(r.Errors) > 0 {
			t.Fatalf("%s: %v %+v", query, err, r.Errors)
		}
		if err := json.Unmarshal(r.Data, out); err != nil {
			t.Fatal(err)
		}
	}
	var bought struct{ BuyVoucher struct{ ID string } }
	gql(first.url, `mutation($v: ID!) { buyVoucher(voucherId: $v) { id } }`, map[string]any{"v": created.Id}, &bought)
	id := bought.BuyVoucher.ID
	var paying struct{ PayOrder payView }
	gql(first.url, payWithURL, map[string]any{"id": id, "p": "ALIPAY"}, &paying)
	p := paying.PayOrder.Payment
	if p == nil || p.PayURL == nil || p.Amount != 100 {
		t.Fatalf("payOrder: %+v", paying.PayOrder)
	}

	proxy.HoleAnswers()
	if err := sb.Pay((*p.PayURL)[strings.LastIndex(*p.PayURL, "/")+1:], nil); err != nil {
		t.Fatal(err)
	}
	status := func() (order int, attempts []string) {
		t.Helper()
		if err := ts.app.db.SQL.QueryRowContext(t.Context(), "SELECT status FROM tb_voucher_order WHERE id = ?", id).Scan(&order); err != nil {
			t.Fatal(err)
		}
		rows, err := ts.app.db.SQL.QueryContext(t.Context(), "SELECT CONCAT(status, ' ', amount) FROM hmdp_pay_attempt WHERE order_id = ?", id)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var a string
			if err := rows.Scan(&a); err != nil {
				t.Fatal(err)
			}
			attempts = append(attempts, a)
		}
		return order, attempts
	}
	testenv.Eventually(t, 10*time.Second, "the notify committed (order PAID in MySQL)", func() bool {
		o, _ := status()
		return o == 2
	})
	// Its answer is in the proxy's hole once the proxy has read it (on a
	// loaded machine the proxy may read it only after Heal, and forward it):
	// the instance dies then.
	testenv.Eventually(t, 10*time.Second, "the notify's answer dropped", func() bool { return proxy.AnswersDropped() > 0 })
	_ = first.cmd.Process.Signal(syscall.SIGKILL)
	_ = first.cmd.Wait()
	proxy.Heal()
	second := startProcess(t, bin, env)

	testenv.Eventually(t, 30*time.Second, "the provider's retries ended", sb.Quiet)
	if !strings.Contains(logs.String(), "notify not acknowledged; retrying") || strings.Contains(logs.String(), "given up") {
		t.Fatalf("the provider did not deliver the notify again, or gave up:\n%s", logs.String())
	}
	o, attempts := status()
	l := sb.Ledger()
	paid := "PAID" // as the order reads through the restarted instance
	var got struct{ Order payView }
	gql(second.url, orderPayment, map[string]any{"id": id}, &got)
	if o != 2 || got.Order.Status != paid || got.Order.Payment == nil || got.Order.Payment.Status != paid ||
		len(attempts) != 1 || l.Charged != 100 || l.Refunded != 0 {
		t.Fatalf("order %d (%+v), attempts %v, provider charged %d refunded %d; want PAID once, one attempt of 100, 100 charged",
			o, got.Order, attempts, l.Charged, l.Refunded)
	}
}
