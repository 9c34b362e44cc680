package shop

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/database"
)

// hotShops decides which shops are read with logical expiry: the configured
// ones plus the top N by reads over a sliding window. Logical expiry itself
// (the envelope with its expiry, serving a stale value while one background
// rebuild runs, Rewrite instead of delete) is generic and lives in
// internal/rediscache (Strategy LogicalExpiry: Service.hotShops, "shop_hot");
// this file is the shop's policy on top of it. Reads are counted in
// memory and added once per interval to a per-minute sorted set (ZINCRBY in
// one pipeline), so tracking costs one round trip per instance per interval,
// not one per read. The same tick takes the top N of the window's minutes
// (ZUNION: the minute keys share a hash tag, so one slot) and preloads the
// shops that just became hot, so their first hot read is never a miss.
type hotShops struct {
	s      *Service
	static map[int64]bool
	top    int
	window time.Duration
	every  time.Duration

	set atomic.Pointer[map[int64]bool] // static ∪ the current top N

	mu    sync.Mutex
	reads map[int64]float64 // counted since the last flush

	stop chan struct{}
	done chan struct{}
}

func newHotShops(s *Service, cfg Config) *hotShops {
	h := &hotShops{s: s, static: map[int64]bool{}, top: cfg.HotTop, window: cfg.HotWindow, every: cfg.HotEvery,
		reads: map[int64]float64{}, stop: make(chan struct{}), done: make(chan struct{})}
	if h.window <= 0 {
		h.window = 10 * time.Minute
	}
	if h.every <= 0 {
		h.every = 30 * time.Second
	}
	for _, id := range cfg.HotShops {
		h.static[id] = true
	}
	set := maps.Clone(h.static)
	h.set.Store(&set)
	return h
}

func (h *hotShops) is(id int64) bool { return (*h.set.Load())[id] }

// Hot lists the shops currently served with logical expiry, ascending.
func (s *Service) Hot() []int64 { return slices.Sorted(maps.Keys(*s.hot.set.Load())) }

// note counts one read of id (only when the top N is tracked).
func (h *hotShops) note(id int64) {
	if h.top <= 0 {
		return
	}
	h.mu.Lock()
	h.reads[id]++
	h.mu.Unlock()
}

// minuteKey is the sorted set of the reads of the minute containing t.
func (h *hotShops) minuteKey(t time.Time) string {
	return h.s.prefix + "{shop:reads}:" + strconv.FormatInt(t.Unix()/60, 10)
}

// start preloads the hot shops and starts the tick. The configured shops must
// load: serving them by mutex instead would silently break their promise.
func (h *hotShops) start(ctx context.Context) error {
	if err := h.recompute(ctx); err != nil {
		h.s.log.Warn("hot shops: top reads", "err", err)
	}
	for id := range *h.set.Load() {
		if err := h.promote(ctx, id); err != nil {
			if h.static[id] {
				return fmt.Errorf("preload hot shop %d: %w", id, err)
			}
			h.s.log.Warn("hot shops: preload", "shop", id, "err", err)
		}
	}
	go h.loop() //nolint:gosec,contextcheck // the tick outlives Start: it runs until Close
	return nil
}

func (h *hotShops) loop() {
	defer close(h.done)
	t := time.NewTicker(h.every)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
			h.Tick(context.Background())
		}
	}
}

func (h *hotShops) close() {
	close(h.stop)
	<-h.done
}

// Tick flushes the read counts, recomputes the top N and preloads the shops
// that became hot (run every HotEvery; exported through Service for tests).
func (h *hotShops) Tick(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, h.every)
	defer cancel()
	if err := h.flush(ctx); err != nil {
		h.s.log.Warn("hot shops: flush reads", "err", err)
	}
	before := *h.set.Load()
	if err := h.recompute(ctx); err != nil {
		h.s.log.Warn("hot shops: top reads", "err", err)
		return
	}
	for id := range *h.set.Load() {
		if !before[id] {
			if err := h.promote(ctx, id); err != nil {
				h.s.log.Warn("hot shops: preload", "shop", id, "err", err)
			}
		}
	}
}

// HotTick runs one tick of the hot-shop job now (for tests).
func (s *Service) HotTick(ctx context.Context) { s.hot.Tick(ctx) }

func (h *hotShops) flush(ctx context.Context) error {
	h.mu.Lock()
	reads := h.reads
	h.reads = map[int64]float64{}
	h.mu.Unlock()
	if len(reads) == 0 {
		return nil
	}
	key := h.minuteKey(h.s.now())
	_, err := h.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for id, n := range reads {
			p.ZIncrBy(ctx, key, n, strconv.FormatInt(id, 10))
		}
		p.Expire(ctx, key, h.window+time.Minute)
		return nil
	})
	return err
}

// recompute sets the hot set to the configured shops plus the top N of the
// window's minutes.
func (h *hotShops) recompute(ctx context.Context) error {
	if h.top <= 0 {
		return nil
	}
	now := h.s.now()
	var keys []string
	for t := now.Add(-h.window + time.Minute); !t.After(now); t = t.Add(time.Minute) {
		keys = append(keys, h.minuteKey(t))
	}
	zs, err := h.s.rdb.ZUnionWithScores(ctx, redis.ZStore{Keys: keys}).Result()
	if err != nil {
		return err
	}
	// Highest first; ties by id so every instance picks the same set.
	slices.SortFunc(zs, func(a, b redis.Z) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		ai, _ := strconv.ParseInt(fmt.Sprint(a.Member), 10, 64)
		bi, _ := strconv.ParseInt(fmt.Sprint(b.Member), 10, 64)
		return int(ai - bi)
	})
	set := maps.Clone(h.static)
	for _, z := range zs[:min(h.top, len(zs))] {
		if id, err := strconv.ParseInt(fmt.Sprint(z.Member), 10, 64); err == nil {
			set[id] = true
		}
	}
	h.set.Store(&set)
	return nil
}

// promote writes id's hot entry unless it is already there.
func (h *hotShops) promote(ctx context.Context, id int64) error {
	n, err := h.s.rdb.Exists(ctx, h.s.hotShops.Key(id)).Result()
	if err != nil || n > 0 {
		return err
	}
	return h.s.hotShops.Rewrite(ctx, id, false)
}

// loadShopPrimary loads a hot shop from the primary: its entry is rewritten
// after every change and must not be rewritten from a lagging replica.
func (s *Service) loadShopPrimary(ctx context.Context, id int64) (*ent.Shop, bool, error) {
	sh, err := s.db.Shop.Get(database.PrimaryOnly(ctx), id)
	if ent.IsNotFound(err) {
		return nil, false, nil
	}
	return sh, err == nil, err
}

// refreshHot rewrites id's hot entry after a change: always when id is hot
// here, otherwise only if an entry exists (another instance may hold it hot).
func (s *Service) refreshHot(ctx context.Context, id int64) error {
	return s.hotShops.Rewrite(ctx, id, !s.hot.is(id))
}
