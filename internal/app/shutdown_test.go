package app

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The real binary starts on the embedded back ends, serves, and on SIGTERM
// closes websockets, drains, logs "stopped" and exits 0.
func TestBinaryStartsAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	bin := buildServer(t)
	addr := freeAddr(t)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(), "HMDP_ADDR="+addr, "HMDP_DATA_DIR="+t.TempDir(), "HMDP_MYSQL_DSN=", "HMDP_REDIS_ADDR=")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan map[string]any, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				t.Errorf("log line is not JSON: %s", sc.Text())
				continue
			}
			lines <- m
		}
	}()
	waitFor := func(msg string) map[string]any {
		t.Helper()
		for m := range lines {
			if m["msg"] == msg {
				return m
			}
		}
		t.Fatalf("log ended before %q", msg)
		return nil
	}
	backends := waitFor("back ends")
	if !strings.HasPrefix(backends["database"].(string), "embedded sqlite") || !strings.HasPrefix(backends["redis"].(string), "embedded redis") {
		t.Fatalf("start-up line %v", backends)
	}
	waitFor("listening")

	ts := &testServer{t: t, URL: "http://" + addr}
	var out struct{ ShopTypes []struct{ Name string } }
	ts.ok("", `{ shopTypes { name } }`, nil, &out)
	if len(out.ShopTypes) != 10 || out.ShopTypes[0].Name != "美食" {
		t.Fatalf("demo shop types %+v", out.ShopTypes)
	}
	ws, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, nil)
	if err != nil {
		t.Fatal(err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.next(10 * time.Second); err == nil {
		t.Fatal("websocket still open after SIGTERM")
	}
	waitFor("stopped")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
}
