package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

// testServer is a whole server (App + HTTP) on test back ends.
//
// GraphQL requests (do, ok, fails, gql) go to the handler in process (no
// socket), through client; URL is a real TCP server for what is about HTTP
// itself or needs a connection: websockets, limits and body sizes, origins,
// requests built by hand (send), metrics and images.
type testServer struct {
	t   *testing.T
	URL string
	// client serves requests in process; nil for a server process known
	// only by its URL, which do and gql then reach over TCP.
	client *http.Client
	app    *App
	sms    *smsBox
	clock  *fakeClock
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
// It runs with the wall clock, moved on by what the test added: instances of
// one test then agree on the time whenever each of them started. Frozen, it
// stands still but for what is added: a test counting a limit's window then
// does not depend on how fast a loaded machine sends its requests.
type fakeClock struct {
	mu     sync.Mutex
	offset time.Duration
	frozen time.Time // non-zero: the time Now answers
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.frozen.IsZero() {
		return c.frozen
	}
	return time.Now().Add(c.offset)
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
	if !c.frozen.IsZero() {
		c.frozen = c.frozen.Add(d)
	}
}

// freeze stops the clock until the function it returns lets it run on (from
// the wall clock plus what was added, never back).
func (c *fakeClock) freeze() (thaw func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = time.Now().Add(c.offset)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.frozen = time.Time{}
	}
}

// testConfig is the configuration of a test server on the named back end.
func testConfig(t *testing.T, backend string) config.Config {
	t.Helper()
	if backend != testenv.Real && !testenv.EmbeddedWanted() {
		t.Skip("HMDP_TEST_BACKENDS=real: the embedded back ends are left out")
	}
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	cfg.Seed = true
	cfg.Payment.Provider = "instant" // payOrder pays at once unless a test gives Orders.Payments
	cfg.AdminPhones = []string{"13900000000"}
	// Every test client connects from 127.0.0.1, many users at once; the
	// adversarial tests put the per-address cap back to its default.
	cfg.WSMaxSocketsPerAddress = 1 << 20
	// The database starts migrated (copied from one migration per process): a
	// server finds nothing to migrate and only loads the demo data.
	if backend != "real" {
		testenv.MigratedSQLiteFile(t, filepath.Join(cfg.DataDir, "hmdp.db"))
	}
	if backend == "real" {
		cfg.MySQLDSN = testenv.NewMigratedMySQLDatabase(t)
		r := testenv.NewRealRedis(t) // skips without HMDP_TEST_REDIS_ADDR; removes the prefix's keys at the end
		// Several comma-separated addresses are a Redis Cluster (make test-cluster).
		cfg.RedisAddrs = strings.Split(testenv.RealRedisAddr(), ",")
		cfg.RedisPrefix = r.Prefix
	}
	return cfg
}

// mysqlThroughProxy routes cfg's MySQL (a real one) through a fault proxy
// of the test's, to cut, black-hole or slow.
func mysqlThroughProxy(t *testing.T, cfg *config.Config) *testenv.Proxy {
	t.Helper()
	dsn, err := mysql.ParseDSN(cfg.MySQLDSN)
	if err != nil {
		t.Fatal(err)
	}
	p := testenv.NewProxy(t, dsn.Addr)
	dsn.Addr = p.Addr()
	cfg.MySQLDSN = dsn.FormatDSN()
	return p
}

// env is a getenv reading m.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// forEachBackend runs fn on the embedded back ends and, when configured, the real ones.
func forEachBackend(t *testing.T, fn func(t *testing.T, backend string)) {
	t.Helper()
	testenv.ForEachKind(t, fn)
}

// onEmbedded runs fn on the embedded back ends only: for what no back end
// changes the answer of (the process's own caches under attack), where a
// second run would add its time again to the suite's serial part (these
// tests measure the heap, so they cannot run beside others). A run on the
// real back ends only (HMDP_TEST_BACKENDS=real) skips it.
func onEmbedded(t *testing.T, fn func(t *testing.T, backend string)) {
	t.Helper()
	if !testenv.EmbeddedWanted() {
		t.Skip("what it tests is the process's own, whatever the back ends: make test runs it on the embedded ones")
	}
	t.Run(testenv.Embedded, func(t *testing.T) { fn(t, testenv.Embedded) })
}

