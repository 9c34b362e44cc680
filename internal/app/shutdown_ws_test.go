package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/edge"
)

// On shutdown every subscriber, on either subprotocol, first gets its
// subscription's SUBSCRIPTION_CLOSED error (reason shutdown), then the socket
// closes with 1012, which graphql-ws clients retry on. Before, the broker's
// close and the sockets' end raced: some sockets closed with 1000 (which
// tells a client not to come back) before the error.
func TestShutdownTellsSubscribersToReconnect(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const n = 20
		clients := make([]*wsClient, n)
		for i := range clients {
			protocol := "graphql-transport-ws"
			if i%2 == 1 {
				protocol = "graphql-ws"
			}
			c, err := dialWS(t, ts.URL, protocol, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.subscribe("s", `subscription { blogComments(blogId: "1") { id } }`, nil)
			clients[i] = c
		}
		ts.waitSubscriptions("blogComments", n)
		go ts.app.Stop()
		for i, c := range clients {
			reason, code := c.untilClosed(10 * time.Second)
			if reason != "shutdown" || code != edge.CloseServiceRestart {
				t.Errorf("client %d (%s): error reason %q then close code %d; want shutdown, then %d", i, c.protocol, reason, code, edge.CloseServiceRestart)
			}
		}
	})
}

// untilClosed reads until the server closes the socket: the reason of the
// SUBSCRIPTION_CLOSED error seen before ("" if none) and the close code.
func (c *wsClient) untilClosed(within time.Duration) (reason string, code int) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for {
		m, err := c.next(time.Until(deadline))
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return reason, ce.Code
			}
			c.t.Fatalf("no close within %v: %v", within, err)
		}
		if m.Type != "error" && m.Type != "next" && m.Type != "data" {
			continue
		}
		var errs []gqlError
		var one struct{ Errors []gqlError }
		if json.Unmarshal(m.Payload, &errs) != nil || len(errs) == 0 {
			if json.Unmarshal(m.Payload, &one) == nil {
				errs = one.Errors
			}
		}
		for _, e := range errs {
			if e.Extensions["code"] == "SUBSCRIPTION_CLOSED" && reason == "" {
				reason = fmt.Sprint(e.Extensions["reason"])
			}
		}
	}
}

// The process exits soon after Stop returns, cutting whatever sockets are
// left: Stop returns only when every socket has written its close frame.
// Before, under load, a process exiting on SIGTERM cut sockets after their
// SUBSCRIPTION_CLOSED error but before their 1012 (258 of 600 in a CI run's
// rolling restart): clients saw 1006, abnormal closure.
func TestStopReturnsAfterEverySocketClosed(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	// The exit is played by closing every connection the server accepted,
	// the moment Stop returns.
	hs := httptest.NewUnstartedServer(ts.app.Handler())
	conns := &acceptedConns{Listener: hs.Listener}
	hs.Listener = conns
	hs.Start()
	t.Cleanup(hs.Close)
	const n = 100
	clients := make([]*wsClient, n)
	for i := range clients {
		c, err := dialWS(t, hs.URL, "graphql-transport-ws", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.subscribe("s", `subscription { blogComments(blogId: "1") { id } }`, nil)
		clients[i] = c
	}
	ts.waitSubscriptions("blogComments", n)
	ts.app.Stop()
	conns.cut()
	for i, c := range clients {
		if reason, code := c.untilClosed(10 * time.Second); reason != "shutdown" || code != edge.CloseServiceRestart {
			t.Errorf("client %d: error reason %q then close code %d; want shutdown, then %d", i, reason, code, edge.CloseServiceRestart)
		}
	}
}

// acceptedConns is a listener that can cut every connection it accepted,
// hijacked ones too (which net/http forgets).
type acceptedConns struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *acceptedConns) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *acceptedConns) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		_ = c.Close()
	}
}
