package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/internal/auth"
)

// No test may leave goroutines behind: websocket connections, subscriptions,
// stream consumers, session loads and the embedded Redis's clock all stop with
// the server.
func TestMain(m *testing.M) {
	if os.Getenv(benchServeEnv) != "" {
		os.Exit(serveForBenchmark())
	}
	// The drivers' loggers are process-wide, and setting them races with
	// every DSN parsed meanwhile: set them once before any test starts a
	// server (as Run does before it opens anything), not from whichever
	// test first runs a command that routes them.
	RouteDriverLogs(slog.Default())
	// Passwords hashed at bcrypt's least cost: at the default, each login
	// and password change of these tests costs 0.7 s of CPU under the race
	// detector. Servers run as processes (the built binary) keep the default.
	auth.PasswordCost = bcrypt.MinCost
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	// Idle keep-alive connections of the tests' shared HTTP client are the
	// client's, not the server's; a test that killed a server process leaves some.
	http.DefaultClient.CloseIdleConnections()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
