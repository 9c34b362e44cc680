package rediscache

import (
	"math/rand/v2"
	"time"
)

// Jitter spreads ttl uniformly over ±frac of itself, so keys written together
// do not all expire together (雪崩, avalanche). frac <= 0 leaves ttl as is.
func Jitter(ttl time.Duration, frac float64) time.Duration {
	if frac <= 0 || ttl <= 0 {
		return ttl
	}
	d := time.Duration(float64(ttl) * frac * (2*rand.Float64() - 1)) //nolint:gosec // G404: jitter needs spread, not unpredictability
	return max(ttl+d, time.Millisecond)
}
