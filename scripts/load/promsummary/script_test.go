package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scripts/prometheus.sh, as make load uses it: a Prometheus on a free port
// scraping the given instance as job hmdp, with the repository's rules
// loaded, stopped by "stop". Run when prometheus is installed.
func TestPrometheusScript(t *testing.T) {
	if _, err := exec.LookPath("prometheus"); err != nil {
		t.Skip("prometheus is not installed (Debian: apt-get install prometheus)")
	}
	instance := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte("# TYPE go_goroutines gauge\ngo_goroutines 42\n"))
	}))
	defer instance.Close()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	dir := t.TempDir()
	script := filepath.Join("..", "..", "prometheus.sh")
	start := exec.CommandContext(t.Context(), script, "start", dir, strings.TrimPrefix(instance.URL, "http://"))
	start.Env = append(os.Environ(), "PROM_PORT="+strconv.Itoa(port))
	out, err := start.Output()
	if err != nil {
		t.Fatalf("start: %v\n%s", err, out)
	}
	defer func() { _ = exec.Command(script, "stop", dir).Run() }() //nolint:noctx // cleanup after the test's context ended
	base := strings.TrimSpace(string(out))
	if base != "http://127.0.0.1:"+strconv.Itoa(port) {
		t.Fatalf("start printed %q, want the URL on port %d", base, port)
	}
	c := &client{base: base, http: http.DefaultClient}

	// The instance is scraped as job hmdp, every second.
	var got string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		res, err := c.queryRange(t.Context(), `go_goroutines{job="hmdp"}`, time.Now().Add(-time.Minute), time.Now(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 1 && len(res[0].Values) > 0 {
			got, _ = res[0].Values[len(res[0].Values)-1][1].(string)
			break
		}
	}
	if got != "42" {
		t.Fatalf("go_goroutines of the instance: %q, want 42", got)
	}

	// The rules are loaded.
	var rules struct {
		Data struct {
			Groups []struct {
				Name  string `json:"name"`
				Rules []struct {
					Name string `json:"name"`
				} `json:"rules"`
			} `json:"groups"`
		} `json:"data"`
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/api/v1/rules", http.NoBody)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(res.Body).Decode(&rules)
	_ = res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	alerts := map[string]bool{}
	for _, g := range rules.Data.Groups {
		for _, r := range g.Rules {
			alerts[r.Name] = true
		}
	}
	if !alerts["HmdpInstanceDown"] || !alerts["job:hmdp_graphql_duration_seconds:p99_5m"] {
		t.Errorf("rules loaded: %v", alerts)
	}

	// stop ends it.
	pid, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.CommandContext(t.Context(), script, "stop", dir).Run(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if _, err := c.queryRange(ctx, "up", time.Now().Add(-time.Minute), time.Now(), time.Second); err == nil {
		t.Errorf("prometheus (pid %s) still answers after stop", strings.TrimSpace(string(pid)))
	}
}
