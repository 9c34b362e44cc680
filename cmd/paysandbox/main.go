// Command paysandbox runs the sandbox payment provider (package
// internal/payment/sandbox) for development: `make paysandbox`, then point
// the server at it (HMDP_PAY_PROVIDER_URL, default http://localhost:8090).
// It signs with PAYSANDBOX_KEY (an Ed25519 seed, base64) or, without it, the
// development key whose public key the server trusts by default.
package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/payment/sandbox"
)

func main() {
	addr := flag.String("addr", ":8090", "listen address")
	public := flag.String("public-url", "http://localhost:8090", "the sandbox's base URL as buyers' browsers reach it (pay URLs)")
	backoff := flag.Duration("backoff", 500*time.Millisecond, "wait before a notify's first retry, doubled after each")
	tries := flag.Int("tries", 12, "deliveries of a notify before it is given up")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	seed := os.Getenv("PAYSANDBOX_KEY")
	if seed == "" {
		seed = payment.DevSeed
	}
	key, err := payment.ParsePrivateKey(seed)
	if err != nil {
		log.Error("PAYSANDBOX_KEY", "err", err)
		os.Exit(2)
	}
	sb := sandbox.New(sandbox.Config{Key: key, PublicURL: *public, Backoff: *backoff, MaxTries: *tries, Log: log})
	log.Info("paysandbox listening", "addr", *addr, "public_url", *public,
		"public_key", base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey)),
		"faults", "POST /admin/faults?dup=5&delay=2s&reorder=1&corrupt=1 (or the same on a pay URL)")
	srv := &http.Server{Addr: *addr, Handler: sb.Handler(), ReadHeaderTimeout: 10 * time.Second}
	err = srv.ListenAndServe()
	sb.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("paysandbox", "err", err)
		os.Exit(1)
	}
}
