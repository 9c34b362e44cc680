package app

import (
	"strconv"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
)

const (
	seckillTokenMutation     = `mutation($v: ID!) { seckillToken(voucherId: $v) { token expiresAt } }`
	seckillWithTokenMutation = `mutation($v: ID!, $t: String) { seckillVoucher(voucherId: $v, token: $t) { orderId status } }`
)

// With HMDP_SECKILL_TOKEN=on an attempt needs a token from seckillToken,
// which is handed out only once the sale has started and works once.
func TestSeckillTokenThroughGraphQL(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *config.Config) { c.SeckillToken = true })
		buyer := ts.login("13800000031")
		later := strconv.FormatInt(ts.createSale(5, time.Now().Add(time.Hour), time.Now().Add(2*time.Hour)), 10)
		ts.fails(buyer, seckillTokenMutation, map[string]any{"v": later}, "SALE_NOT_STARTED")
		ts.fails("", seckillTokenMutation, map[string]any{"v": later}, "UNAUTHENTICATED")

		v := strconv.FormatInt(ts.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour)), 10)
		e := ts.fails(buyer, seckillMutation, map[string]any{"v": v}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "token" {
			t.Fatalf("field %v", e.Extensions["field"])
		}
		var tok struct {
			SeckillToken struct {
				Token     string
				ExpiresAt time.Time
			}
		}
		ts.ok(buyer, seckillTokenMutation, map[string]any{"v": v}, &tok)
		if tok.SeckillToken.Token == "" || time.Until(tok.SeckillToken.ExpiresAt) <= 0 {
			t.Fatalf("token %+v", tok)
		}
		var out struct {
			SeckillVoucher struct{ OrderID, Status string }
		}
		ts.ok(buyer, seckillWithTokenMutation, map[string]any{"v": v, "t": tok.SeckillToken.Token}, &out)
		if out.SeckillVoucher.Status != "PENDING" {
			t.Fatalf("attempt: %+v", out)
		}
		e = ts.fails(buyer, seckillWithTokenMutation, map[string]any{"v": v, "t": tok.SeckillToken.Token}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "token" {
			t.Fatalf("replayed token: field %v", e.Extensions["field"])
		}
	})
}
