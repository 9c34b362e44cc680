// Package sandbox is the sandbox payment provider (cmd/paysandbox): it speaks
// the protocol of payment.Sandbox, shows a pay page where the buyer clicks
// 支付 or 取消, signs its notifies with Ed25519 and delivers them to the
// trade's notify URL, again with backoff until the server answers "success".
// Faults make it misbehave the ways real providers do: it can duplicate,
// delay, reorder and corrupt its notifies (Faults: the admin endpoint
// POST /admin/faults, or the pay URL's query parameters).
package sandbox

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hmdp/hmdp/internal/payment"
)

// Faults make the notifies misbehave.
type Faults struct {
	// Dup delivers each notify this many times in all (0 or 1: once).
	Dup int `json:"dup"`
	// Delay waits this long before a notify is first sent.
	Delay time.Duration `json:"delay"`
	// Reorder holds a trade's extra pay notifies (see Dup) back until its
	// refund notify was delivered, so they arrive after it.
	Reorder bool `json:"reorder"`
	// Corrupt changes the amount of each notify's first delivery after it
	// was signed (the signature no longer verifies); the retries are sound.
	Corrupt bool `json:"corrupt"`
}

// Config configures the sandbox; zero values take the defaults.
type Config struct {
	Key ed25519.PrivateKey
	// PublicURL is the sandbox's own base URL, for its pay URLs (default http://localhost:8090).
	PublicURL string
	// Backoff is the wait before the first retry, doubled after each (default 500ms, at most 1m);
	// MaxTries ends the deliveries of a notify (default 12).
	Backoff  time.Duration
	MaxTries int
	Client   *http.Client // for notifies (default a 10 s timeout)
	Log      *slog.Logger
}

// Trade is one payment the server opened.
type Trade struct {
	TradeNo   string    `json:"trade_no"`
	OrderID   string    `json:"order_id"`
	Amount    int64     `json:"amount"`
	Channel   string    `json:"channel"`
	Subject   string    `json:"subject"`
	NotifyURL string    `json:"notify_url"`
	Expires   time.Time `json:"expires"`
	Status    string    `json:"status"` // WAIT_BUYER_PAY, PAID, CLOSED
	TxnID     string    `json:"txn_id,omitempty"`
	Refunded  int64     `json:"refunded"`
	RefundNos []string  `json:"refund_nos,omitempty"`
	faults    *Faults
	held      [][]byte // reordered pay notifies, sent after the refund notify
}

// Ledger is the money the sandbox moved.
type Ledger struct {
	Charged  int64    `json:"charged"`  // taken from buyers
	Refunded int64    `json:"refunded"` // paid back
	Trades   []*Trade `json:"trades"`
}

// Server is the sandbox provider.
type Server struct {
	cfg    Config
	mu     sync.Mutex
	trades map[string]*Trade
	faults Faults
	seq    int64
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
	sent   map[string]int // deliveries answered success, by notify id
	busy   int            // deliveries under way or held back
}

// New returns a sandbox; Close ends its deliveries.
func New(cfg Config) *Server {
	if cfg.PublicURL == "" {
		cfg.PublicURL = "http://localhost:8090"
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.MaxTries <= 0 {
		cfg.MaxTries = 12
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{cfg: cfg, trades: map[string]*Trade{}, ctx: ctx, cancel: cancel, sent: map[string]int{}}
}

// Close stops the deliveries and waits for them.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

// SetFaults sets the faults of the notifies of trades whose pay page set none.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// Ledger returns the money moved so far.
func (s *Server) Ledger() Ledger {
	s.mu.Lock()
	defer s.mu.Unlock()
	var l Ledger
	for _, t := range s.trades {
		c := *t
		c.RefundNos = append([]string(nil), t.RefundNos...)
		l.Trades = append(l.Trades, &c)
		if t.Status == "PAID" {
			l.Charged += t.Amount
		}
		l.Refunded += t.Refunded
	}
	return l
}

// Delivered counts the deliveries of notify id the server answered "success".
func (s *Server) Delivered(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[id]
}

// Quiet reports whether no notify is being delivered or held back.
func (s *Server) Quiet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy == 0
}

// Handler serves the sandbox: the API the server calls, the pay page, the admin endpoints.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/trades", s.createTrade)
	mux.HandleFunc("POST /api/refunds", s.refund)
	mux.HandleFunc("GET /pay/{trade}", s.payPage)
	mux.HandleFunc("POST /pay/{trade}", s.payAction)
	mux.HandleFunc("POST /admin/faults", s.setFaults)
	mux.HandleFunc("GET /admin/faults", func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		f := s.faults
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, f)
	})
	mux.HandleFunc("GET /admin/ledger", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, s.Ledger()) })
	return mux
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, map[string]string{"error": fmt.Sprintf(format, args...)})
}