func startServer(t *testing.T, backend string, edit ...func(*config.Config)) *testServer {
	t.Helper()
	cfg := testConfig(t, backend)
	for _, e := range edit {
		e(&cfg)
	}
	return startServerWith(t, backend, cfg)
}

func startServerWith(t *testing.T, backend string, cfg config.Config) *testServer {
	t.Helper()
	return startApp(t, backend, cfg, Options{})
}

// startApp starts a server with opt; the SMS sender and the rate limiters'
// clock are always the test's own.
func startApp(t *testing.T, backend string, cfg config.Config, opt Options) *testServer {
	t.Helper()
	sms := &smsBox{codes: map[string]string{}}
	clock := &fakeClock{}
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewJSONHandler(testWriter{t}, nil))
	}
	opt.Sender, opt.Now = sms, clock.Now
	if opt.WebsocketHeartbeat == 0 {
		// Test clients read a socket only when they expect something, and on
		// a loaded machine a test's other steps can outlast two 15 s pings
		// unanswered (the socket then closes as dead). TestWebsocketHeartbeat
		// tests the heartbeat itself.
		opt.WebsocketHeartbeat = 2 * time.Minute
	}
	app, err := New(context.Background(), cfg, log, opt)
	if err != nil {
		t.Fatal(err)
	}
	h := app.Handler()
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		app.Stop()
		hs.Close()
		app.Close()
	})
	client := &http.Client{Transport: handlerTransport{h: h, remoteAddr: "127.0.0.1:40000"}}
	return &testServer{t: t, URL: hs.URL, client: client, app: app, sms: sms, clock: clock, backend: backend}
}

// handlerTransport serves a request by calling the handler: no socket, no
// server goroutines, the handler running on the caller's goroutine. The
// request reaches the handler as a server would pass it on, from remoteAddr
// (the TCP tests' 127.0.0.1, which the per-address rate limits and the
// anonymous visitor counts key on).
type handlerTransport struct {
	h          http.Handler
	remoteAddr string
}

func (tr handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if r.Body == nil {
		r.Body = http.NoBody
	}
	defer r.Body.Close()
	r.RemoteAddr = tr.remoteAddr
	r.RequestURI = req.URL.RequestURI()
	r.Host = req.URL.Host
	r.URL = &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	rec := httptest.NewRecorder()
	tr.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = req
	return res, nil
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
	if m := ts.app.miniRedis; m != nil {
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

// do posts a GraphQL request to the handler in process, with the token as a
// bearer token when not empty.
func (ts *testServer) do(token, query string, vars map[string]any) gqlResponse {
	ts.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequestWithContext(ts.t.Context(), http.MethodPost, ts.URL+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return ts.sendWith(ts.inProcess(), req)
}

// inProcess is the client that calls the handler in process (over TCP when
// there is no handler in process).
func (ts *testServer) inProcess() *http.Client {
	if ts.client == nil {
		return http.DefaultClient
	}
	return ts.client
}

// send sends req over TCP to ts.URL.
func (ts *testServer) send(req *http.Request) gqlResponse {
	ts.t.Helper()
	return ts.sendWith(http.DefaultClient, req)
}

func (ts *testServer) sendWith(c *http.Client, req *http.Request) gqlResponse {
	ts.t.Helper()
	res, err := c.Do(req)
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
	ctx, anon := ts.t.Context(), ts.gql("")
	must(gqlclient.SendCode(ctx, anon, phone))(ts.t)
	code := ts.sms.code(phone)
	out := must(gqlclient.Login(ctx, anon, phone, &code, nil))(ts.t)
	if out.Login.Token == "" {
		ts.t.Fatal("no token")
	}
	return out.Login.Token
}
