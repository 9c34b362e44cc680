package main

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
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
	ts := startServer(t, "embedded", func(c *Config) { c.AllowedOrigins = []string{"https://app.example.com"} })
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
