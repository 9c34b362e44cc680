package app

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/testenv"
)

// serveWithTimeouts serves ts's handler on an http.Server configured as Run
// configures it, with cfg's timeouts.
func serveWithTimeouts(t *testing.T, ts *testServer, cfg config.Config) string {
	t.Helper()
	hs := httptest.NewUnstartedServer(ts.app.Handler())
	hs.Config = newHTTPServer(ts.app.Handler(), cfg)
	hs.Start()
	t.Cleanup(hs.Close)
	return hs.URL
}

// The server's read and write timeouts bound requests, not websockets: a
// socket lives on past them (both subprotocols), while a request that
// trickles in slower than the read timeout is cut.
func TestServerTimeoutsSpareWebsockets(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		cfg := ts.app.cfg
		cfg.ReadTimeout, cfg.WriteTimeout = time.Second, time.Second
		url := serveWithTimeouts(t, ts, cfg)
		token := ts.login("13400000071")
		clients := map[string]*wsClient{}
		for _, protocol := range []string{"graphql-transport-ws", "graphql-ws"} {
			c, err := dialWS(t, url, protocol, map[string]any{"authorization": "Bearer " + token}, nil)
			if err != nil {
				t.Fatal(err)
			}
			clients[protocol] = c
		}
		time.Sleep(2500 * time.Millisecond) // past both timeouts
		for protocol, c := range clients {
			c.subscribe("1", `{ me { nickName } }`, nil)
			if r := c.result("1", 5*time.Second); len(r.Errors) > 0 || string(r.Data) == `{"me":null}` {
				t.Fatalf("%s after the timeouts: %s %+v", protocol, r.Data, r.Errors)
			}
		}

		// A request whose body is slower than the read timeout is cut.
		conn, err := new(net.Dialer).DialContext(t.Context(), "tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, _ = io.WriteString(conn, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		_, err = io.ReadAll(conn)
		if err != nil || time.Since(start) > 4*time.Second {
			t.Fatalf("a slow body was not cut by the read timeout: %v after %v", err, time.Since(start))
		}
	})
}

// A 5 MB upload goes through with the default timeouts.
func TestUploadWithinDefaultTimeouts(t *testing.T) {
	ts := startServer(t, "embedded")
	ts.URL = serveWithTimeouts(t, ts, ts.app.cfg)
	token := ts.login("13400000072")
	img := append(pngBytes(t), make([]byte, 5<<20-len(pngBytes(t))-1024)...)
	r := ts.upload(token, img, true)
	var up struct{ UploadImage string }
	if len(r.Errors) > 0 || json.Unmarshal(r.Data, &up) != nil || up.UploadImage == "" {
		t.Fatalf("5 MB upload: %d %+v", r.Status, r.Errors)
	}
}

// At most HMDP_WS_MAX_OPERATIONS run at once on a socket (one more is
// refused with TOO_MANY_OPERATIONS until one completes), and a user holds at
// most HMDP_WS_MAX_SOCKETS_PER_USER logged-in sockets (one more is closed with 4429).
func TestWebsocketCaps(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend, func(c *config.Config) { c.WSMaxOperations, c.WSMaxSocketsPerUser = 2, 2 })
		token := ts.login("13400000073")
		auth := map[string]any{"authorization": "Bearer " + token}
		c1, err := dialWS(t, ts.URL, "graphql-transport-ws", auth, nil)
		if err != nil {
			t.Fatal(err)
		}
		c2, err := dialWS(t, ts.URL, "graphql-ws", auth, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = dialWS(t, ts.URL, "graphql-transport-ws", auth, nil)
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != edge.CloseTooManySockets || !strings.Contains(ce.Text, "at most 2") {
			t.Fatalf("third socket of the user: want close %d, got %v", edge.CloseTooManySockets, err)
		}
		// Anonymous sockets and other users are not counted against the user.
		if _, err := dialWS(t, ts.URL, "graphql-transport-ws", nil, nil); err != nil {
			t.Fatalf("anonymous socket: %v", err)
		}
		// A closed socket frees its place.
		_ = c2.conn.Close()
		testenv.Eventually(t, 5*time.Second, "a place after closing a socket", func() bool {
			_, err := dialWS(t, ts.URL, "graphql-transport-ws", auth, nil)
			return err == nil
		})

		// Operations on one socket.
		c1.subscribe("a", `subscription { feedItems { id } }`, nil)
		c1.subscribe("b", `subscription { orderUpdates { id } }`, nil)
		// gqlgen starts each operation on a goroutine of its own: give both
		// subscriptions the time to start, then a third operation is refused.
		time.Sleep(300 * time.Millisecond)
		refused := c1.result(c1.send(`{ me { nickName } }`), 5*time.Second)
		if refused.code() != "TOO_MANY_OPERATIONS" || !strings.Contains(refused.Errors[0].Message, "at most 2") {
			t.Fatalf("third operation: %+v", refused.Errors)
		}
		if err := c1.conn.WriteJSON(wsMessage{ID: "a", Type: "complete"}); err != nil {
			t.Fatal(err)
		}
		testenv.Eventually(t, 5*time.Second, "a place after completing an operation", func() bool {
			return len(c1.result(c1.send(`{ me { nickName } }`), 5*time.Second).Errors) == 0
		})
	})
}

// send starts an operation under a new id and returns the id.
func (c *wsClient) send(query string) string {
	c.t.Helper()
	c.seq++
	id := "op" + strconv.Itoa(c.seq)
	c.subscribe(id, query, nil)
	return id
}
