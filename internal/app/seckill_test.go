package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/seckill"
)

// Flash-sale tests: the sale through GraphQL on one and on three instances,
// Redis losing its keys, a message delivered twice, payment and cancellation.

const (
	createVoucherMutation = `mutation($in: CreateVoucherInput!) { createVoucher(input: $in) {
		id title type status payValue actualValue shop { id } seckill { stock beginTime endTime } } }`
	seckillMutation = `mutation($v: ID!) { seckillVoucher(voucherId: $v) { orderId status } }`
	orderQuery      = `query($id: ID!) { order(id: $id) { id status payType voucher { id } user { id } createTime payTime } }`
)

// fastSeckill shortens the consumers' timings so takeovers happen within a test.
var fastSeckill = seckill.Config{Consumer: seckill.ConsumerConfig{
	Block: 300 * time.Millisecond, ClaimIdle: time.Second, ClaimEvery: 300 * time.Millisecond,
	Refresh: 300 * time.Millisecond, MaxBackoff: 500 * time.Millisecond,
}}

// startSaleServer is startServerWith with the flash-sale options.
func startSaleServer(t *testing.T, backend string, cfg config.Config, sk seckill.Config) *testServer {
	t.Helper()
	return startApp(t, backend, cfg, Options{Seckill: sk})
}

// sharedConfig is the configuration several instances share: on the real back
// ends one database and prefix; embedded, one SQLite file and one miniredis.
func sharedConfig(t *testing.T, backend string) config.Config {
	t.Helper()
	cfg := testConfig(t, backend)
	if backend == "embedded" {
		m := miniredis.RunT(t)
		cfg.RedisAddrs = []string{m.Addr()}
	}
	return cfg
}

// users logs n distinct users in (through the auth service, each from its own
// client IP so the per-IP code limit does not apply) and returns their tokens.
func (ts *testServer) users(n int) []string {
	ts.t.Helper()
	tokens := make([]string, n)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 16 {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				phone := fmt.Sprintf("137%08d", i)
				ip := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
				ctx := context.Background()
				if err := ts.app.auth.SendCode(ctx, phone, ip); err != nil {
					ts.t.Error(err)
					return
				}
				tok, _, err := ts.app.auth.LoginWithCode(ctx, phone, ts.sms.code(phone))
				if err != nil {
					ts.t.Error(err)
					return
				}
				tokens[i] = tok
			}
		})
	}
	wg.Wait()
	if ts.t.Failed() {
		ts.t.FailNow()
	}
	return tokens
}

type createdVoucher struct {
	CreateVoucher struct {
		ID      string
		Type    string
		Status  string
		Seckill *struct {
			Stock     int
			BeginTime string
			EndTime   string
		}
	}
}

var adminTokens sync.Map // *testServer -> token

// admin logs the admin in once per server.
func (ts *testServer) admin() string {
	if tok, ok := adminTokens.Load(ts); ok {
		return tok.(string)
	}
	tok := ts.login("13900000000")
	adminTokens.Store(ts, tok)
	return tok
}

// createSale creates a flash-sale voucher on shop 1 through GraphQL.
func (ts *testServer) createSale(stock int, begin, end time.Time) int64 {
	ts.t.Helper()
	admin := ts.admin()
	var out createdVoucher
	ts.ok(admin, createVoucherMutation, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "flash", "payValue": 100, "actualValue": 1000,
		"seckill": map[string]any{"stock": stock, "beginTime": begin.Format(time.RFC3339), "endTime": end.Format(time.RFC3339)},
	}}, &out)
	id, err := strconv.ParseInt(out.CreateVoucher.ID, 10, 64)
	if err != nil {
		ts.t.Fatal(err)
	}
	return id
}

// saleOutcome is what clients saw.
type saleOutcome struct {
	mu       sync.Mutex
	accepted map[string]string // order id -> token
	codes    map[string]int
}

