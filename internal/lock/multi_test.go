package lock

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/testenv"
)

// cluster is three independent Redis servers: the test back end plus two
// redis-server processes, each behind its own client and Locker.
type cluster struct {
	clients []redis.UniversalClient
	nodes   []*Locker
	extra   []*redisServer
	prefix  string
}

func newCluster(t *testing.T, b testenv.RedisBackend) *cluster {
	t.Helper()
	c := &cluster{prefix: b.Prefix}
	c.add(t, b.Client)
	for range 2 {
		s := startRedis(t)
		c.extra = append(c.extra, s)
		c.add(t, nodeClient(t, s.addr, nil))
	}
	return c
}

func (c *cluster) add(t *testing.T, cl redis.UniversalClient) {
	t.Helper()
	c.clients = append(c.clients, cl)
	c.nodes = append(c.nodes, newLocker(t, cl, c.prefix))
}

// replace swaps node i for a client to addr.
func (c *cluster) replace(t *testing.T, i int, cl redis.UniversalClient) {
	t.Helper()
	c.clients[i] = cl
	c.nodes[i] = newLocker(t, cl, c.prefix)
}

// locked lists which nodes hold the lock name (nil entries for nodes that
// cannot be asked).
func (c *cluster) locked(t *testing.T, name string, upTo int) []bool {
	t.Helper()
	out := make([]bool, upTo)
	for i := range upTo {
		out[i] = c.clients[i].Exists(context.Background(), c.nodes[i].keys(name).lock).Val() == 1
	}
	return out
}

func allFalse(bs []bool) bool {
	for _, b := range bs {
		if b {
			return false
		}
	}
	return true
}

func TestMultiAllNodesUp(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		c := newCluster(t, b)
		m := NewMulti(c.nodes)
		h := must[*Hold](t)(m.TryLock(bg, "all", 0, time.Minute))
		if got := c.locked(t, "all", 3); !got[0] || !got[1] || !got[2] {
			t.Fatalf("locked on %v, want every node", got)
		}
		_, err := m.TryLock(bg, "all", 300*time.Millisecond, time.Minute)
		mustNotAcquired(t, err)
		if err := h.Unlock(bg); err != nil {
			t.Fatal(err)
		}
		if got := c.locked(t, "all", 3); !allFalse(got) {
			t.Fatalf("unlock left %v", got)
		}
		h = must[*Hold](t)(m.TryLock(bg, "all", 0, time.Minute))
		if err := h.Unlock(bg); err != nil {
			t.Fatal(err)
		}
	})
}

// When one node already has the lock (another owner), MultiLock fails and
// takes back what it got on the others.
func TestMultiReleasesPartialAcquisition(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		c := newCluster(t, b)
		foreign := must[*Hold](t)(c.nodes[1].Simple("part").TryLock(bg, 0, time.Minute))
		defer func() { _ = foreign.Unlock(bg) }()

		_, err := NewMulti(c.nodes).TryLock(bg, "part", 300*time.Millisecond, time.Minute)
		mustNotAcquired(t, err)
		if got := c.locked(t, "part", 3); got[0] || !got[1] || got[2] {
			t.Fatalf("locked on %v, want only the foreign lock on node 1", got)
		}
		// Redlock gets a majority (nodes 0 and 2) despite node 1.
		h := must[*Hold](t)(NewRedlock(c.nodes).TryLock(bg, "part", 0, time.Minute))
		if err := h.Unlock(bg); err != nil {
			t.Fatal(err)
		}
		if got := c.locked(t, "part", 3); got[0] || !got[1] || got[2] {
			t.Fatalf("redlock unlock touched the foreign lock: %v", got)
		}
	})
}

// A stopped node makes MultiLock fail fast and clean; Redlock still gets 2 of 3.
func TestMultiWithNodeDown(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		c := newCluster(t, b)
		c.extra[1].stop()
		checkFailover(t, c, "down")
	})
}

// A node that accepts connections but never answers must cost one node
// timeout, not the client's read timeout (a minute here, and go-redis ignores
// context deadlines on this client): the 10 s hang guard would catch it.
func TestMultiWithHungNode(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		c := newCluster(t, b)
		c.replace(t, 2, nodeClient(t, blackhole(t), func(o *redis.Options) {
			o.ReadTimeout, o.WriteTimeout, o.DialTimeout = time.Minute, time.Minute, time.Minute
			o.MaxRetries = -1
		}))
		checkFailover(t, c, "hung")
	})
}

// checkFailover runs MultiLock and Redlock with node 2 unusable.
func checkFailover(t *testing.T, c *cluster, name string) {
	t.Helper()
	bg := context.Background()
	res := make(chan error, 1)
	go func() {
		_, err := NewMulti(c.nodes).TryLock(bg, name, time.Second, time.Minute)
		res <- err
	}()
	mustNotAcquired(t, within(t, 10*time.Second, "multi lock with a bad node", res))
	if got := c.locked(t, name, 2); !allFalse(got) {
		t.Fatalf("failed multi lock left %v behind on the good nodes", got)
	}

	held := make(chan *Hold, 1)
	go func() {
		h, err := NewRedlock(c.nodes).TryLock(bg, name, time.Second, time.Minute)
		if err != nil {
			t.Error(err)
		}
		held <- h
	}()
	h := within(t, 10*time.Second, "redlock with a bad node", held)
	if h == nil {
		t.FailNow()
	}
	if got := c.locked(t, name, 2); !got[0] || !got[1] {
		t.Fatalf("redlock holds %v, want both good nodes", got)
	}
	if err := h.Unlock(bg); err != nil {
		t.Fatalf("unlock with 2 of 3 nodes: %v", err)
	}
	if got := c.locked(t, name, 2); !allFalse(got) {
		t.Fatalf("unlock left %v", got)
	}
}

// Redlock needs a majority: two foreign locks out of three defeat it.
func TestRedlockNeedsMajority(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		bg := context.Background()
		c := newCluster(t, b)
		for _, i := range []int{0, 1} {
			h := must[*Hold](t)(c.nodes[i].Simple("maj").TryLock(bg, 0, time.Minute))
			defer func() { _ = h.Unlock(bg) }()
		}
		_, err := NewRedlock(c.nodes).TryLock(bg, "maj", 300*time.Millisecond, time.Minute)
		mustNotAcquired(t, err)
		if c.locked(t, "maj", 3)[2] {
			t.Fatal("failed redlock left its lock on node 2")
		}
	})
}
