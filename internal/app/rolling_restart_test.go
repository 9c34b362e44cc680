package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/testenv"
)

// A rolling restart during a flash sale: three instances of the real
// binary, 300 buyers each subscribed to orderUpdates through a generic
// graphql-transport-ws client (gorilla/websocket) and each buying once while
// the instances are stopped with SIGTERM and started again, one at a time.
// Every socket an instance ends first carries its subscription's
// SUBSCRIPTION_CLOSED (reason shutdown; a subscribe read during the shutdown
// gets it too), unless it closed while its subscribe may still have been on
// its way (subscribingWindow), then closes with a code clients retry on
// (1012, or 1001), never 1000 or 4500; the client reconnects to
// another instance, subscribes again and, as docs/API.md says events missed
// while disconnected are not replayed, reads its order with order(id) (again
// each second while it reads PENDING); and, as the web app does after a
// purchase, it reads an order still PENDING after 4, 8, 16 and 32 s.
// At the end every subscriber is connected and knows its order's final
// state (UNPAID: persisted), every acknowledged order is in MySQL once and no
// unit is sold twice. Real back ends only (the instances share them).
func TestRollingRestartKeepsSubscribers(t *testing.T) {
	if testenv.RealMySQLDSN() == "" || testenv.RealRedisAddr() == "" {
		t.Skip("needs HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR: three server processes share them")
	}
	bin := buildServer(t)
	ctx := context.Background()
	cfg := sharedConfig(t, testenv.Real)
	ts := startSaleServer(t, testenv.Real, cfg, fastSeckill)
	const stock, buyers = 250, 300
	v := ts.createSale(stock, time.Now().Add(-time.Second), time.Now().Add(time.Hour))
	tokens := ts.users(buyers)
	ts.app.seckill.Stop(ctx) // only the three processes persist
	env := processEnv(cfg, "HMDP_ORDER_CLAIM_IDLE=1s", "HMDP_RATE_LIMITS=off",
		"HMDP_WS_MAX_SOCKETS_PER_ADDRESS=100000", "HMDP_SHUTDOWN_GRACE=10s")

	cl := &rollingCluster{procs: make([]*serverProcess, 3)}
	for i := range cl.procs {
		cl.procs[i] = startProcess(t, bin, env)
	}
	subs := make([]*rollingSub, buyers)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var subscribed atomic.Int64
	end := sync.OnceFunc(func() {
		close(done)
		wg.Wait()
	})
	t.Cleanup(end) // also when the test fails early: before the processes are killed
	for i := range subs {
		s := &rollingSub{i: i, token: tokens[i], statuses: map[string]string{}}
		subs[i] = s
		wg.Go(func() { s.run(cl, done, &subscribed) })
	}
	testenv.Eventually(t, 60*time.Second, "300 subscribers connected", func() bool { return subscribed.Load() >= buyers })

	// The purchases spread over about 6 s, while the instances restart.
	var buying sync.WaitGroup
	start := time.Now()
	for i, s := range subs {
		buying.Go(func() {
			time.Sleep(time.Until(start.Add(time.Duration(i) * 20 * time.Millisecond)))
			s.buy(cl, v)
		})
	}
	restarts := 0
	for k := range cl.procs {
		// Two seconds apart: every socket has then lived longer than
		// subscribingWindow when its instance stops.
		time.Sleep(2 * time.Second)
		p := cl.stop(k)
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("instance %d exited with %v on SIGTERM", k, err)
		}
		cl.put(k, startProcess(t, bin, env))
		restarts++
	}
	buying.Wait()

	// Every buyer knows its order's final state: from an event, or from the
	// read after a reconnect.
	acked := map[string]*rollingSub{}
	for _, s := range subs {
		if id := s.order(); id != "" {
			acked[id] = s
		}
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		unknown := map[string]string{} // order id -> last status known
		for id, s := range acked {
			if st := s.status(id); st != "UNPAID" {
				unknown[id] = st
			}
		}
		if len(unknown) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d buyers do not know their order is UNPAID (order: last status known): %v", len(unknown), len(acked), unknown)
		}
	}
	var rows int
	if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id = ?", v).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	for id := range acked {
		var n int
		if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM tb_voucher_order WHERE id = ? AND status = 1", id).Scan(&n); err != nil || n != 1 {
			t.Errorf("acknowledged order %s: %d UNPAID rows (%v)", id, n, err)
		}
	}
	var mysqlStock int
	if err := ts.app.db.SQL.QueryRowContext(ctx, "SELECT stock FROM tb_seckill_voucher WHERE voucher_id = ?", v).Scan(&mysqlStock); err != nil {
		t.Fatal(err)
	}
	if rows > stock || mysqlStock != stock-rows {
		t.Errorf("%d orders, MySQL stock %d, of %d units", rows, mysqlStock, stock)
	}
	end()
	for _, s := range subs {
		s.bg.Wait()
	}

	var closes, goodbyes, whileSubscribing, reconnects, viaEvent, viaRead int
	var ages, noGoodbye []time.Duration
	bad := map[string]int{}
	for _, s := range subs {
		s.mu.Lock()
		closes += len(s.closes)
		goodbyes += s.goodbyes
		reconnects += s.connects - 1
		viaEvent += s.viaEvent
		viaRead += s.viaRead
		for _, c := range s.closes {
			switch {
			case c.code != edge.CloseServiceRestart && c.code != websocket.CloseGoingAway, !c.goodbye && !c.subscribing:
				bad[fmt.Sprintf("code %d, goodbye first %v", c.code, c.goodbye)]++
			case !c.goodbye:
				whileSubscribing++
			}
			ages = append(ages, c.age)
			if !c.goodbye {
				noGoodbye = append(noGoodbye, c.age.Round(time.Millisecond))
			}
		}
		for _, e := range s.errs {
			bad[e]++
		}
		if s.connects != len(s.closes)+1 {
			bad[fmt.Sprintf("%d connections for %d closes", s.connects, len(s.closes))]++
		}
		s.mu.Unlock()
	}
	slices.Sort(ages)
	if len(ages) > 0 {
		slices.Sort(noGoodbye)
		t.Logf("sockets' age at their close (from the subscribe): least %v, median %v, most %v; of those closed with no goodbye: %v",
			ages[0], ages[len(ages)/2], ages[len(ages)-1], noGoodbye[:min(len(noGoodbye), 20)])
	}
	if len(bad) > 0 {
		t.Errorf("subscribers' sockets ended badly: %v", bad)
	}
	if closes == 0 || reconnects < closes {
		t.Errorf("%d sockets closed by the restarts, %d reconnections", closes, reconnects)
	}
	t.Logf("%d restarts: %d sockets closed (%d with the shutdown error first, %d while subscribing), %d reconnections; %d orders acknowledged, %d in MySQL; final state from an event %d, from the read after reconnecting %d",
		restarts, closes, goodbyes, whileSubscribing, reconnects, len(acked), rows, viaEvent, viaRead)
	fmt.Printf("ROLLING RESTART restarts=%d closed=%d goodbye_first=%d while_subscribing=%d reconnects=%d acked=%d orders=%d final_by_event=%d final_by_read=%d\n",
		restarts, closes, goodbyes, whileSubscribing, reconnects, len(acked), rows, viaEvent, viaRead)
}

