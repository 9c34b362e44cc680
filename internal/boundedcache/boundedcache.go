// Package boundedcache is a least-recently-used cache bounded by the bytes
// its entries take, not by their number, for gqlgen's caches (the parsed
// documents and the persisted queries): their keys and values are whole
// query strings, which a client chooses, so a bound on entries alone lets a
// few hundred large queries take hundreds of megabytes.
//
// Each entry's cost is given by a function of its key and value; an entry
// costing more than MaxEntryBytes is not kept at all (it is then parsed, or
// asked for, again), and the least recently used entries make room for new
// ones so that the total never exceeds MaxBytes.
package boundedcache

import (
	"container/list"
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// Config sets up a Cache.
type Config[T any] struct {
	// MaxBytes bounds the sum of the entries' costs.
	MaxBytes int
	// MaxEntryBytes: an entry costing more is not kept (default MaxBytes/16).
	MaxEntryBytes int
	// Cost is what keeping value under key takes, in bytes, roughly; the
	// default is len(key) + Overhead.
	Cost func(key string, value T) int
}

// Overhead is the cost of an entry besides its key and value: the list
// element, the map slot and the entry itself, rounded up.
const Overhead = 128

// Cache is a byte-bounded LRU cache, safe for concurrent use.
type Cache[T any] struct {
	cfg Config[T]

	mu    sync.Mutex
	bytes int
	order *list.List // of *entry[T], most recently used first
	m     map[string]*list.Element
}

type entry[T any] struct {
	key   string
	value T
	cost  int
}

var _ graphql.Cache[string] = (*Cache[string])(nil)

// New returns an empty cache for cfg; it panics on a MaxBytes below 1.
func New[T any](cfg Config[T]) *Cache[T] {
	if cfg.MaxBytes <= 0 {
		panic("boundedcache: MaxBytes must be positive")
	}
	if cfg.MaxEntryBytes <= 0 {
		cfg.MaxEntryBytes = max(cfg.MaxBytes/16, 1)
	}
	cfg.MaxEntryBytes = min(cfg.MaxEntryBytes, cfg.MaxBytes)
	if cfg.Cost == nil {
		cfg.Cost = func(key string, _ T) int { return len(key) + Overhead }
	}
	return &Cache[T]{cfg: cfg, order: list.New(), m: map[string]*list.Element{}}
}

// Get looks up key, making it the most recently used.
func (c *Cache[T]) Get(_ context.Context, key string) (value T, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[key]
	if !ok {
		return value, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[T]).value, true
}

// Add keeps value under key, unless it costs more than MaxEntryBytes, and
// evicts the least recently used entries until the total fits in MaxBytes.
func (c *Cache[T]) Add(_ context.Context, key string, value T) {
	cost := c.cfg.Cost(key, value)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[key]; ok {
		c.remove(el)
	}
	if cost > c.cfg.MaxEntryBytes {
		return
	}
	for c.bytes+cost > c.cfg.MaxBytes {
		c.remove(c.order.Back())
	}
	c.m[key] = c.order.PushFront(&entry[T]{key: key, value: value, cost: cost})
	c.bytes += cost
}

func (c *Cache[T]) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry[T])
	delete(c.m, e.key)
	c.bytes -= e.cost
}

// Len is the number of entries kept.
func (c *Cache[T]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Bytes is the sum of the entries' costs.
func (c *Cache[T]) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
