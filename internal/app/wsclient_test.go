package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// wsClient is a GraphQL websocket client speaking graphql-transport-ws or the
// older graphql-ws subprotocol, as browsers' client libraries do.
type wsClient struct {
	t        *testing.T
	conn     *websocket.Conn
	protocol string
	seq      int // ids of send
}

type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// dialWS connects and sends connection_init with payload; it returns the
// client after connection_ack, or the error the server closed with.
func dialWS(t *testing.T, serverURL, protocol string, payload map[string]any, header http.Header) (*wsClient, error) {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{protocol}, HandshakeTimeout: 5 * time.Second}
	url := "ws" + strings.TrimPrefix(serverURL, "http") + "/graphql"
	conn, res, err := d.Dial(url, header)
	if res != nil {
		_ = res.Body.Close() // the handshake response, already read by the dialer
	}
	if err != nil {
		return nil, err
	}
	c := &wsClient{t: t, conn: conn, protocol: protocol}
	t.Cleanup(func() { _ = conn.Close() })
	p, _ := json.Marshal(payload)
	if err := conn.WriteJSON(wsMessage{Type: "connection_init", Payload: p}); err != nil {
		return nil, err
	}
	for {
		m, err := c.next(5 * time.Second)
		if err != nil {
			return nil, err
		}
		switch m.Type {
		case "connection_ack":
			// Nothing of the init payload (the token) is sent back.
			if len(m.Payload) > 0 && string(m.Payload) != "null" {
				t.Errorf("connection_ack carries a payload: %s", m.Payload)
			}
			return c, nil
		case "ka", "ping", "pong":
			continue
		case "connection_error":
			// graphql-ws reports the error, then the server closes.
			if _, err := c.next(5 * time.Second); err != nil {
				return nil, err
			}
			return nil, &websocket.CloseError{Text: string(m.Payload)}
		default:
			t.Fatalf("unexpected %s before ack", m.Type)
		}
	}
}

func (c *wsClient) next(timeout time.Duration) (wsMessage, error) {
	_ = c.conn.SetReadDeadline(time.Now().Add(timeout))
	var m wsMessage
	err := c.conn.ReadJSON(&m)
	return m, err
}

// subscribe starts operation id.
func (c *wsClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	typ := "subscribe"
	if c.protocol == "graphql-ws" {
		typ = "start"
	}
	p, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err := c.conn.WriteJSON(wsMessage{ID: id, Type: typ, Payload: p}); err != nil {
		c.t.Fatal(err)
	}
}

// result waits for the next data message of id, answering pings and skipping keep-alives.
func (c *wsClient) result(id string, timeout time.Duration) gqlResponse {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		m, err := c.next(time.Until(deadline))
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", id, err)
		}
		switch m.Type {
		case "ping":
			_ = c.conn.WriteJSON(wsMessage{Type: "pong"})
		case "next", "data":
			if m.ID == id {
				var r gqlResponse
				if err := json.Unmarshal(m.Payload, &r); err != nil {
					c.t.Fatal(err)
				}
				return r
			}
		case "error":
			var errs []gqlError
			_ = json.Unmarshal(m.Payload, &errs)
			return gqlResponse{Errors: errs}
		}
	}
}
