package testenv

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Proxy forwards TCP connections on a loopback port to a server; Stop makes
// the server look stopped (connections cut, new ones refused) and Start
// brings it back on the same port; BlackHole makes it look partitioned
// (connections stay open, bytes vanish both ways) until Heal; Slow delays
// every byte by a latency, as across a slow network, until Slow(0).
type Proxy struct {
	target string
	addr   string
	holed  atomic.Bool
	// answersHoled drops only what the server sends (HoleAnswers).
	answersHoled atomic.Bool
	// answersDropped counts the bytes HoleAnswers dropped.
	answersDropped atomic.Int64
	delay          atomic.Int64 // nanoseconds each chunk waits before it is forwarded

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

// NewProxy starts a proxy to target, stopped when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	p := &Proxy{target: target, conns: map[net.Conn]bool{}}
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(t.Context(), ln)
	t.Cleanup(p.Stop)
	return p
}

// BlackHole drops every byte in both directions, on open and new
// connections, until Heal: the server neither answers nor refuses, as
// behind a network partition.
func (p *Proxy) BlackHole() { p.holed.Store(true) }

// HoleAnswers drops what the server sends, on open and new connections,
// and forwards what clients send, until Heal: a request reaches the server
// and is done, but its answer never comes back, as when the server dies
// between its work and its answer.
func (p *Proxy) HoleAnswers() { p.answersHoled.Store(true) }

// AnswersDropped is how many bytes of answers HoleAnswers has dropped. The
// hole applies when the proxy reads an answer, not when the server sends
// it: a test that heals after the server answered waits for the answer to
// be dropped first, or a proxy slow to read (a loaded machine) forwards it
// after Heal.
func (p *Proxy) AnswersDropped() int64 { return p.answersDropped.Load() }

// Heal forwards again both ways (what was dropped stays lost).
func (p *Proxy) Heal() { p.holed.Store(false); p.answersHoled.Store(false) }

// Slow delays every chunk forwarded from now on, in both directions, by d
// (a round trip by 2d); Slow(0) forwards at once again. Chunks are delayed,
// not the connection: what arrives while earlier chunks wait is on its way
// too, so throughput is not capped, only latency added.
func (p *Proxy) Slow(d time.Duration) { p.delay.Store(int64(d)) }

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Stop closes the listener and every forwarded connection.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// Start listens again on the same port.
func (p *Proxy) Start(t testing.TB) {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(t.Context(), ln)
}

// serve forwards the connections ln accepts. It dials with ctx's values
// but not its end: the proxy forwards until Stop, and cleanups that run
// before its own may still connect through it.
func (p *Proxy) serve(ctx context.Context, ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(ctx, c)
		}
	}()
}

func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *Proxy) forward(ctx context.Context, c net.Conn) {
	up, err := new(net.Dialer).DialContext(ctx, "tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(c, up) {
		_ = c.Close()
		_ = up.Close()
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	pipe := func(dst, src net.Conn, answers bool) {
		defer wg.Done()
		// The reader stamps each chunk with when it is due; the writer
		// forwards it then. Either side closing ends both.
		type chunk struct {
			b   []byte
			due time.Time
		}
		chunks := make(chan chunk, 256)
		done := make(chan struct{})
		go func() {
			defer close(chunks)
			buf := make([]byte, 32<<10)
			for {
				n, err := src.Read(buf)
				switch {
				case n == 0 || p.holed.Load():
				case answers && p.answersHoled.Load():
					p.answersDropped.Add(int64(n))
				default:
					c := chunk{b: append([]byte(nil), buf[:n]...), due: time.Now().Add(time.Duration(p.delay.Load()))}
					select {
					case chunks <- c:
					case <-done:
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
		for c := range chunks {
			if wait := time.Until(c.due); wait > 0 {
				time.Sleep(wait)
			}
			if _, err := dst.Write(c.b); err != nil {
				break
			}
		}
		close(done)
		_ = dst.Close()
		_ = src.Close()
	}
	go pipe(up, c, false)
	go pipe(c, up, true)
	wg.Wait()
}
