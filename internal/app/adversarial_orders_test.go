package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	entimage "github.com/hmdp/hmdp/ent/image"
	entpayment "github.com/hmdp/hmdp/ent/payment"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/seckill"
)

// Attacks on the money and the one-order-per-buyer rule of flash-sale
// orders and on image storage, through GraphQL on a whole server.

// ordLogTap counts the log records at ERROR and above, and keeps their messages.
type ordLogTap struct {
	mu     sync.Mutex
	errors []string
}

func (l *ordLogTap) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelError }

func (l *ordLogTap) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errors = append(l.errors, r.Message)
	return nil
}

func (l *ordLogTap) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *ordLogTap) WithGroup(string) slog.Handler      { return l }

func (l *ordLogTap) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.errors...)
}

// startOrdersApp is startApp whose log's ERROR records are also counted by
// the returned tap.
func startOrdersApp(t *testing.T, backend string, opt Options) (*testServer, *ordLogTap) {
	t.Helper()
	tap := &ordLogTap{}
	sms := &smsBox{codes: map[string]string{}}
	clock := &fakeClock{}
	var out slog.Handler = slog.NewJSONHandler(io.Discard, nil)
	if testing.Verbose() {
		out = slog.NewJSONHandler(testWriter{t}, nil)
	}
	opt.Sender, opt.Now = sms, clock.Now
	a, err := New(context.Background(), testConfig(t, backend), slog.New(ordTee{out, tap}), opt)
	if err != nil {
		t.Fatal(err)
	}
	h := a.Handler()
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		a.Stop()
		hs.Close()
		a.Close()
	})
	client := &http.Client{Transport: handlerTransport{h: h, remoteAddr: "127.0.0.1:40000"}}
	return &testServer{t: t, URL: hs.URL, client: client, app: a, sms: sms, clock: clock, backend: backend}, tap
}

// ordTee sends each record to both handlers.
type ordTee struct{ a, b slog.Handler }

func (h ordTee) Enabled(ctx context.Context, lv slog.Level) bool {
	return h.a.Enabled(ctx, lv) || h.b.Enabled(ctx, lv)
}

func (h ordTee) Handle(ctx context.Context, r slog.Record) error {
	if h.a.Enabled(ctx, r.Level) {
		_ = h.a.Handle(ctx, r.Clone())
	}
	if h.b.Enabled(ctx, r.Level) {
		_ = h.b.Handle(ctx, r.Clone())
	}
	return nil
}

func (h ordTee) WithAttrs(as []slog.Attr) slog.Handler {
	return ordTee{h.a.WithAttrs(as), h.b.WithAttrs(as)}
}
func (h ordTee) WithGroup(n string) slog.Handler { return ordTee{h.a.WithGroup(n), h.b.WithGroup(n)} }

func ordID(t *testing.T, s string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// ordPayments returns the payment records of the server's database by order id.
func ordPayments(t *testing.T, ts *testServer) map[int64]*ent.Payment {
	t.Helper()
	ps, err := ts.app.db.Client.Payment.Query().All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]*ent.Payment{}
	for _, p := range ps {
		out[p.OrderID] = p
	}
	return out
}

// checkMoney asserts money in = money out + money kept: the provider paid
// back, for each order, exactly what its payment record says was refunded,
// never more than was recorded as paid, and nothing for an order without a
// payment record.
func checkMoney(t *testing.T, ts *testServer, pay *order.FakePayments, orders ...int64) {
	t.Helper()
	ps := ordPayments(t, ts)
	var in, out, kept int64
	for _, id := range orders {
		p := ps[id]
		refunded, ok := pay.Refunded(id)
		if p == nil {
			if ok {
				t.Fatalf("order %d: %d refunded without a recorded payment", id, refunded)
			}
			continue
		}
		if ok != (p.Status == entpayment.StatusREFUNDED) || refunded != p.RefundAmount || p.RefundAmount > p.Amount {
			t.Fatalf("order %d: provider refunded %d (%v), payment %+v", id, refunded, ok, p)
		}
		in, out = in+p.Amount, out+refunded
		if p.Status == entpayment.StatusPAID {
			kept += p.Amount
		}
	}
	if in != out+kept {
		t.Fatalf("money in %d != out %d + kept %d", in, out, kept)
	}
}

