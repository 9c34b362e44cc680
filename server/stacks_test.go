package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestShippedBinaryStartsWithSmallStacks runs the built binary from a plain
// environment (no GODEBUG) and reads the environment its runtime started
// with: it must carry adaptivestackstart=0, which the runtime reads only at
// start. An operator's own setting is kept as given.
func TestShippedBinaryStartsWithSmallStacks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/<pid>/environ")
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hmdp")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, tc := range []struct{ given, want string }{
		{"", "GODEBUG=adaptivestackstart=0"},
		{"GODEBUG=gctrace=0", "GODEBUG=gctrace=0,adaptivestackstart=0"},
		{"GODEBUG=adaptivestackstart=1", "GODEBUG=adaptivestackstart=1"},
	} {
		t.Run(tc.given, func(t *testing.T) {
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "GODEBUG=") && !strings.HasPrefix(kv, "HMDP_") {
					env = append(env, kv)
				}
			}
			if tc.given != "" {
				env = append(env, tc.given)
			}
			// Embedded back ends, any free port: the process just has to run.
			env = append(env, "HMDP_ADDR=127.0.0.1:0", "HMDP_DATA_DIR="+t.TempDir(), "HMDP_SEED=false")
			cmd := exec.CommandContext(t.Context(), bin)
			cmd.Env = env
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			environ := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/environ"
			var got string
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				b, err := os.ReadFile(environ)
				if err != nil {
					t.Fatal(err)
				}
				got = ""
				for kv := range strings.SplitSeq(string(b), "\x00") {
					if strings.HasPrefix(kv, "GODEBUG=") {
						got = kv
					}
				}
				if got == tc.want {
					return
				}
			}
			t.Fatalf("the runtime started with %q, want %q", got, tc.want)
		})
	}
}
