package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Adversarial suite, Redis growth: one logged-in
// user sends what a script would, with ids that name nothing, and Redis must
// not keep anything for them. After each attack the number of keys under the
// server's prefix without a TTL has not grown, no key names an id of the
// attack, and the attempts were refused with RATE_LIMITED well before they
// ran out.

// redisKeys lists the keys under the server's prefix with their TTLs (-1:
// none), on every master of a Cluster.
func (ts *testServer) redisKeys() map[string]time.Duration {
	ts.t.Helper()
	ctx := context.Background()
	var mu sync.Mutex
	out := map[string]time.Duration{}
	scan := func(ctx context.Context, c *redis.Client) error {
		it := c.Scan(ctx, 0, ts.app.cfg.RedisPrefix+"*", 1000).Iterator()
		var keys []string
		for it.Next(ctx) {
			keys = append(keys, it.Val())
		}
		if err := it.Err(); err != nil {
			return err
		}
		for _, k := range keys {
			ttl, err := c.PTTL(ctx, k).Result()
			if err != nil {
				return err
			}
			if ttl == -2 { // gone meanwhile
				continue
			}
			mu.Lock()
			out[k] = ttl
			mu.Unlock()
		}
		return nil
	}
	var err error
	switch c := ts.redis().(type) {
	case *redis.ClusterClient:
		err = c.ForEachMaster(ctx, scan)
	case *redis.Client:
		err = scan(ctx, c)
	default:
		ts.t.Fatalf("redis client %T", c)
	}
	if err != nil {
		ts.t.Fatal(err)
	}
	return out
}

// settledKeys is redisKeys once the keys without a TTL have stayed the same
// for 300 ms (what a request set off in the background has written).
func (ts *testServer) settledKeys() map[string]time.Duration {
	ts.t.Helper()
	keys := ts.redisKeys()
	for deadline, stable := time.Now().Add(10*time.Second), time.Now(); time.Since(stable) < 300*time.Millisecond; {
		if time.Now().After(deadline) {
			ts.t.Fatal("the keys without a TTL never settled")
		}
		time.Sleep(50 * time.Millisecond)
		next := ts.redisKeys()
		if !slices.Equal(sorted(keysWithoutTTL(keys)), sorted(keysWithoutTTL(next))) {
			stable = time.Now()
		}
		keys = next
	}
	return keys
}

func sorted(s []string) []string { slices.Sort(s); return s }

// keysWithoutTTL are the keys under the prefix that never expire.
func keysWithoutTTL(keys map[string]time.Duration) []string {
	var out []string
	for k, ttl := range keys {
		if ttl < 0 && !saleStream.MatchString(k) {
			out = append(out, k)
		}
	}
	return out
}

// saleStream is a flash sale's order stream, which has no TTL (it holds
// accepted orders until they are persisted) and which the server's consumers
// create when they take a sale up, at any time after start: one per sale in
// MySQL, never made by a client's requests.
var saleStream = regexp.MustCompile(`seckill:\{\d+\}:orders$`)

// randomIDs are n ids far above any the test creates (10 digits, so no
// other key contains one by chance).
func randomIDs(n int) []int64 {
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = 7_000_000_000 + rand.Int64N(1_000_000_000)
	}
	return ids
}

// assertNoGrowth fails when the attack left keys without a TTL, or any key
// naming one of its ids.
func (ts *testServer) assertNoGrowth(t *testing.T, before map[string]time.Duration, ids []int64) {
	t.Helper()
	after := ts.redisKeys()
	if b, a := len(keysWithoutTTL(before)), keysWithoutTTL(after); len(a) > b {
		var added []string
		for _, k := range a {
			if ttl, ok := before[k]; !ok || ttl >= 0 {
				added = append(added, k)
			}
		}
		t.Errorf("keys without a TTL: %d before the attack, %d after; new: %d, e.g. %v", b, len(a), len(added), added[:min(len(added), 5)])
	}
	var named []string
	for k := range after {
		for _, id := range ids {
			if strings.Contains(k, strconv.FormatInt(id, 10)) {
				named = append(named, k)
				break
			}
		}
	}
	if len(named) > 0 {
		t.Errorf("%d keys name ids that do not exist, e.g. %v", len(named), named[:min(len(named), 5)])
	}
	t.Logf("keys under the prefix: %d before, %d after (without a TTL: %d, %d)",
		len(before), len(after), len(keysWithoutTTL(before)), len(keysWithoutTTL(after)))
}

