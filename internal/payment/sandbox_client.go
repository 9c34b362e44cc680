package payment

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sandbox is the client of the sandbox provider (cmd/paysandbox): JSON over
// HTTP to BaseURL, notifies signed with Ed25519 (SignatureHeader) and
// verified with PublicKey, answered "success" as Alipay's are.
type Sandbox struct {
	BaseURL   string            // the sandbox, e.g. http://localhost:8090
	NotifyURL string            // where the sandbox sends notifies: the server's NotifyPath
	PublicKey ed25519.PublicKey // the sandbox's public key
	Client    *http.Client      // default: a 10 s timeout
}

// Create opens a trade in the sandbox (idempotent per trade number).
func (s *Sandbox) Create(ctx context.Context, p Payment) (Created, error) {
	var out struct {
		PayURL string `json:"pay_url"`
	}
	err := s.post(ctx, "/api/trades", map[string]any{
		"trade_no": strconv.FormatInt(p.TradeNo, 10), "order_id": strconv.FormatInt(p.OrderID, 10),
		"amount": p.Amount, "channel": p.PayType.String(), "subject": p.Subject,
		"expires": p.Expires, "notify_url": s.NotifyURL,
	}, &out)
	if err == nil && out.PayURL == "" {
		err = fmt.Errorf("payment: the sandbox answered no pay_url")
	}
	return Created{PayURL: out.PayURL}, err
}

// Refund asks the sandbox to pay back (idempotent per refund number).
func (s *Sandbox) Refund(ctx context.Context, r Refund) (RefundAccepted, error) {
	return RefundAccepted{}, s.post(ctx, "/api/refunds", map[string]any{
		"trade_no": strconv.FormatInt(r.TradeNo, 10), "refund_no": strconv.FormatInt(r.RefundNo, 10),
		"amount": r.Amount, "notify_url": s.NotifyURL,
	}, nil)
}

// ParseNotify verifies the body's signature and decodes it.
func (s *Sandbox) ParseNotify(r *http.Request) (Notice, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		return Notice{}, err
	}
	if !Verify(s.PublicKey, body, r.Header.Get(SignatureHeader)) {
		return Notice{}, ErrBadSignature
	}
	var n Notice
	if err := json.Unmarshal(body, &n); err != nil {
		return Notice{}, fmt.Errorf("payment: a signed notify that does not decode: %w", err)
	}
	return n, nil
}

// Answer is "success" (HTTP 200) or "fail" (HTTP 400): the sandbox retries
// until it reads success.
func (s *Sandbox) Answer(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "fail")
		return
	}
	_, _ = io.WriteString(w, "success")
}

func (s *Sandbox) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(s.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	c := s.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("payment: sandbox %s: %w", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("payment: sandbox %s: HTTP %d: %s", path, resp.StatusCode, bytes.TrimSpace(raw))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}
