package testenv_test

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// echoServer answers every byte it reads with the same byte.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// Slow(d) adds d each way to every chunk, without queueing chunks behind
// each other (a latency, not a bandwidth cap), and Slow(0) takes it away.
func TestProxySlow(t *testing.T) {
	t.Parallel()
	p := testenv.NewProxy(t, echoServer(t))
	c, err := new(net.Dialer).DialContext(t.Context(), "tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, 1)
	roundTrip := func() time.Duration {
		t.Helper()
		start := time.Now()
		if _, err := c.Write([]byte{'x'}); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	// The lower bounds are the delay itself; the upper ones leave room for a
	// loaded machine (the first round trip also dials the server).
	fastest := func() time.Duration {
		best := roundTrip()
		for range 4 {
			best = min(best, roundTrip())
		}
		return best
	}
	const d = 100 * time.Millisecond
	if rt := fastest(); rt >= d {
		t.Fatalf("round trip before Slow: %v", rt)
	}

	p.Slow(d)
	if rt := roundTrip(); rt < 2*d || rt > 2*d+300*time.Millisecond {
		t.Fatalf("round trip with Slow(%v): %v, want about %v", d, rt, 2*d)
	}
	// Twenty writes 5 ms apart: each comes back 2d after it left, all
	// within 2d+100 ms. Chunks waiting one behind the other would take 20d.
	const writes = 20
	start := time.Now()
	go func() {
		for range writes {
			_, _ = c.Write([]byte{'y'})
			time.Sleep(5 * time.Millisecond)
		}
	}()
	if _, err := io.ReadFull(c, make([]byte, writes)); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 2*d || took > 10*d {
		t.Fatalf("%d pipelined writes with Slow(%v) came back in %v, want about %v", writes, d, took, 2*d+100*time.Millisecond)
	}

	p.Slow(0)
	if rt := fastest(); rt >= d {
		t.Fatalf("round trip after Slow(0): %v", rt)
	}
}

// HoleAnswers lets requests through and drops the answers until Heal.
func TestProxyHoleAnswers(t *testing.T) {
	t.Parallel()
	got := make(chan byte, 8)
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() { // an echo server that also says what it read
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				b := make([]byte, 1)
				for {
					if _, err := c.Read(b); err != nil {
						return
					}
					got <- b[0]
					_, _ = c.Write(b)
				}
			}()
		}
	}()
	p := testenv.NewProxy(t, ln.Addr().String())
	c, err := new(net.Dialer).DialContext(t.Context(), "tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p.HoleAnswers()
	if _, err := c.Write([]byte{'a'}); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if b != 'a' {
			t.Fatalf("server read %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the request did not reach the server")
	}
	_ = c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("an answer came through: %d bytes, %v", n, err)
	}
	if d := p.AnswersDropped(); d != 1 {
		t.Fatalf("AnswersDropped = %d, want the 1 byte echoed", d)
	}
	p.Heal()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte{'b'}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := io.ReadFull(c, b); err != nil || b[0] != 'b' {
		t.Fatalf("after Heal: %q %v", b, err)
	}
}