// rollingCluster is the instances' addresses as the clients see them: a
// stopping instance is taken out before its SIGTERM, as a load balancer would.
type rollingCluster struct {
	mu    sync.Mutex
	procs []*serverProcess // nil while restarting
}

func (c *rollingCluster) stop(k int) *serverProcess {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.procs[k]
	c.procs[k] = nil
	return p
}

func (c *rollingCluster) put(k int, p *serverProcess) {
	c.mu.Lock()
	c.procs[k] = p
	c.mu.Unlock()
}

// url is a live instance's, the n-th one counting from any.
func (c *rollingCluster) url(n int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.procs {
		if p := c.procs[(n+i)%len(c.procs)]; p != nil {
			return p.url
		}
	}
	return ""
}

// rollingSub is one buyer: a graphql-transport-ws client that reconnects
// when its socket ends, and its purchase.
type rollingSub struct {
	i     int
	token string
	bg    sync.WaitGroup // its reads after reconnecting

	mu       sync.Mutex
	orderID  string
	statuses map[string]string // order id -> last status known
	closes   []rollingClose
	goodbyes int
	connects int
	viaEvent int // final state first known from an event
	viaRead  int // ... from the read after (re)subscribing
	errs     []string
}

type rollingClose struct {
	code    int
	goodbye bool // SUBSCRIPTION_CLOSED (shutdown) came first
	// subscribing: the socket closed within subscribingWindow of its
	// subscribe, with no goodbye: the server may not have read the
	// subscribe yet (it closes the sockets about 10 ms after it ends their
	// subscriptions), so it had no subscription to say goodbye to; the 1012
	// alone tells the client to reconnect.
	subscribing bool
	age         time.Duration // from the subscribe to the close
}

