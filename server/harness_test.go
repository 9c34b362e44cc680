package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// testServer is a whole server (App + HTTP) on test back ends.
type testServer struct {
	t     *testing.T
	URL   string
	app   *App
	sms   *smsBox
	clock *fakeClock
	// backend is "embedded" or "real".
	backend string
}

// smsBox captures the codes the server sends.
type smsBox struct {
	mu    sync.Mutex
	codes map[string]string
}

func (s *smsBox) SendCode(_ context.Context, phone, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[phone] = code
	return nil
}

func (s *smsBox) code(phone string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.codes[phone]
}

// fakeClock drives the rate limiters, so tests can let a minute pass at once.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testConfig is the configuration of a test server on the named back end.
func testConfig(t *testing.T, backend string) Config {
	t.Helper()
	cfg, err := LoadConfig(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	cfg.Seed = true
	cfg.AdminPhones = []string{"13900000000"}
	if backend == "real" {
		cfg.MySQLDSN = testenv.NewMySQLDatabase(t)
		r := testenv.NewRealRedis(t) // skips without HMDP_TEST_REDIS_ADDR; removes the prefix's keys at the end
		// Several comma-separated addresses are a Redis Cluster (make test-cluster).
		cfg.RedisAddrs = strings.Split(testenv.RealRedisAddr(), ",")
		cfg.RedisPrefix = r.Prefix
	}
	return cfg
}

// forEachBackend runs fn on the embedded back ends and, when configured, the real ones.
func forEachBackend(t *testing.T, fn func(t *testing.T, backend string)) {
	t.Helper()
	t.Run("embedded", func(t *testing.T) { fn(t, "embedded") })
	if testenv.RealMySQLDSN() != "" && testenv.RealRedisAddr() != "" {
		t.Run("real", func(t *testing.T) { fn(t, "real") })
	}
}

func startServer(t *testing.T, backend string, edit ...func(*Config)) *testServer {
	t.Helper()
	cfg := testConfig(t, backend)
	for _, e := range edit {
		e(&cfg)
	}
	return startServerWith(t, backend, cfg)
}

func startServerWith(t *testing.T, backend string, cfg Config) *testServer {
	t.Helper()
	return startApp(t, backend, cfg, Options{})
}

// startApp starts a server with opt; the SMS sender and the rate limiters'
// clock are always the test's own.
func startApp(t *testing.T, backend string, cfg Config, opt Options) *testServer {
	t.Helper()
	sms := &smsBox{codes: map[string]string{}}
	clock := &fakeClock{now: time.Now()}
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewJSONHandler(testWriter{t}, nil))
	}
	opt.Sender, opt.Now = sms, clock.Now
	app, err := NewApp(context.Background(), cfg, log, opt)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(app.Handler())
	t.Cleanup(func() {
		app.Stop()
		hs.Close()
		app.Close()
	})
	return &testServer{t: t, URL: hs.URL, app: app, sms: sms, clock: clock, backend: backend}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// redis is the server's Redis client (with its prefix in ts.app.cfg.RedisPrefix).
func (ts *testServer) redis() redis.UniversalClient { return ts.app.redis.Client }

// advance lets d pass for Redis TTLs and for the rate limiters. On real Redis
// TTLs cannot be moved, so the caller shortens the keys it needs instead.
func (ts *testServer) advance(d time.Duration) {
	ts.clock.Add(d)
	if m := ts.app.redis.Embedded; m != nil {
		m.FastForward(d)
	}
}

type gqlError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type gqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
	Status int             `json:"-"`
}

func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// do posts a GraphQL request, with the token as a bearer token when not empty.
func (ts *testServer) do(token, query string, vars map[string]any) gqlResponse {
	ts.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return ts.send(req)
}

func (ts *testServer) send(req *http.Request) gqlResponse {
	ts.t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out gqlResponse
	if err := json.Unmarshal(raw, &out); err != nil {
		ts.t.Fatalf("status %d, body %q: %v", res.StatusCode, raw, err)
	}
	out.Status = res.StatusCode
	return out
}

// ok posts a request that must succeed and decodes its data into dst.
func (ts *testServer) ok(token, query string, vars map[string]any, dst any) {
	ts.t.Helper()
	r := ts.do(token, query, vars)
	if len(r.Errors) > 0 {
		ts.t.Fatalf("%s: errors %+v", query, r.Errors)
	}
	if dst != nil {
		if err := json.Unmarshal(r.Data, dst); err != nil {
			ts.t.Fatal(err)
		}
	}
}

// fails posts a request that must fail with code.
func (ts *testServer) fails(token, query string, vars map[string]any, code string) gqlError {
	ts.t.Helper()
	r := ts.do(token, query, vars)
	if r.code() != code {
		ts.t.Fatalf("%s: want %s, got status %d errors %+v data %s", query, code, r.Status, r.Errors, r.Data)
	}
	return r.Errors[0]
}

const (
	sendCodeMutation = `mutation($p: String!) { sendCode(phone: $p) }`
	loginMutation    = `mutation($p: String!, $c: String) { login(phone: $p, code: $c) { token user { id nickName } } }`
	meQuery          = `{ me { id nickName } }`
)

// login signs phone in with a code and returns the token.
func (ts *testServer) login(phone string) string {
	ts.t.Helper()
	ts.ok("", sendCodeMutation, map[string]any{"p": phone}, nil)
	var out struct {
		Login struct{ Token string } `json:"login"`
	}
	ts.ok("", loginMutation, map[string]any{"p": phone, "c": ts.sms.code(phone)}, &out)
	if out.Login.Token == "" {
		ts.t.Fatal("no token")
	}
	return out.Login.Token
}
