package app

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

// benchClients is the number of concurrent HTTP clients the issues' benchmarks ask for.
const benchClients = 50

// benchServer starts a whole server for a benchmark: on the real back ends
// when both are configured, else on the embedded ones.
func benchServer(b *testing.B, edit ...func(*config.Config)) (*App, string, *smsBox) {
	b.Helper()
	cfg := benchConfig(b)
	for _, e := range edit {
		e(&cfg)
	}
	return benchApp(b, cfg)
}

// benchConfig is a configuration on the real back ends when both are
// configured, else on the embedded ones.
func benchConfig(b *testing.B) config.Config {
	b.Helper()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	cfg.DataDir = b.TempDir()
	cfg.Seed = true
	cfg.WSMaxSocketsPerAddress = 1 << 20 // every client of the benchmarks is at 127.0.0.1
	if testenv.RealMySQLDSN() != "" && testenv.RealRedisAddr() != "" {
		cfg.MySQLDSN = testenv.NewMySQLDatabase(b)
		r := testenv.NewRealRedis(b)
		cfg.RedisAddrs = strings.Split(testenv.RealRedisAddr(), ",")
		cfg.RedisPrefix = r.Prefix
	}
	return cfg
}

// benchApp starts a server with cfg behind an httptest server.
func benchApp(b *testing.B, cfg config.Config) (*App, string, *smsBox) {
	b.Helper()
	sms := &smsBox{codes: map[string]string{}}
	app, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), Options{Sender: sms})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(app.Handler())
	b.Cleanup(func() {
		app.Stop()
		hs.Close()
		app.Close()
	})
	return app, hs.URL, sms
}