func (s *Server) createTrade(w http.ResponseWriter, r *http.Request) {
	var in Trade
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&in); err != nil || in.TradeNo == "" || in.Amount < 0 {
		fail(w, http.StatusBadRequest, "a trade needs trade_no and amount")
		return
	}
	if _, err := url.ParseRequestURI(in.NotifyURL); err != nil {
		fail(w, http.StatusBadRequest, "notify_url: %v", err)
		return
	}
	s.mu.Lock()
	t, ok := s.trades[in.TradeNo]
	if !ok {
		t = &in
		t.Status, t.Refunded, t.RefundNos = "WAIT_BUYER_PAY", 0, nil
		s.trades[in.TradeNo] = t
	}
	same := t.Amount == in.Amount && t.OrderID == in.OrderID
	s.mu.Unlock()
	if !same {
		// Alipay answers a reused out_trade_no with other terms the same way.
		fail(w, http.StatusConflict, "trade %s exists with other terms", in.TradeNo)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"pay_url": strings.TrimRight(s.cfg.PublicURL, "/") + "/pay/" + url.PathEscape(in.TradeNo)})
}

func (s *Server) refund(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TradeNo   string `json:"trade_no"`
		RefundNo  string `json:"refund_no"`
		Amount    int64  `json:"amount"`
		NotifyURL string `json:"notify_url"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&in); err != nil || in.RefundNo == "" || in.Amount <= 0 {
		fail(w, http.StatusBadRequest, "a refund needs trade_no, refund_no and a positive amount")
		return
	}
	s.mu.Lock()
	t, ok := s.trades[in.TradeNo]
	switch {
	case !ok:
		s.mu.Unlock()
		fail(w, http.StatusNotFound, "no trade %s", in.TradeNo)
		return
	case t.Status != "PAID":
		s.mu.Unlock()
		fail(w, http.StatusConflict, "trade %s is %s: nothing to refund", in.TradeNo, t.Status)
		return
	}
	for _, no := range t.RefundNos {
		if no == in.RefundNo { // the same refund again: paid back once; notify again
			s.mu.Unlock()
			s.notify(t, payment.Notice{Kind: payment.Refunded, TradeNo: atoi(t.TradeNo), RefundNo: atoi(no), TxnID: t.TxnID, Amount: in.Amount})
			writeJSON(w, http.StatusOK, map[string]string{"status": "REFUND_ACCEPTED"})
			return
		}
	}
	if t.Refunded+in.Amount > t.Amount {
		s.mu.Unlock()
		fail(w, http.StatusConflict, "trade %s: %d refunded of %d, %d more is too much", in.TradeNo, t.Refunded, t.Amount, in.Amount)
		return
	}
	t.Refunded += in.Amount
	t.RefundNos = append(t.RefundNos, in.RefundNo)
	if in.NotifyURL != "" {
		t.NotifyURL = in.NotifyURL
	}
	s.mu.Unlock()
	s.notify(t, payment.Notice{Kind: payment.Refunded, TradeNo: atoi(t.TradeNo), RefundNo: atoi(in.RefundNo), TxnID: t.TxnID, Amount: in.Amount})
	writeJSON(w, http.StatusOK, map[string]string{"status": "REFUND_ACCEPTED"})
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

var page = template.Must(template.New("pay").Parse(`<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>支付沙箱</title>
<style>body{font-family:sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}
.amount{font-size:2.4rem;margin:.5rem 0}button{font-size:1.1rem;padding:.6rem 1.6rem;margin-right:.6rem}</style></head>
<body><h1>支付沙箱 · {{.T.Channel}}</h1>
<p>{{.T.Subject}} (订单 {{.T.OrderID}}, 交易 {{.T.TradeNo}})</p>
<p class="amount">¥{{.Yuan}}</p>
{{if eq .T.Status "WAIT_BUYER_PAY"}}
<form method="post"><input type="hidden" name="q" value="{{.Query}}">
<button name="action" value="pay">支付</button><button name="action" value="cancel">取消</button></form>
{{else}}<p>状态: {{.T.Status}}{{if .T.Refunded}} (已退款 {{.T.Refunded}} 分){{end}}</p>{{end}}
</body></html>`))

func (s *Server) payPage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	t, ok := s.trades[r.PathValue("trade")]
	var c Trade
	if ok {
		c = *t
	}
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = page.Execute(w, map[string]any{"T": c, "Yuan": fmt.Sprintf("%d.%02d", c.Amount/100, c.Amount%100), "Query": r.URL.RawQuery})
}

// payAction is the buyer's click (form field action: pay or cancel), or a
// test's POST; the faults come from the pay URL's query (form field q, or
// this request's query): dup=N, delay=500ms, reorder=1, corrupt=1.
func (s *Server) payAction(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	q, _ := url.ParseQuery(r.PostForm.Get("q"))
	for k, v := range r.URL.Query() {
		q[k] = v
	}
	f, err := faultsFrom(q)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	trade := r.PathValue("trade")
	if r.PostForm.Get("action") == "cancel" {
		err = s.Cancel(trade)
	} else {
		err = s.Pay(trade, f)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	http.Redirect(w, r, "/pay/"+url.PathEscape(trade), http.StatusSeeOther)
}

func faultsFrom(q url.Values) (*Faults, error) {
	if len(q) == 0 {
		return nil, nil
	}
	f := &Faults{}
	var err error
	if v := q.Get("dup"); v != "" {
		if f.Dup, err = strconv.Atoi(v); err != nil || f.Dup < 0 || f.Dup > 100 {
			return nil, fmt.Errorf("dup: 0 to 100")
		}
	}
	if v := q.Get("delay"); v != "" {
		if f.Delay, err = time.ParseDuration(v); err != nil || f.Delay < 0 {
			return nil, fmt.Errorf("delay: a duration such as 2s")
		}
	}
	f.Reorder = q.Get("reorder") == "1" || q.Get("reorder") == "true"
	f.Corrupt = q.Get("corrupt") == "1" || q.Get("corrupt") == "true"
	return f, nil
}

// ErrNotPayable is paying or cancelling a trade that is not waiting for the buyer.
var ErrNotPayable = errors.New("sandbox: the trade is not waiting for payment")

// Pay is the buyer paying trade (once: paying a paid trade charges nothing
// more), with the faults f (nil: the sandbox's). The pay notify follows.
func (s *Server) Pay(trade string, f *Faults) error {
	s.mu.Lock()
	t, ok := s.trades[trade]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("sandbox: no trade %s", trade)
	}
	if t.Status == "PAID" {
		s.mu.Unlock()
		return nil
	}
	if t.Status != "WAIT_BUYER_PAY" {
		s.mu.Unlock()
		return ErrNotPayable
	}
	s.seq++
	t.Status, t.TxnID, t.faults = "PAID", fmt.Sprintf("SBX%s%06d", time.Now().UTC().Format("20060102"), s.seq), f
	s.mu.Unlock()
	s.notify(t, payment.Notice{Kind: payment.Paid, TradeNo: atoi(trade), TxnID: t.TxnID, Amount: t.Amount})
	return nil
}

// Cancel is the buyer cancelling on the pay page: the trade is closed and
// the server told.
func (s *Server) Cancel(trade string) error {
	s.mu.Lock()
	t, ok := s.trades[trade]
	if !ok || t.Status != "WAIT_BUYER_PAY" {
		s.mu.Unlock()
		return ErrNotPayable
	}
	t.Status = "CLOSED"
	s.mu.Unlock()
	s.notify(t, payment.Notice{Kind: payment.Closed, TradeNo: atoi(trade)})
	return nil
}

func (s *Server) setFaults(w http.ResponseWriter, r *http.Request) {
	var f Faults
	if err := json.NewDecoder(io.LimitReader(r.Body, 4<<10)).Decode(&f); err != nil {
		q, qerr := faultsFrom(r.URL.Query())
		if qerr != nil || q == nil {
			fail(w, http.StatusBadRequest, "faults: JSON {dup, delay (ns), reorder, corrupt} or the query dup=&delay=&reorder=&corrupt=")
			return
		}
		f = *q
	}
	s.SetFaults(f)
	writeJSON(w, http.StatusOK, f)
}

// notify signs n and delivers it (with the trade's faults) in the background.
func (s *Server) notify(t *Trade, n payment.Notice) {
	s.mu.Lock()
	f := s.faults
	if t.faults != nil {
		f = *t.faults
	}
	s.seq++
	n.NotifyID = fmt.Sprintf("N%d-%s-%s", s.seq, n.Kind, t.TradeNo)
	n.Time = time.Now().UTC()
	to := t.NotifyURL
	s.mu.Unlock()
	body, err := json.Marshal(n)
	if err != nil {
		s.cfg.Log.Error("sandbox: encode notify", "err", err)
		return
	}
	copies := max(f.Dup, 1)
	for i := range copies {
		if i > 0 && f.Reorder && n.Kind == payment.Paid {
			s.mu.Lock()
			t.held = append(t.held, body)
			s.busy++
			s.mu.Unlock()
			continue
		}
		s.deliverLater(to, body, f.Delay, f.Corrupt, n.Kind == payment.Refunded, t)
	}
	if f.Reorder && n.Kind == payment.Paid && copies > 1 {
		// No refund may ever come: send the held copies after a while anyway.
		s.wg.Go(func() {
			select {
			case <-s.ctx.Done():
			case <-time.After(30 * time.Second):
				s.releaseHeld(t, to)
			}
		})
	}
}

func (s *Server) releaseHeld(t *Trade, to string) {
	s.mu.Lock()
	held := t.held
	t.held = nil
	s.mu.Unlock()
	for _, b := range held {
		s.deliverLater(to, b, 0, false, false, nil)
		s.mu.Lock()
		s.busy--
		s.mu.Unlock()
	}
}

func (s *Server) deliverLater(to string, body []byte, delay time.Duration, corrupt, releases bool, t *Trade) {
	s.mu.Lock()
	s.busy++
	s.mu.Unlock()
	s.wg.Go(func() {
		defer func() {
			s.mu.Lock()
			s.busy--
			s.mu.Unlock()
		}()
		if delay > 0 {
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(delay):
			}
		}
		if s.deliver(to, body, corrupt) && releases && t != nil {
			s.releaseHeld(t, to)
		}
	})
}

// deliver sends body until the server answers success, backing off between
// tries; it reports whether it was answered success.
func (s *Server) deliver(to string, body []byte, corrupt bool) bool {
	wait := s.cfg.Backoff
	var n payment.Notice
	_ = json.Unmarshal(body, &n)
	for try := 1; try <= s.cfg.MaxTries; try++ {
		send, sig := body, payment.Sign(s.cfg.Key, body)
		if corrupt && try == 1 {
			send = bytes.Replace(body, fmt.Appendf(nil, `"amount":%d`, n.Amount), fmt.Appendf(nil, `"amount":%d`, n.Amount+1), 1)
		}
		ok, err := s.post(to, send, sig)
		if ok {
			s.mu.Lock()
			s.sent[n.NotifyID]++
			s.mu.Unlock()
			return true
		}
		if try == s.cfg.MaxTries {
			break
		}
		s.cfg.Log.Info("sandbox: notify not acknowledged; retrying", "notify", n.NotifyID, "try", try, "next", wait, "err", err)
		select {
		case <-s.ctx.Done():
			return false
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
	s.cfg.Log.Warn("sandbox: notify given up", "notify", n.NotifyID, "tries", s.cfg.MaxTries)
	return false
}

func (s *Server) post(to string, body []byte, sig string) (bool, error) {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, to, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(payment.SignatureHeader, sig)
	resp, err := s.cfg.Client.Do(req)
	if err != nil {
		return false, err
	}
	defer func() { _ = resp.Body.Close() }()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	if resp.StatusCode/100 != 2 || strings.TrimSpace(string(answer)) != "success" {
		return false, fmt.Errorf("HTTP %d %q", resp.StatusCode, bytes.TrimSpace(answer))
	}
	return true, nil
}
