package main

import (
	"testing"

	"go.uber.org/goleak"
)

// No test may leave goroutines behind: websocket connections, session loads and
// the embedded Redis's clock all stop with the server.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