// buy runs each token's attempts concurrently (workers clients at once),
// spreading the requests over the servers.
func buy(t *testing.T, servers []*testServer, tokens []string, attempts, workers int, voucherID int64) *saleOutcome {
	t.Helper()
	out := &saleOutcome{accepted: map[string]string{}, codes: map[string]int{}}
	var next atomic.Int64
	var wg sync.WaitGroup
	total := len(tokens) * attempts
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < total; i = int(next.Add(1) - 1) {
				tok := tokens[i%len(tokens)]
				ts := servers[i%len(servers)]
				r := ts.do(tok, seckillMutation, map[string]any{"v": strconv.FormatInt(voucherID, 10)})
				out.mu.Lock()
				if c := r.code(); c != "" {
					out.codes[c]++
				} else {
					var d struct {
						SeckillVoucher struct{ OrderID, Status string }
					}
					if err := json.Unmarshal(r.Data, &d); err != nil || d.SeckillVoucher.Status != "PENDING" {
						t.Errorf("accepted attempt: %s (%v)", r.Data, err)
					}
					if prev, dup := out.accepted[d.SeckillVoucher.OrderID]; dup {
						t.Errorf("order id %s handed out twice (%s, %s)", d.SeckillVoucher.OrderID, prev, tok)
					}
					out.accepted[d.SeckillVoucher.OrderID] = tok
					out.codes["ok"]++
				}
				out.mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// drained waits until every accepted order of the voucher is in MySQL and
// nothing is left in its stream, then checks the sale's invariants: exactly
// want orders, distinct users, MySQL stock = initial - want, Redis stock the same.
//
//nolint:unparam // initial is spelled out at the call sites, next to want, as the sale's numbers
func drained(t *testing.T, ts *testServer, voucherID int64, initial, want int, accepted map[string]string) {
	t.Helper()
	ctx := context.Background()
	k := seckill.KeysOf(ts.app.cfg.RedisPrefix, voucherID)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var n int
		if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id = ?", voucherID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		left, err := ts.redis().XLen(ctx, k.Orders).Result()
		if err != nil {
			t.Fatal(err)
		}
		if n >= want && left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not drained: %d orders in MySQL, %d entries in the stream", n, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	rows, err := ts.app.db.SQL.QueryContext(ctx, "SELECT id, user_id FROM tb_voucher_order WHERE voucher_id = ?", voucherID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	users := map[int64]bool{}
	ids := map[string]bool{}
	for rows.Next() {
		var id, user int64
		if err := rows.Scan(&id, &user); err != nil {
			t.Fatal(err)
		}
		if users[user] {
			t.Errorf("user %d has two orders", user)
		}
		users[user] = true
		ids[strconv.FormatInt(id, 10)] = true
	}
	if len(ids) != want {
		t.Errorf("%d orders in MySQL, want %d", len(ids), want)
	}
	if accepted != nil {
		for id := range accepted {
			if !ids[id] {
				t.Errorf("accepted order %s not in MySQL", id)
			}
		}
		if len(accepted) != len(ids) {
			t.Errorf("%d orders accepted, %d in MySQL", len(accepted), len(ids))
		}
	}
	var stock int
	if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT stock FROM tb_seckill_voucher WHERE voucher_id = ?", voucherID).Scan(&stock); err != nil {
		t.Fatal(err)
	}
	if stock != initial-want {
		t.Errorf("MySQL stock %d, want %d", stock, initial-want)
	}
	rs, err := ts.redis().HGet(ctx, k.State, "stock").Int()
	if err != nil || rs != initial-want {
		t.Errorf("Redis stock %d (%v), want %d", rs, err, initial-want)
	}
	pending, err := ts.redis().XPending(ctx, k.Orders, seckill.Group).Result()
	if err != nil || pending.Count != 0 {
		t.Errorf("pending entries %+v (%v)", pending, err)
	}
}

// 1000 users try twice each for 100 units: exactly 100 succeed, the rest are
// told OUT_OF_STOCK or ALREADY_ORDERED, and after the drain MySQL holds
// exactly the 100 accepted orders, of 100 distinct users, with stock 0.
func TestFlashSaleThousandUsers(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startSaleServer(t, backend, testConfig(t, backend), fastSeckill)
		v := ts.createSale(100, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
		tokens := ts.users(1000)
		out := buy(t, []*testServer{ts}, tokens, 2, 50, v)
		if out.codes["ok"] != 100 || out.codes["ok"]+out.codes["OUT_OF_STOCK"]+out.codes["ALREADY_ORDERED"] != 2000 {
			t.Fatalf("outcomes %v", out.codes)
		}
		drained(t, ts, v, 100, 100, out.accepted)
	})
}

// The same sale served by three instances sharing MySQL and Redis: each
// instance admits and each runs consumers of the one consumer group.
func TestFlashSaleThreeInstances(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := sharedConfig(t, backend)
		servers := []*testServer{startSaleServer(t, backend, cfg, fastSeckill)}
		cfg.Seed = false
		servers = append(servers, startSaleServer(t, backend, cfg, fastSeckill), startSaleServer(t, backend, cfg, fastSeckill))
		v := servers[1].createSale(100, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
		tokens := servers[0].users(1000)
		out := buy(t, servers, tokens, 2, 50, v)
		if out.codes["ok"] != 100 || out.codes["ok"]+out.codes["OUT_OF_STOCK"]+out.codes["ALREADY_ORDERED"] != 2000 {
			t.Fatalf("outcomes %v", out.codes)
		}
		drained(t, servers[2], v, 100, 100, out.accepted)
	})
}
