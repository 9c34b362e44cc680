package lock

import (
	"context"
	"errors"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// newLocker returns a Locker on b closed with the test.
func newLocker(t testing.TB, c redis.UniversalClient, prefix string, opts ...Option) *Locker {
	t.Helper()
	l := New(c, prefix, opts...)
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// fastWatchdog is short enough to see renewals and expiry within a test.
var fastWatchdog = WithWatchdog(600*time.Millisecond, 200*time.Millisecond)

// realTime makes the embedded Redis's TTLs follow the wall clock (miniredis
// only ages keys when told to), so expiry and renewal tests read the same on
// both back ends. No-op on real Redis.
func realTime(t testing.TB, b testenv.RedisBackend) {
	t.Helper()
	if b.Mini == nil {
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tk.C:
				b.Mini.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// secondClient is another connection pool to b's server: with its own Locker
// it stands in for a second API server.
func secondClient(t testing.TB, b testenv.RedisBackend) redis.UniversalClient {
	t.Helper()
	c := testenv.NewRedisClient(serverAddr(b))
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// serverAddr is the address a child process can reach b at.
func serverAddr(b testenv.RedisBackend) string {
	if b.Mini != nil {
		return b.Mini.Addr()
	}
	return testenv.RealRedisAddr()
}

// eventually polls cond until it holds or 10 s pass. The deadline is a
// safety net, not a measurement.
// within fails the test if ch yields nothing in d (a hang guard, far above
// anything the code under test should take).
func within[T any](t testing.TB, d time.Duration, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		t.Fatalf("%s: nothing after %v", what, d)
		panic("unreachable")
	}
}

// parked reports how many waiters of channel are parked in l, waiting for a
// release message or their fallback timer.
func parked(l *Locker, channel string) int {
	l.sub.mu.Lock()
	defer l.sub.mu.Unlock()
	if st := l.sub.live[channel]; st != nil {
		return len(st.parked)
	}
	return 0
}

// counter reads one labelled counter from reg.
func counter(t testing.TB, reg *prometheus.Registry, name, kind string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "kind" && lp.GetValue() == kind {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

func mustNotHeld(t testing.TB, err error) {
	t.Helper()
	var nh *NotHeldError
	if !errors.As(err, &nh) || !errors.Is(err, ErrNotHeld) {
		t.Fatalf("want a NotHeldError, got %v", err)
	}
}

func mustNotAcquired(t testing.TB, err error) {
	t.Helper()
	if !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("want ErrNotAcquired, got %v", err)
	}
}

// redisServer is a redis-server process started for one test.
type redisServer struct {
	addr string
	cmd  *exec.Cmd
	once sync.Once
}

// startRedis starts a throwaway redis-server on a free port, or skips the
// test when there is no redis-server binary.
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("no redis-server binary: multi-node tests need independent servers")
	}
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	s := &redisServer{addr: "127.0.0.1:" + strconv.Itoa(port)}
	// Not t.Context(): stop kills it, after the cleanups registered later,
	// which may still use it (a Locker's Close).
	s.cmd = exec.CommandContext(context.WithoutCancel(t.Context()), bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	c := redis.NewClient(&redis.Options{Addr: s.addr, MaxRetries: -1})
	defer c.Close()
	testenv.Eventually(t, 10*time.Second, "redis-server on "+s.addr, func() bool { return c.Ping(context.Background()).Err() == nil })
	return s
}

func (s *redisServer) stop() {
	s.once.Do(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
}

// blackhole accepts TCP connections and never answers: a hung Redis.
func blackhole(t testing.TB) string {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

func nodeClient(t testing.TB, addr string, opt func(*redis.Options)) *redis.Client {
	t.Helper()
	o := &redis.Options{Addr: addr}
	if opt != nil {
		opt(o)
	}
	c := redis.NewClient(o)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func must[T any](t testing.TB) func(T, error) T {
	t.Helper()
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
