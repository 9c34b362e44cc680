package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/feed"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/pubsub"
)

// twoInstances starts two servers on one database and one Redis.
func twoInstances(t *testing.T, backend string) (*testServer, *testServer) {
	t.Helper()
	cfg := testConfig(t, backend)
	cfg.RateLimits = false
	return twoInstancesWith(t, backend, cfg)
}

// activeSubscriptions reads hmdp_subscriptions_active{kind} from the server's registry.
func (ts *testServer) activeSubscriptions(kind string) float64 {
	mfs, err := ts.app.registry.Gather()
	if err != nil {
		ts.t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "hmdp_subscriptions_active" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "kind" && l.GetValue() == kind {
					return m.GetGauge().GetValue()
				}
			}
		}
	}
	return 0
}

func (ts *testServer) waitSubscriptions(kind string, n float64) {
	ts.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for ts.activeSubscriptions(kind) != n {
		if time.Now().After(deadline) {
			ts.t.Fatalf("%v active %s subscriptions, want %v", ts.activeSubscriptions(kind), kind, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const feedItemsSubscription = `subscription { feedItems { id title author { id } } }`

// nextBlog reads the next feed item's id, skipping keep-alives; "" and an
// error when none arrives in time (a timeout is how "nothing" is observed).
func (c *wsClient) nextBlog(timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for {
		m, err := c.next(time.Until(deadline))
		if err != nil {
			return "", err
		}
		switch m.Type {
		case "ka", "pong":
		case "ping":
			_ = c.conn.WriteJSON(wsMessage{Type: "pong"})
		case "next", "data":
			var r struct {
				Data struct {
					FeedItems struct{ ID string }
				}
				Errors []gqlError
			}
			if err := json.Unmarshal(m.Payload, &r); err != nil {
				return "", fmt.Errorf("bad event %s: %w", m.Payload, err)
			}
			if len(r.Errors) > 0 {
				return "", fmt.Errorf("bad event %s", m.Payload)
			}
			return r.Data.FeedItems.ID, nil
		default:
			return "", fmt.Errorf("unexpected %s %s", m.Type, m.Payload)
		}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// 100 followers each hold one subscription on each of two instances (one per
// websocket subprotocol): 200 subscribers. A new blog reaches each exactly
// once; non-followers get nothing; following and unfollowing while
// subscribed count for later posts; no goroutine is left once clients leave.
func TestFeedItemsAcrossInstances(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		a, b := twoInstances(t, backend)
		author := a.login("13800000000")
		authorID := a.userID(author)
		const nFollowers, nOthers = 100, 10
		var followers, others []string
		for i := range nFollowers {
			tok := a.login(fmt.Sprintf("1380001%04d", i))
			must(gqlclient.SetFollow(t.Context(), a.gql(tok), authorID, true))(t)
			followers = append(followers, tok)
		}
		for i := range nOthers {
			others = append(others, b.login(fmt.Sprintf("1380002%04d", i)))
		}
		ts := []*testServer{a, b}
		protocols := []string{"graphql-transport-ws", "graphql-ws"}

		// The brokers' one Redis subscription per instance lives as long as
		// the instance: start it before taking the goroutine snapshot.
		for i, s := range ts {
			c, err := dialWS(t, s.URL, protocols[i], map[string]any{"authorization": "Bearer " + author}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.subscribe("warm", feedItemsSubscription, nil)
			s.waitSubscriptions("feedItems", 1)
			_ = c.conn.Close()
			s.waitSubscriptions("feedItems", 0)
		}
		http.DefaultClient.CloseIdleConnections()
		before := goleak.IgnoreCurrent()

		type sub struct {
			c    *wsClient
			user int // index into followers (or -1-index into others)
		}
		var subs []sub
		for i, tok := range followers {
			for k, s := range ts {
				c, err := dialWS(t, s.URL, protocols[k], map[string]any{"authorization": "Bearer " + tok}, nil)
				if err != nil {
					t.Fatal(err)
				}
				c.subscribe("1", feedItemsSubscription, nil)
				subs = append(subs, sub{c, i})
			}
		}
		for i, tok := range others {
			c, err := dialWS(t, ts[i%2].URL, protocols[i%2], map[string]any{"authorization": "Bearer " + tok}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.subscribe("1", feedItemsSubscription, nil)
			subs = append(subs, sub{c, -1 - i})
		}
		a.waitSubscriptions("feedItems", nFollowers+nOthers/2)
		b.waitSubscriptions("feedItems", nFollowers+nOthers/2)

		first := must(gqlclient.CreateBlog(t.Context(), a.gql(author), gqlclient.CreateBlogInput{Title: "one", Content: "c"}))(t).CreateBlog

		// Every follower subscription gets blog one.
		errs := make(chan error, len(subs))
		var wg sync.WaitGroup
		for _, s := range subs {
			if s.user < 0 {
				continue
			}
			wg.Go(func() {
				id, err := s.c.nextBlog(15 * time.Second)
				if err == nil && id != first.Id {
					err = fmt.Errorf("got blog %s, want %s", id, first.Id)
				}
				errs <- err
			})
		}
		wg.Wait()

		// Follower 0 unfollows and outsider 0 follows while subscribed.
		must(gqlclient.SetFollow(t.Context(), a.gql(followers[0]), authorID, false))(t)
		must(gqlclient.SetFollow(t.Context(), b.gql(others[0]), authorID, true))(t)
		second := must(gqlclient.CreateBlog(t.Context(), b.gql(author), gqlclient.CreateBlogInput{Title: "two", Content: "c"}))(t).CreateBlog

		// The next item of every follower is blog two (so blog one came
		// once), then nothing more; the unfollower and the other outsiders
		// get nothing at all; the new follower gets blog two.
		for _, s := range subs {
			wg.Go(func() {
				wantSecond := (s.user > 0) || s.user == -1
				if wantSecond {
					id, err := s.c.nextBlog(15 * time.Second)
					if err != nil {
						errs <- fmt.Errorf("user %d: want blog two %s: %w", s.user, second.Id, err)
						return
					}
					if id != second.Id {
						errs <- fmt.Errorf("user %d: got %q, want blog two %s", s.user, id, second.Id)
						return
					}
				}
				id, err := s.c.nextBlog(500 * time.Millisecond)
				switch {
				case err == nil:
					errs <- fmt.Errorf("user %d: unexpected %q", s.user, id)
				case !isTimeout(err):
					errs <- fmt.Errorf("user %d: unexpected %q: %w", s.user, id, err)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}

		for _, s := range subs {
			_ = s.c.conn.Close()
		}
		a.waitSubscriptions("feedItems", 0)
		b.waitSubscriptions("feedItems", 0)
		http.DefaultClient.CloseIdleConnections()
		// Pooled connections have goroutines (MySQL's watcher, the embedded
		// Redis's per-client server side): pools grow under load, which is
		// not a subscription leak. The instances' flash-sale consumers keep
		// an XREADGROUP BLOCK waiting in the embedded Redis all the time.
		if err := goleak.Find(before,
			goleak.IgnoreTopFunction("github.com/go-sql-driver/mysql.(*mysqlConn).startWatcher.func1"),
			goleak.IgnoreAnyFunction("github.com/alicebob/miniredis/v2/server.(*Server).servePeer"),
			goleak.IgnoreAnyFunction("github.com/alicebob/miniredis/v2/server.(*Server).servePeer.func2"),
			goleak.IgnoreAnyFunction("github.com/alicebob/miniredis/v2/server.(*Server).ServeConn.func1"),
			goleak.IgnoreAnyFunction("github.com/alicebob/miniredis/v2.blocking.func2"),
			goleak.IgnoreTopFunction("github.com/alicebob/miniredis/v2.setCondTimer"),
		); err != nil {
			t.Fatalf("goroutines left after the clients left: %v", err)
		}
	})
}

// A subscriber that stops reading is dropped once its buffer is full, and the
// client is told why (an error message, not a silent complete); the instance
// keeps serving.
func TestSlowSubscriberIsClosedWithReason(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		tok := ts.login("13800000001")
		uid := atoi(ts.userID(tok))
		c, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{"authorization": "Bearer " + tok}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.subscribe("1", `subscription { feedItems { id content } }`, nil)
		ts.waitSubscriptions("feedItems", 1)

		// 3 000 events of 2 KB while the client reads nothing: more than the
		// socket buffers hold, so the server's writes stall and the broker's
		// per-subscriber buffer overflows.
		payload, _ := json.Marshal(ent.Blog{ID: 1, UserID: uid, Title: "t", Content: strings.Repeat("x", 2000), CreateTime: time.Now()})
		msgs := make([]pubsub.Message, 3000)
		for i := range msgs {
			msgs[i] = pubsub.Message{Topic: feed.Topic(uid), Payload: payload}
		}
		if err := ts.app.broker.PublishMany(context.Background(), msgs, 500); err != nil {
			t.Fatal(err)
		}
		ts.waitSubscriptions("feedItems", 0)

		events := 0
		for {
			m, err := c.next(10 * time.Second)
			if err != nil {
				t.Fatalf("after %d events: %v", events, err)
			}
			if m.Type == "next" {
				events++
				continue
			}
			if m.Type != "error" {
				t.Fatalf("after %d events: %s %s", events, m.Type, m.Payload)
			}
			var errs []gqlError
			_ = json.Unmarshal(m.Payload, &errs)
			if len(errs) != 1 || errs[0].Extensions["code"] != "SUBSCRIPTION_CLOSED" || errs[0].Extensions["reason"] != "slow_consumer" {
				t.Fatalf("error %s", m.Payload)
			}
			break
		}
		if events >= len(msgs) {
			t.Fatalf("all %d events delivered: nothing was dropped", events)
		}
		must(gqlclient.Me(t.Context(), ts.gql(tok)))(t) // the instance is fine
	})
}

// App.Stop ends open subscriptions (their goroutines and Redis interest go).
func TestStopEndsSubscriptions(t *testing.T) {
	ts := startServer(t, "embedded")
	tok := ts.login("13800000001")
	c, err := dialWS(t, ts.URL, "graphql-ws", map[string]any{"authorization": "Bearer " + tok}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.subscribe("1", feedItemsSubscription, nil)
	ts.waitSubscriptions("feedItems", 1)
	ts.app.Stop()
	ts.waitSubscriptions("feedItems", 0)
	for {
		m, err := c.next(5 * time.Second)
		if err != nil {
			if isTimeout(err) {
				t.Fatal("connection still open after Stop")
			}
			return // closed
		}
		if m.Type == "complete" {
			return
		}
	}
}

// feedItems needs a logged-in viewer.
func TestFeedItemsNeedsLogin(t *testing.T) {
	ts := startServer(t, "embedded")
	c, err := dialWS(t, ts.URL, "graphql-transport-ws", map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.subscribe("1", feedItemsSubscription, nil)
	r := c.result("1", 5*time.Second)
	if r.code() != "UNAUTHENTICATED" {
		t.Fatalf("anonymous subscription: %+v", r)
	}
	if n := ts.activeSubscriptions("feedItems"); n != 0 {
		t.Fatalf("%v active", n)
	}
}
