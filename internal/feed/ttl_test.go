package feed

import (
	"context"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/blog"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Inboxes expire: a post pushed to followers who never read their feed
// creates inboxes that expire (before, they had no TTL and lived forever),
// a follow's back-fill too, and a read keeps the reader's inbox for another
// InboxTTL while a later push does not extend anyone's.
func TestInboxesExpire(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		w := newWorld(t, b, 4, 100)
		author, reader, idle, late := w.users[0], w.users[1], w.users[2], w.users[3]
		for _, f := range []int64{reader, idle} {
			if err := w.follows.Set(ctx, f, author, true); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.blogs.Create(ctx, author, blog.Input{Title: "t", Content: "c"}); err != nil {
			t.Fatal(err)
		}
		if err := w.follows.Set(ctx, late, author, true); err != nil { // back-fills late's inbox
			t.Fatal(err)
		}
		inboxTTLs := func(what string) map[int64]time.Duration {
			t.Helper()
			out := map[int64]time.Duration{}
			keys := testenv.KeyTTLs(t, b.Redis.Client, b.Redis.Prefix+"feed:{")
			for _, u := range []int64{reader, idle, late} {
				ttl, ok := keys[w.feed.inboxKey(u)]
				if !ok {
					t.Fatalf("%s: no inbox for user %d: %v", what, u, keys)
				}
				if ttl <= 0 || ttl > DefaultInboxTTL*11/10 {
					t.Fatalf("%s: inbox of user %d has TTL %v", what, u, ttl)
				}
				out[u] = ttl
			}
			return out
		}
		inboxTTLs("after a push to followers who never read")
		// Shorten every inbox's TTL, then read one and push again: only the
		// read one is kept longer.
		for _, u := range []int64{reader, idle, late} {
			b.Redis.Client.PExpire(ctx, w.feed.inboxKey(u), time.Hour)
		}
		page, err := w.feed.Read(ctx, reader, nil, nil)
		if err != nil || len(page.Edges) != 1 {
			t.Fatalf("read: %+v, %v", page, err)
		}
		if _, err := w.blogs.Create(ctx, author, blog.Input{Title: "t2", Content: "c"}); err != nil {
			t.Fatal(err)
		}
		ttls := inboxTTLs("after a read and a second push")
		if ttls[reader] <= time.Hour {
			t.Errorf("the read inbox was not kept longer: TTL %v", ttls[reader])
		}
		for _, u := range []int64{idle, late} {
			if ttls[u] > time.Hour {
				t.Errorf("a push extended the unread inbox of user %d: TTL %v", u, ttls[u])
			}
		}
	})
}