// A refund goes only against a payment this server recorded, for at most
// its amount. Before: payOrder recorded nothing and refundOrder asked the
// provider for the voucher's current price, whatever had been taken; an
// order marked PAID by other means was paid back too. After: payOrder
// records the payment (price at payment time) with the move to PAID;
// refundOrder without a record is NO_PAYMENT with no provider call; ten
// racing refunds pay back once; a price raised after payment changes
// nothing.
func TestAdversarialRefundOnlyWhatWasPaid(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		pay := &order.FakePayments{}
		ts, _ := startOrdersApp(t, backend, Options{Seckill: fastSeckill,
			Orders: order.Config{PollEvery: 20 * time.Millisecond, Payments: pay}})
		ctx := context.Background()
		now := time.Now()
		v := ts.createSale(5, now.Add(-time.Minute), now.Add(time.Hour))
		tokens := ts.users(4)
		ids := make([]string, len(tokens))
		for i, tok := range tokens {
			ids[i] = ts.seckill(tok, v)
			ts.waitStatus(tok, ids[i], "UNPAID")
		}
		all := make([]int64, len(ids))
		for i, id := range ids {
			all[i] = ordID(t, id)
		}

		// An unpaid order: CONFLICT, nothing asked of the provider.
		if _, err := gqlclient.RefundOrder(ctx, ts.gql(tokens[0]), ids[0]); kindOf(err).Code != "CONFLICT" {
			t.Fatalf("refund of an unpaid order: %v", err)
		}
		// Marked PAID without a payment (as payOrder did before payments
		// were recorded): NO_PAYMENT, nothing asked of the provider.
		if err := ts.app.db.Client.Order.UpdateOneID(all[0]).SetStatus(enum.OrderPaid).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := gqlclient.RefundOrder(ctx, ts.gql(tokens[0]), ids[0]); kindOf(err).Code != "NO_PAYMENT" {
				t.Fatalf("refund without a payment: %v", err)
			}
		}
		if pay.Requests() != 0 || ts.order(tokens[0], ids[0]).Status != "PAID" {
			t.Fatalf("provider asked %d times; order %+v", pay.Requests(), ts.order(tokens[0], ids[0]))
		}

		// Paid (twice: one payment), then the price raised to 1 000 000.
		for i := 1; i < 4; i++ {
			for range 2 {
				ts.ok(tokens[i], payMutation, map[string]any{"id": ids[i], "p": "ALIPAY"}, nil)
			}
		}
		ps := ordPayments(t, ts)
		if len(ps) != 3 || ps[all[0]] != nil {
			t.Fatalf("payments %v", ps)
		}
		for i := 1; i < 4; i++ {
			if p := ps[all[i]]; p == nil || p.Amount != 100 || p.Status != entpayment.StatusPAID || p.PayType != enum.PayAlipay {
				t.Fatalf("order %s: payment %+v", ids[i], p)
			}
		}
		if err := ts.app.db.Client.Voucher.UpdateOneID(v).SetPayValue(1_000_000).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		// Ten racing refunds of one order, and a refund of someone else's.
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				r, err := gqlclient.RefundOrder(ctx, ts.gql(tokens[1]), ids[1])
				if err != nil || r.RefundOrder.Status != gqlclient.OrderStatusRefunded {
					t.Errorf("refund: %+v %v", r, err)
				}
			})
		}
		wg.Wait()
		if _, err := gqlclient.RefundOrder(ctx, ts.gql(tokens[1]), ids[2]); kindOf(err).Code != "NOT_FOUND" {
			t.Fatalf("someone else's refund: %v", err)
		}
		if amount, ok := pay.Refunded(all[1]); !ok || amount != 100 {
			t.Fatalf("provider refunded %d %v, want the 100 paid", amount, ok)
		}
		// Redeemed: not refundable, the money is kept.
		must(gqlclient.RedeemOrder(ctx, ts.gql(ts.admin()), ids[2]))(t)
		if _, err := gqlclient.RefundOrder(ctx, ts.gql(tokens[2]), ids[2]); kindOf(err).Code != "CONFLICT" {
			t.Fatalf("refund of a used order: %v", err)
		}
		checkMoney(t, ts, pay, all...)
		if p := ordPayments(t, ts)[all[1]]; p.Status != entpayment.StatusREFUNDED || p.RefundAmount != 100 || p.RefundTime == nil {
			t.Fatalf("refunded payment %+v", p)
		}
	})
}

