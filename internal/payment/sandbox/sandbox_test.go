package sandbox

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
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/payment"
)

func post(t *testing.T, url string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(b))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// A notify the server does not acknowledge is delivered again with backoff
// until it is; every delivery is signed; a refund pays back at most what the
// trade took, once per refund number.
func TestRetriesSignaturesAndRefundLimits(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	var mu sync.Mutex
	var got []payment.Notice
	var times []time.Time
	refusals := 2
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if !payment.Verify(pub, body, r.Header.Get(payment.SignatureHeader)) {
			t.Errorf("unsigned notify %s", body)
		}
		times = append(times, time.Now())
		if refusals > 0 {
			refusals--
			http.Error(w, "fail", http.StatusInternalServerError)
			return
		}
		var n payment.Notice
		_ = json.Unmarshal(body, &n)
		got = append(got, n)
		_, _ = io.WriteString(w, "success")
	}))
	defer receiver.Close()
	sb := New(Config{Key: key, Backoff: 30 * time.Millisecond, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv := httptest.NewServer(sb.Handler())
	defer func() { sb.Close(); srv.Close() }()

	if c := post(t, srv.URL+"/api/trades", map[string]any{"trade_no": "1", "order_id": "9", "amount": 500, "notify_url": receiver.URL}); c != 200 {
		t.Fatalf("create: %d", c)
	}
	if c := post(t, srv.URL+"/api/refunds", map[string]any{"trade_no": "1", "refund_no": "1", "amount": 500}); c != http.StatusConflict {
		t.Fatalf("refund of an unpaid trade: %d", c)
	}
	if err := sb.Pay("1", nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !sb.Quiet() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	if len(got) != 1 || got[0].Kind != payment.Paid || got[0].Amount != 500 || len(times) != 3 ||
		times[2].Sub(times[1]) < times[1].Sub(times[0]) {
		t.Fatalf("delivered %+v at %v", got, times)
	}
	mu.Unlock()
	if c := post(t, srv.URL+"/api/refunds", map[string]any{"trade_no": "1", "refund_no": "1", "amount": 501}); c != http.StatusConflict {
		t.Fatalf("refund over the amount: %d", c)
	}
	for range 3 {
		if c := post(t, srv.URL+"/api/refunds", map[string]any{"trade_no": "1", "refund_no": "1", "amount": 500}); c != 200 {
			t.Fatalf("refund: %d", c)
		}
	}
	if c := post(t, srv.URL+"/api/refunds", map[string]any{"trade_no": "1", "refund_no": "2", "amount": 1}); c != http.StatusConflict {
		t.Fatalf("a second refund past the amount: %d", c)
	}
	if l := sb.Ledger(); l.Charged != 500 || l.Refunded != 500 {
		t.Fatalf("ledger %+v", l)
	}
}
