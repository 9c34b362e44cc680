package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/edge"
)

// expectSessionEnded reads c until its subscription id ends with
// SUBSCRIPTION_CLOSED / session_ended and the socket closes with 4403, all
// within limit.
func expectSessionEnded(t *testing.T, c *wsClient, id string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	told := false
	for {
		m, err := c.next(time.Until(deadline))
		if err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("want close 4403 within %v (told: %v), got %v", limit, told, err)
			}
			if ce.Code != edge.CloseSessionEnded {
				t.Fatalf("closed with %d %q, want %d", ce.Code, ce.Text, edge.CloseSessionEnded)
			}
			if !told {
				t.Fatal("closed without telling the subscription why it ended")
			}
			return
		}
		switch m.Type {
		case "ping":
			_ = c.conn.WriteJSON(wsMessage{Type: "pong"})
		case "error":
			if m.ID != id {
				t.Fatalf("error for %q: %s", m.ID, m.Payload)
			}
			var errs []gqlError
			_ = json.Unmarshal(m.Payload, &errs)
			if len(errs) != 1 || errs[0].Extensions["code"] != "SUBSCRIPTION_CLOSED" || errs[0].Extensions["reason"] != "session_ended" {
				t.Fatalf("subscription ended with %s", m.Payload)
			}
			told = true
		case "next", "data", "complete":
			t.Fatalf("unexpected %s: %s", m.Type, m.Payload)
		}
	}
}

// Logging out over HTTP ends an open subscription of the same session within
// a second, on the instance that served the logout and on another one.
func TestLogoutEndsWebsocketSessions(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		a, b := twoInstances(t, backend)
		tok := a.login("13800000031")
		other := a.login("13800000032") // another user's socket stays open
		var sockets []*wsClient
		for i, s := range []*testServer{a, b} {
			protocol := []string{"graphql-transport-ws", "graphql-ws"}[i]
			c, err := dialWS(t, s.URL, protocol, map[string]any{"authorization": "Bearer " + tok}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.subscribe("feed", feedItemsSubscription, nil)
			s.waitSubscriptions("feedItems", 1)
			sockets = append(sockets, c)
		}
		bystander, err := dialWS(t, b.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + other}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bystander.subscribe("feed", feedItemsSubscription, nil)
		b.waitSubscriptions("feedItems", 2)

		var out struct{ Logout bool }
		a.ok(tok, `mutation { logout }`, nil, &out)
		if !out.Logout {
			t.Fatal("logout = false")
		}
		for _, c := range sockets {
			expectSessionEnded(t, c, "feed", time.Second)
		}
		b.waitSubscriptions("feedItems", 1) // the bystander's
		// The bystander's socket still answers as its user.
		bystander.subscribe("me", `{ me { id } }`, nil)
		if r := bystander.result("me", 5*time.Second); len(r.Errors) > 0 || !json.Valid(r.Data) || string(r.Data) == `{"me":null}` {
			t.Fatalf("bystander: %+v %s", r.Errors, r.Data)
		}
	})
}

// A mutation sent on a socket after its session ended gets UNAUTHENTICATED or
// a closed socket, never a result.
func TestWebsocketMutationAfterLogout(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		tok := ts.login("13800000033")
		c, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + tok}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ts.ok(tok, `mutation { logout }`, nil, nil)
		p, _ := json.Marshal(map[string]any{"query": `mutation { signIn { days } }`})
		if err := c.conn.WriteJSON(wsMessage{ID: "m", Type: "subscribe", Payload: p}); err != nil {
			return // already closed
		}
		for {
			m, err := c.next(5 * time.Second)
			if err != nil {
				var ce *websocket.CloseError
				if errors.As(err, &ce) && ce.Code == edge.CloseSessionEnded {
					return
				}
				t.Fatalf("want UNAUTHENTICATED or close 4403, got %v", err)
			}
			if m.Type != "next" {
				continue
			}
			var r gqlResponse
			_ = json.Unmarshal(m.Payload, &r)
			if r.code() != "UNAUTHENTICATED" {
				t.Fatalf("mutation after logout answered %s", m.Payload)
			}
			return
		}
	})
}

// A session that ends closes the socket that holds it: one whose session key
// is gone (as after expiry) at the next look, one that holds nothing when the
// session expires; a socket that holds a subscription keeps its session
// alive (it slides).
func TestWebsocketSessionExpiry(t *testing.T) {
	t.Parallel()
	// Long enough that a login and its dial finish within it on a loaded
	// machine (at 900 ms, and at 3 s with the three logins before the
	// dials, a dial under CI load found its session gone).
	const ttl = 5 * time.Second
	ts := startServer(t, "embedded", func(c *config.Config) { c.SessionTTL = ttl; c.SessionCacheTTL = 0 })
	dial := func(tok string, subscribe bool) *wsClient {
		c, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + tok}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if subscribe {
			c.subscribe("feed", feedItemsSubscription, nil)
		}
		return c
	}
	// Each socket dials right after its login.
	gone := ts.login("13800000034")
	goneSocket := dial(gone, true)
	quiet := ts.login("13800000036")
	quietSocket := dial(quiet, false)
	busy := ts.login("13800000035")
	dial(busy, true)
	ts.waitSubscriptions("feedItems", 2)

	sum := sha256.Sum256([]byte(gone))
	key := ts.app.cfg.RedisPrefix + "login:session:" + hex.EncodeToString(sum[:])
	if n := ts.redis().Del(t.Context(), key).Val(); n != 1 {
		t.Fatalf("session key %s not found", key)
	}
	expectSessionEnded(t, goneSocket, "feed", 2*time.Second)

	// The quiet socket's session expires on its own: closed with 4403.
	quietSocket.conn.SetPongHandler(nil)
	_, err := quietSocket.next(ttl + 2*time.Second)
	for err == nil {
		_, err = quietSocket.next(ttl + 2*time.Second)
	}
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != edge.CloseSessionEnded {
		t.Fatalf("quiet socket: want close 4403, got %v", err)
	}

	// Three lifetimes later the busy socket's session still lives.
	time.Sleep(3 * ttl)
	var me struct{ Me *struct{ ID string } }
	ts.ok(busy, `{ me { id } }`, nil, &me)
	if me.Me == nil {
		t.Fatal("the session of a socket holding a subscription expired")
	}
}