// After a refund the buyer cannot take the sale again: one order per buyer
// per flash sale (一人一单). Before: seckillVoucher answered PENDING, and the
// order ended REJECTED duplicate_buyer with an ERROR log line and a dead
// letter, every time. After: ALREADY_ORDERED at once, nothing dead-lettered,
// rejected or logged at ERROR; the unit returned by the refund goes to
// another buyer; the same holds after the sale's Redis state is lost and
// rebuilt from MySQL.
func TestAdversarialRefundThenBuyAgain(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		pay := &order.FakePayments{}
		ts, tap := startOrdersApp(t, backend, Options{Seckill: fastSeckill,
			Orders: order.Config{PollEvery: 20 * time.Millisecond, Payments: pay}})
		ctx := context.Background()
		now := time.Now()
		v := ts.createSale(1, now.Add(-time.Minute), now.Add(time.Hour))
		tokens := ts.users(2)
		id := ts.seckill(tokens[0], v)
		ts.waitStatus(tokens[0], id, "UNPAID")
		ts.ok(tokens[0], payMutation, map[string]any{"id": id, "p": "WECHAT"}, nil)
		must(gqlclient.RefundOrder(ctx, ts.gql(tokens[0]), id))(t)
		errorsBefore := len(tap.list())

		k := seckill.KeysOf(ts.app.cfg.RedisPrefix, v)
		// Three attempts: with the purchase, the per-user burst the sale
		// allows (on a real Redis, whose clock the test cannot move).
		for attempt := range 3 {
			if attempt == 2 {
				// Redis loses the sale: the rebuild from MySQL keeps the buyer.
				if err := ts.redis().Del(ctx, k.State, k.Buyers).Err(); err != nil {
					t.Fatal(err)
				}
			}
			r := ts.do(tokens[0], seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)})
			if r.code() != "ALREADY_ORDERED" {
				t.Fatalf("attempt %d after the refund: %s %+v", attempt, r.Data, r.Errors)
			}
		}
		// The refunded unit is on sale for someone else.
		other := ts.seckill(tokens[1], v)
		ts.waitStatus(tokens[1], other, "UNPAID")
		if o := ts.order(tokens[0], id); o.Status != "REFUNDED" {
			t.Fatalf("refunded order now %+v", o)
		}
		var mine struct {
			MyOrders struct {
				Edges []struct{ Node struct{ ID, Status string } }
			}
		}
		ts.ok(tokens[0], myOrdersQuery, map[string]any{"f": 10}, &mine)
		if len(mine.MyOrders.Edges) != 1 || mine.MyOrders.Edges[0].Node.ID != id {
			t.Fatalf("the buyer's orders: %+v", mine)
		}
		time.Sleep(500 * time.Millisecond) // a late rejection would land now
		if n, err := ts.redis().XLen(ctx, k.Dead).Result(); err != nil || n != 0 {
			t.Fatalf("dead letters: %d (%v)", n, err)
		}
		if n, err := ts.redis().HLen(ctx, k.Rejected).Result(); err != nil || n != 0 {
			t.Fatalf("rejected orders: %d (%v)", n, err)
		}
		if errs := tap.list()[errorsBefore:]; len(errs) != 0 {
			t.Fatalf("ERROR log lines: %q", errs)
		}
		checkMoney(t, ts, pay, ordID(t, id), ordID(t, other))
		if got := fmt.Sprint(pay.Requests()); got != "1" {
			t.Fatalf("provider asked %s times", got)
		}
	})
}

// Images: deleted images must leave caches, and one
// account may keep only so many bytes of uploads.

// ordImage is a PNG of exactly size bytes (a real PNG, padded).
func ordImage(t *testing.T, size int) []byte {
	t.Helper()
	b := pngBytes(t)
	if len(b) > size {
		t.Fatalf("a PNG takes %d bytes", len(b))
	}
	return append(b, make([]byte, size-len(b))...)
}

// imageAnswer is what getImage read: the status and headers (the body is
// read and closed).
type imageAnswer struct {
	StatusCode int
	Header     http.Header
}

func (ts *testServer) getImage(path string, header ...string) imageAnswer {
	ts.t.Helper()
	req, _ := http.NewRequestWithContext(ts.t.Context(), http.MethodGet, ts.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return imageAnswer{resp.StatusCode, resp.Header}
}

// A deleted image is not cached forever. Before: every image was served
// "public, max-age=31536000, immutable", so a client or proxy that had it
// kept showing it for a year after deleteImage, and the 404 of a deleted
// one carried the same year. After: an image may be reused for an hour
// (image.CacheMaxAge) and is then revalidated (ETag, 304 while it lives);
// once deleted it is 404 with no-store, revalidation included.
func TestAdversarialDeletedImageLeavesCaches(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		alice := ts.login("13800000031")
		img := ts.uploadPath(alice)
		resp := ts.getImage(img)
		cc, etag := resp.Header.Get("Cache-Control"), resp.Header.Get("ETag")
		if resp.StatusCode != http.StatusOK || cc != "public, max-age=3600, must-revalidate" || etag == "" {
			t.Fatalf("live image: %d, Cache-Control %q, ETag %q", resp.StatusCode, cc, etag)
		}
		if r := ts.getImage(img, "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
			t.Fatalf("revalidation of a live image: %d", r.StatusCode)
		}
		if r := ts.getImage(img, "If-Modified-Since", resp.Header.Get("Last-Modified")); r.StatusCode != http.StatusNotModified {
			t.Fatalf("revalidation by date of a live image: %d", r.StatusCode)
		}
		ts.ok(alice, deleteImageMutation, map[string]any{"p": img}, nil)
		for _, h := range [][]string{nil, {"If-None-Match", etag}, {"If-Modified-Since", resp.Header.Get("Last-Modified")}} {
			r := ts.getImage(img, h...)
			if r.StatusCode != http.StatusNotFound || r.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("deleted image (%v): %d, Cache-Control %q", h, r.StatusCode, r.Header.Get("Cache-Control"))
			}
		}
		// A name never stored is the same.
		if r := ts.getImage("/images/00000000000000000000000000000000.png"); r.StatusCode != http.StatusNotFound || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("unknown image: %d, Cache-Control %q", r.StatusCode, r.Header.Get("Cache-Control"))
		}
	})
}

