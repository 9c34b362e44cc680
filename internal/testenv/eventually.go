package testenv

import (
	"testing"
	"time"
)

// Eventually polls cond until it holds, failing the test with what if it
// does not within the given time: for effects that arrive asynchronously
// (another instance's invalidation, a retried delete, a key's expiry).
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
