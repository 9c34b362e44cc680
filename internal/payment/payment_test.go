package payment

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestSettingsValidate(t *testing.T) {
	ok := DefaultSettings()
	if err := ok.Validate(false); err != nil {
		t.Fatal(err)
	}
	if ok.Validate(true) == nil {
		t.Fatal("production accepted the development key")
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	prod := ok
	prod.PublicKey = encodeKey(pub)
	if err := prod.Validate(true); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Settings){
		func(s *Settings) { s.Provider = "alipay" },
		func(s *Settings) { s.URL = "localhost:8090" },
		func(s *Settings) { s.NotifyURL = "" },
		func(s *Settings) { s.PublicKey = "c2hvcnQ=" },
	} {
		s := ok
		bad(&s)
		if s.Validate(false) == nil {
			t.Fatalf("accepted %+v", s)
		}
	}
	if (Settings{Provider: "instant"}).Validate(true) == nil {
		t.Fatal("production accepted the instant provider")
	}
	if ValidateKey(DevPublicKey(), true) == nil || ValidateKey(DevPublicKey(), false) != nil || ValidateURL("ftp://x") == nil {
		t.Fatal("ValidateKey / ValidateURL")
	}
}

type settleFunc func(context.Context, Notice) error

func (f settleFunc) Settle(ctx context.Context, n Notice) error { return f(ctx, n) }

// Only notifies signed with the provider's key reach the settler; the
// answer is "success" only when it applied them.
func TestNotifyHandlerVerifiesSignatures(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	var got []Notice
	h := NotifyHandler(&Sandbox{PublicKey: pub}, settleFunc(func(_ context.Context, n Notice) error {
		got = append(got, n)
		if n.Amount != 7 {
			return &Rejected{Reason: "amount"}
		}
		return nil
	}), nil)
	send := func(k ed25519.PrivateKey, n Notice, tamper bool) (int, string) {
		body, _ := json.Marshal(n)
		sig := Sign(k, body)
		if tamper {
			body = bytes.Replace(body, []byte(`"amount":7`), []byte(`"amount":8`), 1)
		}
		req := httptest.NewRequestWithContext(context.Background(), http.MethodPost, NotifyPath, bytes.NewReader(body))
		req.Header.Set(SignatureHeader, sig)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	n := Notice{Kind: Paid, TradeNo: 1, TxnID: "T", Amount: 7}
	if c, b := send(key, n, false); c != 200 || b != "success" {
		t.Fatalf("sound: %d %q", c, b)
	}
	if c, _ := send(other, n, false); c != 400 {
		t.Fatalf("forged: %d", c)
	}
	if c, _ := send(key, n, true); c != 400 {
		t.Fatalf("tampered: %d", c)
	}
	n.Amount = 9
	if c, b := send(key, n, false); c != 400 || b != "fail" {
		t.Fatalf("rejected: %d %q", c, b)
	}
	if len(got) != 2 {
		t.Fatalf("settler saw %d notices, want 2", len(got))
	}
}
