package shop

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain proves the subscriptions, background rebuilds, refills, outbox
// pollers and visitor flushers all stop when their owner is closed.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
