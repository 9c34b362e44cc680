package lock

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// childEnv makes the test binary act as a lock holder (see runChild).
const childEnv = "HMDP_LOCK_TEST_CHILD"

// runChild takes the reentrant lock LOCK_NAME with a fast watchdog, prints
// "held <token>", and prints "lost <cause>" once it learns the lock is gone.
func runChild() int {
	c := testenv.NewRedisClient(os.Getenv("LOCK_ADDR"))
	defer c.Close()
	l := New(c, os.Getenv("LOCK_PREFIX"), fastWatchdog)
	defer l.Close()
	h, err := l.Reentrant(os.Getenv("LOCK_NAME")).TryLock(context.Background(), 5*time.Second, 0)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("held", h.Token())
	select {
	case <-h.Lost():
		fmt.Println("lost", context.Cause(h.Context()))
	case <-time.After(30 * time.Second):
		fmt.Println("never told")
	}
	return 0
}

// A holder frozen past its lease (SIGSTOP: a GC pause, a stalled VM) loses
// the lock without knowing. The watchdog cannot renew while the process is
// stopped, the key expires, a new holder gets a larger fencing token, and the
// old holder is told as soon as it runs again, holding a token a fenced
// writer rejects.
func TestPausedHolderIsToldAndFenced(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		realTime(t, b)
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1",
			"LOCK_ADDR="+serverAddr(b), "LOCK_PREFIX="+b.Prefix, "LOCK_NAME=paused")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Signal(syscall.SIGCONT)
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
		lines := make(chan string, 4)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()

		held := within(t, 10*time.Second, "child holding the lock", lines)
		staleToken, err := strconv.ParseInt(strings.TrimPrefix(held, "held "), 10, 64)
		if err != nil {
			t.Fatalf("child said %q", held)
		}
		if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}

		// The frozen child's watchdog stops, so its key expires and we get in.
		l := newLocker(t, b.Client, b.Prefix, fastWatchdog)
		h, err := l.Reentrant("paused").TryLock(context.Background(), 10*time.Second, 0)
		if err != nil {
			t.Fatalf("lock never freed by the paused holder: %v", err)
		}
		defer func() { _ = h.Unlock(context.Background()) }()
		if h.Token() <= staleToken {
			t.Fatalf("new token %d not above the stale holder's %d", h.Token(), staleToken)
		}

		if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		told := within(t, 10*time.Second, "child told of the loss", lines)
		if !strings.HasPrefix(told, "lost ") || !strings.Contains(told, ErrLockLost.Error()) {
			t.Fatalf("child said %q, want it told the lock was lost", told)
		}

		// A fenced writer keeps the largest token it has seen.
		w := fencedWriter{}
		if !w.write(h.Token()) || w.write(staleToken) {
			t.Fatal("fenced writer accepted the stale holder's write")
		}
		if h.Context().Err() != nil {
			t.Fatal("the stale holder waking up disturbed the new holder")
		}
	})
}

// fencedWriter is the storage side of fencing: it refuses writes carrying a
// token smaller than one it already accepted.
type fencedWriter struct{ max int64 }

func (w *fencedWriter) write(token int64) bool {
	if token < w.max {
		return false
	}
	w.max = token
	return true
}
