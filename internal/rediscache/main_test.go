package rediscache

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain proves the subscriptions, background rebuilds and refills all stop
// when their owner is closed.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