// subscribingWindow bounds how long a subscribe can have been on its way,
// unread, when its socket closes: Stop closes the sockets about 10 ms after it
// ends their subscriptions (a subscribe read meanwhile is ended with the same
// goodbye), so this is a loaded machine's delays in reading it and in the
// close reaching the client. A socket subscribed longer ago that closes with
// no goodbye is a fault.
const subscribingWindow = time.Second

func (s *rollingSub) order() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.orderID
}

func (s *rollingSub) status(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statuses[id]
}

// learn records a status of the buyer's order.
func (s *rollingSub) learn(id, status string, event bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.statuses[id] == "UNPAID" {
		return
	}
	s.statuses[id] = status
	if status == "UNPAID" {
		if event {
			s.viaEvent++
		} else {
			s.viaRead++
		}
	}
}

func (s *rollingSub) fail(e string) {
	s.mu.Lock()
	s.errs = append(s.errs, e)
	s.mu.Unlock()
}

// run keeps the buyer subscribed until done: each socket to the next live
// instance, re-subscribing and re-reading its order after each reconnect.
func (s *rollingSub) run(cl *rollingCluster, done <-chan struct{}, subscribed *atomic.Int64) {
	first := true
	for n := s.i; ; n++ {
		select {
		case <-done:
			return
		default:
		}
		url := cl.url(n)
		conn, err := s.connect(url)
		if err != nil {
			time.Sleep(100 * time.Millisecond) // an instance starting or stopping
			continue
		}
		s.mu.Lock()
		s.connects++
		s.mu.Unlock()
		if first {
			subscribed.Add(1)
			first = false
		}
		closed := make(chan struct{})
		go func() {
			select {
			case <-done:
				_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
				_ = conn.Close()
			case <-closed:
			}
		}()
		if id := s.order(); id != "" {
			s.bg.Go(func() {
				// After the subscription is in place: what changed while
				// disconnected is read, not replayed. An order read PENDING is
				// read again every second until it is not, on a live
				// instance, in case its persisted event went out between the
				// reconnect and the subscription.
				time.Sleep(500 * time.Millisecond)
				for k := range 30 {
					st := readOrderStatus(cl.url(n+k), s.token, id)
					if st != "" {
						s.learn(id, st, false)
					}
					if known := s.status(id); known != "" && known != "PENDING" {
						return
					}
					time.Sleep(time.Second)
				}
			})
		}
		s.read(conn, done, time.Now())
		close(closed)
	}
}

// connect dials url, initialises with the buyer's token and subscribes.
func (s *rollingSub) connect(url string) (*websocket.Conn, error) {
	if url == "" {
		return nil, errors.New("no instance")
	}
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second}
	conn, res, err := d.Dial("ws"+strings.TrimPrefix(url, "http")+"/graphql", nil)
	if res != nil {
		_ = res.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	init, _ := json.Marshal(map[string]any{"authorization": "Bearer " + s.token})
	sub, _ := json.Marshal(map[string]any{"query": orderUpdatesSubscription})
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := conn.WriteJSON(wsMessage{Type: "connection_init", Payload: init}); err != nil {
		_ = conn.Close()
		return nil, err
	}
	for {
		var m wsMessage
		if err := conn.ReadJSON(&m); err != nil {
			_ = conn.Close()
			return nil, err
		}
		if m.Type == "connection_ack" {
			break
		}
	}
	_ = conn.SetReadDeadline(time.Time{})
	if err := conn.WriteJSON(wsMessage{ID: "o", Type: "subscribe", Payload: sub}); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return conn, nil
}