// codes counts the error codes of a response.
func codes(r gqlResponse, into map[string]int) {
	for _, e := range r.Errors {
		c, _ := e.Extensions["code"].(string)
		into[c]++
		if c == "RATE_LIMITED" {
			if ms, _ := e.Extensions["retryAfterMs"].(float64); ms <= 0 {
				into["RATE_LIMITED without retryAfterMs"]++
			}
		}
	}
}

// commonFollows of ids that are not users: 50 requests of 28 aliases each.
// Before the fix each id left a follow set of one marker member with no TTL
// (1 400 keys) and every lookup read MySQL.
func TestAdversarialCommonFollowsRandomIDs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		viewer := ts.login("13800000001")
		other := ts.userID(ts.login("13800000002"))
		// A real user's common follows work and are kept (with a TTL).
		ts.ok(viewer, `query($u: ID!) { commonFollows(userId: $u) { id } }`, map[string]any{"u": other}, nil)
		before := ts.redisKeys()

		const requests, aliases = 50, 28
		var all []int64
		seen := map[string]int{}
		answered := 0
		for range requests {
			ids := randomIDs(aliases)
			all = append(all, ids...)
			var q strings.Builder
			q.WriteString("{")
			for i, id := range ids {
				fmt.Fprintf(&q, ` a%d: commonFollows(userId: "%d") { id }`, i, id)
			}
			q.WriteString(" }")
			r := ts.do(viewer, q.String(), nil)
			codes(r, seen)
			var data map[string]json.RawMessage
			_ = json.Unmarshal(r.Data, &data)
			for _, v := range data {
				if string(v) == "[]" {
					answered++
				}
			}
		}
		t.Logf("%d lookups of unknown users: %d answered [], errors %v", requests*aliases, answered, seen)
		if seen["RATE_LIMITED"] == 0 || seen["RATE_LIMITED without retryAfterMs"] > 0 {
			t.Errorf("lookups not limited: %d answered, errors %v", answered, seen)
		}
		if answered > requests*aliases/4 {
			t.Errorf("%d of %d lookups of unknown users answered: the limit should stop most", answered, requests*aliases)
		}
		ts.assertNoGrowth(t, before, all)
		// Other users are not limited by this one's lookups, and real users' sets still answer.
		third := ts.login("13800000003")
		ts.ok(third, `query($u: ID!) { commonFollows(userId: $u) { id } }`, map[string]any{"u": other}, nil)
	})
}

