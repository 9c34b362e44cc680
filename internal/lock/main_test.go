package lock

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain proves watchdogs, Pub/Sub listeners and node calls all stop: no
// goroutine may outlive the tests. It also runs the lock-holding child
// process of TestPausedHolderIsToldAndFenced.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runChild())
	}
	goleak.VerifyTestMain(m)
}
