package outbox

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain proves the pollers stop when their outbox is closed.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