// seckillVoucher of voucher ids that do not exist, 200 times from one user.
// Before the fix each call answered NOT_FOUND after taking the rebuild lock,
// running a MySQL transaction and leaving an epoch key (48 h) and a fence
// key (24 h) for the id; no call was ever RATE_LIMITED.
func TestAdversarialSeckillRandomVouchers(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		buyer, taker := ts.login("13800000001"), ts.login("13800000003")
		// A real sale first: its keys exist before the attack.
		v := ts.createSale(10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
		var bought struct{ SeckillVoucher struct{ OrderID string } }
		ts.ok(buyer, seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)}, &bought)
		// Persisted (the pay deadline scheduled) before the keys are counted.
		deadline := time.Now().Add(10 * time.Second)
		for {
			var o struct{ Order struct{ Status string } }
			ts.ok(buyer, orderQuery, map[string]any{"id": bought.SeckillVoucher.OrderID}, &o)
			if o.Order.Status == "UNPAID" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("order %s still %s", bought.SeckillVoucher.OrderID, o.Order.Status)
			}
			time.Sleep(20 * time.Millisecond)
		}
		before := ts.settledKeys()

		ids := randomIDs(210)
		seen := map[string]int{}
		for _, id := range ids[:200] {
			codes(ts.do(buyer, seckillMutation, map[string]any{"v": strconv.FormatInt(id, 10)}), seen)
		}
		t.Logf("200 attempts on unknown vouchers: %v", seen)
		// Tokens for unknown sales, from a user whose allowance is untouched.
		tokens := map[string]int{}
		for _, id := range ids[200:] {
			codes(ts.do(taker, `mutation($v: ID!) { seckillToken(voucherId: $v) { token } }`, map[string]any{"v": strconv.FormatInt(id, 10)}), tokens)
		}
		t.Logf("10 tokens asked for unknown vouchers: %v", tokens)
		if tokens["NOT_FOUND"] == 0 || tokens["NOT_FOUND"]+tokens["RATE_LIMITED"] != 10 {
			t.Errorf("tokens for unknown vouchers: %v", tokens)
		}
		if seen["RATE_LIMITED"] == 0 || seen["RATE_LIMITED without retryAfterMs"] > 0 {
			t.Errorf("attempts not limited: %v", seen)
		}
		if seen["NOT_FOUND"] > 20 || seen["NOT_FOUND"] == 0 {
			t.Errorf("NOT_FOUND %d times of 200: want a few, until the limit refuses", seen["NOT_FOUND"])
		}
		ts.assertNoGrowth(t, before, ids)
		if n := len(ts.redisKeys()) - len(before); n > 4 {
			t.Errorf("the attack added %d keys (with a TTL); want at most the two users' limits", n)
		}
		// Someone else still buys.
		other := ts.login("13800000002")
		ts.ok(other, seckillMutation, map[string]any{"v": strconv.FormatInt(v, 10)}, nil)
	})
}

// setBlogLike and setFollow toggled 200 times each by one user (each one a
// MySQL transaction). Before the fix all 200 went through in about 0.4 s.
func TestAdversarialLikeFollowToggles(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		author, fan, other := ts.login("13800000001"), ts.login("13800000002"), ts.login("13800000003")
		authorID := ts.userID(author)
		var blog struct{ CreateBlog struct{ ID string } }
		ts.ok(author, createBlogMutation, map[string]any{"t": "toggled"}, &blog)
		const likeM = `mutation($b: ID!, $l: Boolean!) { setBlogLike(blogId: $b, liked: $l) { id liked } }`
		const followM = `mutation($u: ID!, $f: Boolean!) { setFollow(userId: $u, follow: $f) { id followerCount } }`
		for _, c := range []struct {
			name  string
			query string
			vars  func(on bool) map[string]any
		}{
			{"setBlogLike", likeM, func(on bool) map[string]any { return map[string]any{"b": blog.CreateBlog.ID, "l": on} }},
			{"setFollow", followM, func(on bool) map[string]any { return map[string]any{"u": authorID, "f": on} }},
		} {
			t.Run(c.name, func(t *testing.T) {
				ts.ok(fan, c.query, c.vars(true), nil) // the steady state: the copies exist
				ts.ok(fan, c.query, c.vars(false), nil)
				before := ts.redisKeys()
				seen := map[string]int{}
				done := 0
				start := time.Now()
				for i := range 200 {
					r := ts.do(fan, c.query, c.vars(i%2 == 0))
					codes(r, seen)
					if len(r.Errors) == 0 {
						done++
					}
				}
				took := time.Since(start)
				t.Logf("200 toggles in %v: %d done, errors %v", took.Round(time.Millisecond), done, seen)
				if seen["RATE_LIMITED"] == 0 || seen["RATE_LIMITED without retryAfterMs"] > 0 {
					t.Fatalf("toggles not limited: %d done, errors %v", done, seen)
				}
				// The default allows a burst of 60, then one a second.
				if limit := 60 - 2 + int(took/time.Second) + 1; done > limit {
					t.Errorf("%d toggles done, want at most %d", done, limit)
				}
				// The allowance comes back with time; the last toggle is "off",
				// as before the attack, so the copies are as they were.
				ts.advance(2 * time.Second)
				ts.ok(fan, c.query, c.vars(false), nil)
				ts.assertNoGrowth(t, before, nil)
				// Another user is not limited by this one's toggles.
				ts.ok(other, c.query, c.vars(true), nil)
			})
		}
	})
}