// One account keeps at most HMDP_IMAGE_QUOTA_BYTES of live uploads. Before:
// only the rate limit (30 an hour, then one every 2 minutes) bounded them,
// about 3.6 GB a day per account. After: past the quota uploadImage is
// UPLOAD_QUOTA_EXCEEDED naming the limit, its file removed; deleting an
// image makes room; ten racing uploads never pass the quota together; sizes
// of uploads stored before sizes were recorded are filled in and counted.
func TestAdversarialUploadQuota(t *testing.T) {
	t.Parallel()
	if d := testConfig(t, "embedded").ImageQuotaBytes; d != 200<<20 {
		t.Fatalf("default quota %d", d)
	}
	forEachBackend(t, func(t *testing.T, backend string) {
		// Each upload also stores its variants (a few hundred bytes for
		// this 2×2 image), which the quota counts too.
		const size = 10000
		ts := startServer(t, backend, func(c *config.Config) { c.ImageQuotaBytes = 3*size + size/2 })
		files := func() int {
			es, err := os.ReadDir(filepath.Join(ts.app.cfg.DataDir, "images"))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range es {
				if !strings.HasPrefix(e.Name(), ".") && !strings.Contains(e.Name(), ".w") { // images, not their variants
					n++
				}
			}
			return n
		}
		upload := func(tok string) gqlResponse { return ts.upload(tok, ordImage(t, size), true) }
		alice := ts.login("13800000032")
		var paths []string
		for range 3 {
			r := upload(alice)
			if len(r.Errors) > 0 {
				t.Fatalf("upload within the quota: %+v", r.Errors)
			}
			var out struct{ UploadImage string }
			_ = json.Unmarshal(r.Data, &out)
			paths = append(paths, out.UploadImage)
		}
		r := upload(alice)
		if r.code() != "UPLOAD_QUOTA_EXCEEDED" || !strings.Contains(r.Errors[0].Message, "35000 bytes") {
			t.Fatalf("upload past the quota: %+v", r.Errors)
		}
		if files() != 3 {
			t.Fatalf("%d files stored, want 3", files())
		}
		// Deleting one makes room for one.
		ts.ok(alice, deleteImageMutation, map[string]any{"p": paths[0]}, nil)
		if r := upload(alice); len(r.Errors) > 0 {
			t.Fatalf("upload after a delete: %+v", r.Errors)
		}
		if r := upload(alice); r.code() != "UPLOAD_QUOTA_EXCEEDED" {
			t.Fatalf("upload past the quota again: %+v", r.Errors)
		}

		// Ten racing uploads of a fresh account: three fit.
		bob := ts.login("13800000033")
		var mu sync.Mutex
		codes := map[string]int{}
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				c := upload(bob).code()
				mu.Lock()
				codes[c]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if codes[""] != 3 || codes["UPLOAD_QUOTA_EXCEEDED"] != 7 {
			t.Fatalf("racing uploads: %v", codes)
		}
		if files() != 6 {
			t.Fatalf("%d files stored, want 6", files())
		}

		// An upload recorded before sizes were (size 0) is counted once
		// the collector has filled its size in.
		ctx := context.Background()
		if err := ts.app.db.Client.Image.Update().Where(entimage.UserID(ordUserID(t, ts, bob))).SetSize(0).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := ts.app.collector.FillSizes(ctx); err != nil || n != 3 {
			t.Fatalf("sizes filled %d (%v), want 3", n, err)
		}
		if r := upload(bob); r.code() != "UPLOAD_QUOTA_EXCEEDED" {
			t.Fatalf("upload past the quota after the fill: %+v", r.Errors)
		}
	})
}

func ordUserID(t *testing.T, ts *testServer, token string) int64 {
	t.Helper()
	return ordID(t, ts.userID(token))
}
