package app

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
)

func TestConfigProductionMode(t *testing.T) {
	dev, err := config.Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if dev.Env != "development" || !dev.Introspection || !dev.Playground {
		t.Fatalf("development defaults %+v", dev)
	}
	// Production refuses the log-only sender unless it is asked for by name.
	_, err = config.Load(nil, env(map[string]string{"HMDP_ENV": "production"}))
	if err == nil || !strings.HasPrefix(err.Error(), "HMDP_SMS_SENDER: ") || !strings.Contains(err.Error(), "no SMS provider") {
		t.Fatalf("production without HMDP_SMS_SENDER: %v", err)
	}
	prod, err := config.Load(nil, env(map[string]string{"HMDP_ENV": "production", "HMDP_SMS_SENDER": "log", "HMDP_ALLOW_EMBEDDED": "true", "HMDP_PAY_PUBLIC_KEY": testPayKey}))
	if err != nil {
		t.Fatal(err)
	}
	if prod.Introspection || prod.Playground || prod.SMSSender != "log" {
		t.Fatalf("production defaults %+v", prod)
	}
	// Explicit settings win over the mode's defaults.
	prod, err = config.Load([]string{"-playground", "on"}, env(map[string]string{"HMDP_ENV": "production", "HMDP_SMS_SENDER": "log", "HMDP_INTROSPECTION": "true", "HMDP_ALLOW_EMBEDDED": "true", "HMDP_PAY_PUBLIC_KEY": testPayKey}))
	if err != nil || !prod.Introspection || !prod.Playground {
		t.Fatalf("explicit switches in production: %+v %v", prod, err)
	}
	for k, v := range map[string]string{"HMDP_ENV": "prod", "HMDP_SMS_SENDER": "twilio"} {
		if _, err := config.Load(nil, env(map[string]string{k: v})); err == nil || !strings.HasPrefix(err.Error(), k+": ") {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
	// New refuses a production configuration without the sender's permission too.
	cfg := testConfig(t, "embedded")
	cfg.Env = "production"
	if _, err := New(context.Background(), cfg, NewLogger("error"), Options{}); err == nil || !strings.Contains(err.Error(), "HMDP_SMS_SENDER") {
		t.Fatalf("New in production with the log sender: %v", err)
	}
}

// The binary in production mode: refused without HMDP_SMS_SENDER, and once
// allowed it says so at start-up and serves neither introspection nor the
// playground.
func TestProcessProductionMode(t *testing.T) {
	bin := buildServer(t)
	cfg := testConfig(t, "embedded")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(append(os.Environ(), processEnv(cfg)...), "HMDP_ENV=production", "HMDP_ADDR=127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "HMDP_SMS_SENDER") {
		t.Fatalf("production without HMDP_SMS_SENDER: %v, stderr %q", err, stderr.String())
	}

	p := startProcess(t, bin, processEnv(cfg, "HMDP_ENV=production", "HMDP_SMS_SENDER=log", "HMDP_ALLOW_EMBEDDED=true"))
	p.waitLog(t, "production mode: login codes are written to the log (HMDP_SMS_SENDER=log); there is no SMS provider", 5*time.Second)
	res, err := httpGet(t.Context(), p.url+"/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("playground in production: %d", res.StatusCode)
	}
	ts := &testServer{t: t, URL: p.url}
	r := ts.do("", `{ __schema { queryType { name } } }`, nil)
	if len(r.Errors) == 0 {
		t.Fatalf("introspection in production answered %s", r.Data)
	}
}
