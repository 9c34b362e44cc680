package app

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/config"
)

func TestWebsocketAuth(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		token := ts.login("13400000001")
		for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
			t.Run(protocol, func(t *testing.T) {
				// A good token is accepted and the operations run as that user.
				c, err := dialWS(t, ts.URL, protocol, map[string]any{"authorization": "Bearer " + token}, nil)
				if err != nil {
					t.Fatalf("good token refused: %v", err)
				}
				if got := c.conn.Subprotocol(); got != protocol {
					t.Fatalf("negotiated %q", got)
				}
				c.subscribe("1", `{ me { nickName } }`, nil)
				if r := c.result("1", 5*time.Second); len(r.Errors) > 0 || string(r.Data) == `{"me":null}` {
					t.Fatalf("me over websocket: %s %+v", r.Data, r.Errors)
				}

				// A bad token is refused at connection_init.
				_, err = dialWS(t, ts.URL, protocol, map[string]any{"authorization": "Bearer ffffffffffffffffffffffffffffffff"}, nil)
				var ce *websocket.CloseError
				if !errors.As(err, &ce) {
					t.Fatalf("bad token: want the server to close, got %v", err)
				}
				if protocol == "graphql-transport-ws" && ce.Code != 4403 {
					t.Fatalf("bad token closed with %d %q, want 4403", ce.Code, ce.Text)
				}

				// No token: an anonymous connection.
				c, err = dialWS(t, ts.URL, protocol, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				c.subscribe("2", `{ me { nickName } }`, nil)
				if r := c.result("2", 5*time.Second); string(r.Data) != `{"me":null}` {
					t.Fatalf("anonymous me: %s %+v", r.Data, r.Errors)
				}
			})
		}
	})
}

func TestWebsocketOriginAllowList(t *testing.T) {
	ts := startServer(t, "embedded", func(c *config.Config) { c.AllowedOrigins = []string{"https://app.example.com"} })
	for origin, allowed := range map[string]bool{
		"":                         true, // not a browser
		ts.URL:                     true, // same origin
		"https://app.example.com":  true,
		"https://evil.example.com": false,
		"http://app.example.com":   false, // scheme matters
	} {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		_, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, h)
		if allowed && err != nil {
			t.Errorf("origin %q refused: %v", origin, err)
		}
		if !allowed && !errors.Is(err, websocket.ErrBadHandshake) {
			t.Errorf("origin %q: want a refused handshake, got %v", origin, err)
		}
	}
}

// Stop (the first step of a graceful shutdown) closes open websockets, which
// http.Server.Shutdown does not track.
func TestStopClosesWebsockets(t *testing.T) {
	ts := startServer(t, "embedded")
	c, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.app.Stop()
	for {
		if _, err := c.next(5 * time.Second); err != nil {
			var ne interface{ Timeout() bool }
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("websocket still open 5 s after Stop")
			}
			return // closed
		}
	}
}

// Idle websockets hear from the server every heartbeat: graphql-transport-ws
// clients get pings and stay while they answer them, and are dropped about two
// intervals after they stop (or never start); graphql-ws clients get
// keep-alives.
func TestWebsocketHeartbeat(t *testing.T) {
	const beat = 100 * time.Millisecond
	ts := startApp(t, "embedded", testConfig(t, "embedded"), Options{WebsocketHeartbeat: beat})
	answering, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	silent, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	keptAlive, err := dialWS(t, ts.URL, "graphql-ws", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for pings := 0; pings < 8; {
		m, err := answering.next(5 * time.Second)
		if err != nil {
			t.Fatalf("after %d pings: %v", pings, err)
		}
		if m.Type == "ping" {
			pings++
			_ = answering.conn.WriteJSON(wsMessage{Type: "pong"})
		}
	}
	if time.Since(start) < 4*beat {
		t.Fatalf("8 pings in %v: faster than every %v", time.Since(start), beat)
	}
	answering.subscribe("1", `{ me { id } }`, nil)
	if r := answering.result("1", 5*time.Second); string(r.Data) != `{"me":null}` {
		t.Fatalf("answering client after the pings: %s %+v", r.Data, r.Errors)
	}

	// A client that does not answer is dropped: it reads the pings sent
	// before, then the end.
	dropped := func(c *wsClient, who string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; {
			m, err := c.next(time.Until(deadline))
			if isTimeout(err) || time.Now().After(deadline) {
				t.Fatalf("%s is still connected", who)
			}
			if err != nil {
				return
			}
			if m.Type != "ping" && m.Type != "complete" {
				t.Fatalf("%s got %s", who, m.Type)
			}
		}
	}
	dropped(silent, "a client that never answered pings")
	dropped(answering, "a client that stopped answering pings")

	for kas := 0; kas < 3; {
		m, err := keptAlive.next(5 * time.Second)
		if err != nil {
			t.Fatalf("graphql-ws after %d keep-alives: %v", kas, err)
		}
		if m.Type == "ka" {
			kas++
		}
	}
}
