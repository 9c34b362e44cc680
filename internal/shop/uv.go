package shop

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// uvKeyTTL keeps yesterday's count readable for a day, then lets it go.
const uvKeyTTL = 48 * time.Hour

// uvKey is the HyperLogLog of a shop's visitors on the day of t (in t's
// location: s.now gives HMDP_TIME_ZONE's).
func (s *Service) uvKey(id int64, t time.Time) string {
	return s.prefix + "uv:shop:" + strconv.FormatInt(id, 10) + ":" + t.Format("20060102")
}

// Visitor is who read a shop, for its count of distinct visitors today: the
// user when logged in (UserID > 0), otherwise the client's address.
type Visitor struct {
	UserID  int64
	Address string
}

func (v Visitor) member() string {
	if v.UserID > 0 {
		return "u:" + strconv.FormatInt(v.UserID, 10)
	}
	return "ip:" + v.Address
}

// visits buffers visitors in the process and writes them with one PFADD per
// key every flushEvery (or when many are waiting), so a cached shop read
// needs no Redis round trip of its own: with the near cache, shop(id) is
// answered from memory.
//
// Counts are read the same way: a key's count read from Redis (after a
// flush) answers for flushEvery, plus the visitors this instance has seen
// for the first time since, so that a visitor's own visit shows at once and
// a hot shop's page costs Redis one PFCOUNT per flushEvery per instance, not
// one per view. A visitor new here but counted already on another instance
// today is counted twice until the next read (at most flushEvery); other
// instances' visitors show at most two flushEvery late.
type visits struct {
	rdb   redis.UniversalClient
	every time.Duration
	max   int
	onErr func(error)

	mu      sync.Mutex
	pending map[string]map[string]struct{}
	n       int
	// counted: each key's count as last read; seen: the visitors this
	// instance has had per key, at most maxSeen in all (then both start
	// over: every key is read from Redis again).
	counted map[string]*uvCount
	seen    map[string]map[string]struct{}
	nSeen   int
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	flushMu sync.Mutex // one flush at a time, so a count waits for a running one
}

// uvCount is a key's count as read from Redis at at, when firstSeen (the
// visitors first seen here, counted up) was base.
type uvCount struct {
	n               int
	at              time.Time
	firstSeen, base int
}

// maxSeen bounds the visitors remembered for counts (about 5 MB).
const maxSeen = 100_000

func newVisits(rdb redis.UniversalClient, every time.Duration, onErr func(error)) *visits {
	v := &visits{rdb: rdb, every: every, max: 10000, onErr: onErr, pending: map[string]map[string]struct{}{},
		counted: map[string]*uvCount{}, seen: map[string]map[string]struct{}{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go v.loop()
	return v
}

func (v *visits) add(key, member string) {
	v.mu.Lock()
	v.see(key, member)
	m := v.pending[key]
	if m == nil {
		m = map[string]struct{}{}
		v.pending[key] = m
	}
	if _, seen := m[member]; !seen {
		m[member] = struct{}{}
		v.n++
	}
	full := v.n >= v.max
	v.mu.Unlock()
	if full {
		select {
		case v.kick <- struct{}{}:
		default:
		}
	}
}

// see notes member's visit of key for the counts; v.mu is held.
func (v *visits) see(key, member string) {
	m := v.seen[key]
	if _, ok := m[member]; ok {
		return
	}
	if v.nSeen >= maxSeen {
		v.seen, v.counted, v.nSeen = map[string]map[string]struct{}{}, map[string]*uvCount{}, 0
		m = nil
	}
	if m == nil {
		m = map[string]struct{}{}
		v.seen[key] = m
	}
	m[member] = struct{}{}
	v.nSeen++
	if c := v.counted[key]; c != nil {
		c.firstSeen++
	}
}

// counts answers each key's count: from memory when read from Redis less
// than v.every ago, otherwise from Redis after a flush.
func (v *visits) counts(ctx context.Context, keys []string) ([]int, error) {
	out := make([]int, len(keys))
	var stale []int
	var entries []*uvCount
	var bases []int
	now := time.Now()
	v.mu.Lock()
	for i, k := range keys {
		c := v.counted[k]
		if c != nil && now.Sub(c.at) < v.every {
			out[i] = c.n + c.firstSeen - c.base
			continue
		}
		if c == nil {
			c = &uvCount{}
			v.counted[k] = c
		}
		// Visitors first seen from here on may be flushed too late for
		// the count read below: they stay counted on top of it.
		stale, entries, bases = append(stale, i), append(entries, c), append(bases, c.firstSeen)
	}
	v.mu.Unlock()
	if len(stale) == 0 {
		return out, nil
	}
	if err := v.flush(ctx); err != nil {
		return nil, err
	}
	cmds := make([]*redis.IntCmd, len(stale))
	_, err := v.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for j, i := range stale {
			cmds[j] = p.PFCount(ctx, keys[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for j, i := range stale {
		c := entries[j]
		if bases[j] >= c.base { // not older than a read that ended first
			c.n, c.at, c.base = int(cmds[j].Val()), now, bases[j]
		}
		out[i] = int(cmds[j].Val()) + c.firstSeen - bases[j]
	}
	return out, nil
}

func (v *visits) loop() {
	defer close(v.done)
	t := time.NewTicker(v.every)
	defer t.Stop()
	for {
		select {
		case <-v.stop:
			v.flushAndReport()
			return
		case <-t.C:
		case <-v.kick:
		}
		v.flushAndReport()
	}
}

func (v *visits) flushAndReport() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := v.flush(ctx); err != nil {
		v.onErr(err)
	}
}

// flush writes what is pending; on failure the visits are kept for the next try.
func (v *visits) flush(ctx context.Context) error {
	v.flushMu.Lock()
	defer v.flushMu.Unlock()
	v.mu.Lock()
	batch := v.pending
	if len(batch) == 0 {
		v.mu.Unlock()
		return nil
	}
	v.pending, v.n = map[string]map[string]struct{}{}, 0
	v.mu.Unlock()
	_, err := v.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for key, members := range batch {
			args := make([]any, 0, len(members))
			for m := range members {
				args = append(args, m)
			}
			p.PFAdd(ctx, key, args...)
			p.Expire(ctx, key, uvKeyTTL)
		}
		return nil
	})
	if err != nil {
		for key, members := range batch {
			for m := range members {
				v.add(key, m)
			}
		}
	}
	return err
}

func (v *visits) close() {
	close(v.stop)
	<-v.done
}

func (s *Service) countVisit(id int64, v Visitor) {
	s.visits.add(s.uvKey(id, s.now()), v.member())
}

// UVToday is the number of distinct visitors of shop id today (HyperLogLog:
// exact for small counts, within about 0.81% for large ones).
func (s *Service) UVToday(ctx context.Context, id int64) (int, error) {
	ns, err := s.UVTodayMany(ctx, []int64{id})
	if err != nil {
		return 0, err
	}
	return ns[0], nil
}

// UVTodayMany is UVToday of many shops: out[i] is ids[i]'s count, at most
// one pipeline to Redis (none when every count was read within the flush
// interval: see visits).
func (s *Service) UVTodayMany(ctx context.Context, ids []int64) ([]int, error) {
	now := s.now()
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.uvKey(id, now)
	}
	return s.visits.counts(ctx, keys)
}