// read handles the socket's messages until it ends, recording how;
// subscribed is when its subscribe was sent.
func (s *rollingSub) read(conn *websocket.Conn, done <-chan struct{}, subscribed time.Time) {
	goodbye := false
	for {
		var m wsMessage
		err := conn.ReadJSON(&m)
		if err != nil {
			select {
			case <-done:
				return // the test closed it
			default:
			}
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				s.mu.Lock()
				age := time.Since(subscribed)
				s.closes = append(s.closes, rollingClose{code: ce.Code, goodbye: goodbye, age: age,
					subscribing: !goodbye && age < subscribingWindow})
				if goodbye {
					s.goodbyes++
				}
				s.mu.Unlock()
			} else {
				s.fail("socket ended without a close frame")
			}
			return
		}
		switch m.Type {
		case "ping":
			_ = conn.WriteJSON(wsMessage{Type: "pong"})
		case "next":
			var r struct {
				Data struct{ OrderUpdates orderEvent }
			}
			if json.Unmarshal(m.Payload, &r) == nil && r.Data.OrderUpdates.ID != "" {
				s.learn(r.Data.OrderUpdates.ID, r.Data.OrderUpdates.Status, true)
			}
		case "error":
			var errs []gqlError
			_ = json.Unmarshal(m.Payload, &errs)
			if len(errs) > 0 && errs[0].Extensions["code"] == "SUBSCRIPTION_CLOSED" && errs[0].Extensions["reason"] == "shutdown" {
				goodbye = true
			} else {
				s.fail("error " + string(m.Payload))
			}
		case "complete":
			s.fail("subscription completed")
		}
	}
}

// buy tries the purchase on the live instances until it gets a final answer.
func (s *rollingSub) buy(cl *rollingCluster, v int64) {
	body, _ := json.Marshal(map[string]any{"query": seckillMutation, "variables": map[string]any{"v": strconv.FormatInt(v, 10)}})
	for n := s.i; n < s.i+200; n++ {
		url := cl.url(n)
		r, err := postGraphQL(url, s.token, body)
		if err != nil {
			time.Sleep(100 * time.Millisecond) // the instance stopped under the request
			continue
		}
		switch r.code() {
		case "":
			var d struct{ SeckillVoucher struct{ OrderID string } }
			if json.Unmarshal(r.Data, &d) == nil && d.SeckillVoucher.OrderID != "" {
				s.mu.Lock()
				s.orderID = d.SeckillVoucher.OrderID
				s.mu.Unlock()
				s.learn(d.SeckillVoucher.OrderID, "PENDING", false)
				s.bg.Go(func() { s.pollPending(cl, d.SeckillVoucher.OrderID) })
			}
			return
		case "OUT_OF_STOCK", "ALREADY_ORDERED":
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.fail("no final answer to the purchase")
}

// pollPending reads an order acknowledged PENDING after 4, 8, 16 and 32 s
// while it is still PENDING, as the web app's shop page does after a
// purchase: its persisted event may have gone out while the buyer's socket
// was between instances, before the new subscription was in place, and after
// the read that followed the reconnect.
func (s *rollingSub) pollPending(cl *rollingCluster, id string) {
	for delay := 4 * time.Second; delay <= 32*time.Second; delay *= 2 {
		time.Sleep(delay)
		if s.status(id) != "PENDING" {
			return
		}
		if st := readOrderStatus(cl.url(s.i), s.token, id); st != "" {
			s.learn(id, st, false)
		}
	}
}

// readOrderStatus is order(id)'s status ("" when it cannot be read).
func readOrderStatus(url, token, id string) string {
	body, _ := json.Marshal(map[string]any{"query": orderRejectQuery, "variables": map[string]any{"id": id}})
	r, err := postGraphQL(url, token, body)
	if err != nil || r.code() != "" {
		return ""
	}
	var d struct{ Order *struct{ Status string } }
	if json.Unmarshal(r.Data, &d) != nil || d.Order == nil {
		return ""
	}
	return d.Order.Status
}

func postGraphQL(url, token string, body []byte) (gqlResponse, error) {
	var out gqlResponse
	if url == "" {
		return out, errors.New("no instance")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return out, err
	}
	defer res.Body.Close()
	err = json.NewDecoder(res.Body).Decode(&out)
	return out, err
}
