package boundedcache

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

func TestEvictsLeastRecentlyUsedByBytes(t *testing.T) {
	ctx := context.Background()
	c := New(Config[string]{MaxBytes: 1000, MaxEntryBytes: 400, Cost: func(k, v string) int { return len(k) + len(v) }})
	c.Add(ctx, "a", strings.Repeat("x", 299)) // 300
	c.Add(ctx, "b", strings.Repeat("x", 299)) // 600
	c.Add(ctx, "c", strings.Repeat("x", 299)) // 900
	if _, ok := c.Get(ctx, "a"); !ok {        // a is now the most recent
		t.Fatal("a missing")
	}
	c.Add(ctx, "d", strings.Repeat("x", 299)) // 1200 > 1000: b goes
	if _, ok := c.Get(ctx, "b"); ok {
		t.Fatal("b, the least recently used, was kept")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := c.Get(ctx, k); !ok {
			t.Fatalf("%s evicted", k)
		}
	}
	if c.Len() != 3 || c.Bytes() != 900 {
		t.Fatalf("%d entries, %d bytes; want 3, 900", c.Len(), c.Bytes())
	}
	// Replacing an entry counts it once.
	c.Add(ctx, "a", "y")
	if c.Bytes() != 602 {
		t.Fatalf("after replacing a: %d bytes, want 602", c.Bytes())
	}
}

func TestRefusesOversizedEntries(t *testing.T) {
	ctx := context.Background()
	c := New(Config[string]{MaxBytes: 1000, MaxEntryBytes: 100, Cost: func(k, v string) int { return len(k) + len(v) }})
	c.Add(ctx, "small", "v")
	c.Add(ctx, "big", strings.Repeat("x", 101))
	if _, ok := c.Get(ctx, "big"); ok {
		t.Fatal("an entry over MaxEntryBytes was kept")
	}
	if _, ok := c.Get(ctx, "small"); !ok {
		t.Fatal("an oversized entry evicted the others")
	}
	// An oversized value for a kept key drops the old one: never stale.
	c.Add(ctx, "small", strings.Repeat("x", 200))
	if _, ok := c.Get(ctx, "small"); ok || c.Bytes() != 0 {
		t.Fatalf("oversized replacement: kept %v, %d bytes", ok, c.Bytes())
	}
}

// The attack: 200 persisted queries of 900 KB, and many distinct
// documents, leave the caches within their byte bounds.
func TestGqlgenCachesStayWithinBounds(t *testing.T) {
	ctx := context.Background()
	apq, docs := PersistedQueries(), ParsedQueries()
	big := strings.Repeat(" ", 900<<10)
	for i := range 200 {
		q := fmt.Sprintf("{ shop(id: %d) { id } }%s", i, big)
		apq.Add(ctx, fmt.Sprintf("%064x", i), q)
		docs.Add(ctx, q, &ast.QueryDocument{})
	}
	if apq.Len() != 0 || docs.Len() != 0 {
		t.Fatalf("900 KB queries kept: %d persisted, %d parsed", apq.Len(), docs.Len())
	}
	medium := strings.Repeat(" ", 20<<10) // under both entry bounds
	for i := range 5000 {
		q := fmt.Sprintf("{ shop(id: %d) { id } }%s", i, medium[:len(medium)*(i%2)])
		apq.Add(ctx, fmt.Sprintf("%064x", i), q)
		docs.Add(ctx, q, &ast.QueryDocument{})
		if apq.Bytes() > PersistedMaxBytes || docs.Bytes() > ParsedMaxBytes {
			t.Fatalf("after %d: %d persisted bytes, %d parsed", i, apq.Bytes(), docs.Bytes())
		}
	}
	if apq.Len() < 100 || docs.Len() < 50 {
		t.Fatalf("the caches keep little: %d persisted, %d parsed", apq.Len(), docs.Len())
	}
	// Web-app-sized queries are kept.
	q := "query Shop($id: ID!) { shop(id: $id) { id name images area address avgPrice score sold comments } }"
	docs.Add(ctx, q, &ast.QueryDocument{})
	if _, ok := docs.Get(ctx, q); !ok {
		t.Fatal("a short query was not kept")
	}
}

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	c := New(Config[int]{MaxBytes: 10_000})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprintf("%d-%d", g, i%300)
				c.Add(ctx, k, i)
				c.Get(ctx, k)
			}
		})
	}
	wg.Wait()
	if c.Bytes() > 10_000 || c.Bytes() < 0 {
		t.Fatalf("%d bytes", c.Bytes())
	}
}
