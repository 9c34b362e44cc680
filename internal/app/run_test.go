package app

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// HMDP_PPROF_ADDR serves Go's profiler on its own listener.
func TestPprofListener(t *testing.T) {
	t.Parallel()
	addr, stop, err := servePprof(t.Context(), "127.0.0.1:0", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := httpGet(t.Context(), "http://"+addr+"/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if _, _, err := servePprof(t.Context(), addr, slog.New(slog.DiscardHandler)); err == nil || !strings.HasPrefix(err.Error(), "HMDP_PPROF_ADDR: ") {
		t.Fatalf("a taken address: %v", err)
	}
}
