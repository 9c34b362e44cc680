package app

import (
	"strconv"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
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
		ctx := t.Context()
		ts := startServer(t, backend, func(c *config.Config) { c.SeckillToken = true })
		buyer := ts.login("13800000031")
		asBuyer := ts.gql(buyer)
		later := strconv.FormatInt(ts.createSale(5, time.Now().Add(time.Hour), time.Now().Add(2*time.Hour)), 10)
		wantCode(t, errOf(gqlclient.SeckillToken(ctx, asBuyer, later)), "SALE_NOT_STARTED")
		wantCode(t, errOf(gqlclient.SeckillToken(ctx, ts.gql(""), later)), "UNAUTHENTICATED")

		v := strconv.FormatInt(ts.createSale(5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour)), 10)
		wantField(t, errOf(gqlclient.SeckillVoucher(ctx, asBuyer, v)), "token")
		tok := must(gqlclient.SeckillToken(ctx, asBuyer, v))(t).SeckillToken
		if tok.Token == "" || time.Until(tok.ExpiresAt) <= 0 {
			t.Fatalf("token %+v", tok)
		}
		out := must(gqlclient.SeckillVoucherWithToken(ctx, asBuyer, v, &tok.Token))(t)
		if out.SeckillVoucher.Status != "PENDING" {
			t.Fatalf("attempt: %+v", out)
		}
		// The token again: refused, on the token argument.
		wantField(t, errOf(gqlclient.SeckillVoucherWithToken(ctx, asBuyer, v, &tok.Token)), "token")
	})
}
