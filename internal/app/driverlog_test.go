package app

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/hmdp/hmdp/internal/testenv"
)

// The adapters turn the drivers' own lines into JSON log lines.
func TestDriverLoggersWriteJSON(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	redisLogger{log}.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v\n", 5, "dial tcp: connection refused")
	mysqlLogger{log}.Print("closing bad idle connection: ", "EOF")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["level"] != "WARN" || m["text"] == "" {
			t.Fatalf("not a JSON warning: %s", l)
		}
	}
	if !strings.Contains(lines[0], "failed to dial after 5 attempts") || !strings.Contains(lines[1], "closing bad idle connection: EOF") {
		t.Fatalf("texts lost: %q", lines)
	}
}

// A server process whose Redis (and, on the real back ends, MySQL) goes away
// keeps writing JSON lines only: the drivers' own complaints are routed
// through the structured logger.
func TestProcessLogIsJSONWhenBackEndsFail(t *testing.T) {
	t.Parallel()
	bin := buildServer(t)
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		var cuts []func()
		if backend == "real" {
			if len(cfg.RedisAddrs) > 1 {
				t.Skip("a cluster cannot be proxied by one address")
			}
			rp := testenv.NewProxy(t, cfg.RedisAddrs[0])
			cfg.RedisAddrs = []string{rp.Addr()}
			mp := mysqlThroughProxy(t, &cfg)
			cuts = append(cuts, rp.Stop, mp.Stop)
		} else {
			mr := miniredis.RunT(t)
			cfg.RedisAddrs = []string{mr.Addr()}
			cuts = append(cuts, mr.Close)
		}
		p := startProcess(t, bin, processEnv(cfg))
		for _, cut := range cuts {
			cut()
		}
		var driverLines int
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) && driverLines == 0 {
			if res, err := httpGet(t.Context(), p.url+"/readyz"); err == nil {
				res.Body.Close()
			}
			if res, err := httpPost(t.Context(), p.url+"/graphql", "application/json", strings.NewReader(`{"query":"{ shopTypes { name } }"}`)); err == nil {
				res.Body.Close()
			}
			drain := time.After(200 * time.Millisecond)
		read:
			for {
				select {
				case l := <-p.logs:
					if !json.Valid([]byte(l)) {
						t.Fatalf("not a JSON line: %s", l)
					}
					if strings.Contains(l, `"msg":"redis driver"`) || strings.Contains(l, `"msg":"mysql driver"`) {
						driverLines++
					}
				case <-drain:
					break read
				}
			}
		}
		if driverLines == 0 {
			t.Fatal("no driver line was logged")
		}
	})
}
