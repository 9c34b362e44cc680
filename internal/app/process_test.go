package app

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
)

// serverProcess is a server running in a process of its own: for tests that
// kill it, and benchmarks that measure it apart from their clients.
type serverProcess struct {
	cmd *exec.Cmd
	url string
	// logs gets the stdout lines that follow "listening" (lines that do not
	// fit while nobody reads are dropped, so a chatty server never blocks).
	logs chan string
}

// built is the real binary, built once per test run.
var built struct {
	once     sync.Once
	dir, bin string
	out      []byte
	err      error
}

// buildServer returns the real binary, building it on first use (the tests
// that kill, stop or restart a server process share it; TestMain removes it).
func buildServer(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "hmdp-bin"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "hmdp")
		built.out, built.err = exec.CommandContext(t.Context(), "go", "build", "-o", built.bin, "../../server").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// processEnv is the environment that points a server process at cfg's back
// ends (and data directory), without seeding, plus extra settings.
func processEnv(cfg config.Config, extra ...string) []string {
	return append([]string{"HMDP_MYSQL_DSN=" + cfg.MySQLDSN, "HMDP_REDIS_ADDR=" + strings.Join(cfg.RedisAddrs, ","),
		"HMDP_REDIS_PREFIX=" + cfg.RedisPrefix, "HMDP_DATA_DIR=" + cfg.DataDir, "HMDP_SEED=false",
		"HMDP_PAY_PUBLIC_KEY=" + testPayKey}, extra...)
}

// testPayKey is a payment provider's public key for production
// configurations (which refuse the sandbox's development key).
const testPayKey = "jFgt1Uhuw8CYt9yHeGPuUYWWFvLt65hooGci4RQGnjQ="

// startProcess runs bin with env added to the environment on a free port
// (or env's HMDP_ADDR: a process restarted where the last one listened) and
// returns once it is listening; cleanup kills it.
func startProcess(t testing.TB, bin string, env []string) *serverProcess {
	t.Helper()
	addr := ""
	for _, kv := range env {
		if a, ok := strings.CutPrefix(kv, "HMDP_ADDR="); ok {
			addr = a
		}
	}
	if addr == "" {
		addr = freeAddr(t)
	}
	// Not t.Context(): the cleanup below kills it, after the cleanups
	// registered later, which may still use it.
	cmd := exec.CommandContext(context.WithoutCancel(t.Context()), bin)
	cmd.Env = append(append(os.Environ(), env...), "HMDP_ADDR="+addr)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := &serverProcess{cmd: cmd, url: "http://" + addr, logs: make(chan string, 256)}
	listening := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		up := false
		for sc.Scan() {
			if up {
				select {
				case p.logs <- sc.Text():
				default:
				}
			}
			if !up && strings.Contains(sc.Text(), `"msg":"listening"`) {
				up = true
				listening <- true
			}
			if testing.Verbose() {
				t.Log(sc.Text())
			}
		}
		close(listening)
	}()
	select {
	case ok := <-listening:
		if !ok {
			t.Fatal("server process exited before listening")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server process did not start")
	}
	return p
}

// waitLog waits for a log line with msg.
func (p *serverProcess) waitLog(t testing.TB, msg string, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l := <-p.logs:
			if strings.Contains(l, `"msg":"`+msg+`"`) {
				return
			}
		case <-deadline:
			t.Fatalf("server process did not log %q", msg)
		}
	}
}

// benchServeEnv makes the test binary run the server, as the real binary
// does, instead of the tests: benchmarks start it with their own executable
// to measure the server apart from its clients.
const benchServeEnv = "HMDP_BENCH_SERVE"

// serveForBenchmark is main's run with one addition for the memory
// measurements: SIGUSR1 runs a garbage collection, returns the freed memory
// to the OS and logs "freed", so the resident size read next holds no
// garbage. With HMDP_BENCH_PROFILE=path it also writes the heap profile and
// the goroutines then to path.heap and path.stacks, and SIGUSR2 starts and
// stops (logging "profiled") a CPU profile to path.cpu.
func serveForBenchmark() int {
	cfg, err := config.Load(nil, os.Getenv)
	if err != nil {
		os.Stderr.WriteString("config: " + err.Error() + "\n")
		return 2
	}
	log := NewLogger(cfg.LogLevel)
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	go func() {
		for range usr1 {
			debug.FreeOSMemory()
			if path := os.Getenv("HMDP_BENCH_PROFILE"); path != "" {
				writeProfile(path+".heap", "heap", 0)
				writeProfile(path+".stacks", "goroutine", 1)
			}
			log.Info("freed")
		}
	}()
	if path := os.Getenv("HMDP_BENCH_PROFILE"); path != "" {
		runtime.MemProfileRate = 64 // every allocation, nearly: per-subscription costs are small
		go profileCPU(path+".cpu", log)
	}
	if err := Run(context.Background(), cfg, log); err != nil {
		log.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

func writeProfile(path, name string, debug int) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup(name).WriteTo(f, debug)
}

// profileCPU profiles between each two SIGUSR2s.
func profileCPU(path string, log *slog.Logger) {
	usr2 := make(chan os.Signal, 1)
	signal.Notify(usr2, syscall.SIGUSR2)
	for range usr2 {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			log.Error("cpu profile", "err", err)
			return
		}
		<-usr2
		pprof.StopCPUProfile()
		f.Close()
		log.Info("profiled")
	}
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
