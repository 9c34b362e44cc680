package app

import (
	"fmt"
	"testing"
)

// seckillTokenRequired tells any client, anonymous too, whether a purchase
// needs seckillToken first (HMDP_SECKILL_TOKEN): the web app asks for a
// token only then, so with tokens off a purchase is one request.
func TestSeckillTokenRequiredFollowsTheSetting(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		for _, on := range []bool{false, true} {
			t.Run(fmt.Sprint("tokens=", on), func(t *testing.T) {
				cfg := testConfig(t, backend)
				cfg.SeckillToken = on
				ts := startServerWith(t, backend, cfg)
				var got struct{ SeckillTokenRequired bool }
				ts.ok("", `{ seckillTokenRequired }`, nil, &got)
				if got.SeckillTokenRequired != on {
					t.Fatalf("seckillTokenRequired %v with HMDP_SECKILL_TOKEN=%v", got.SeckillTokenRequired, on)
				}
			})
		}
	})
}
