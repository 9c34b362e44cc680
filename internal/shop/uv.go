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
// answered from memory. A count read on this instance flushes first; other
// instances see a visit at most flushEvery late.
type visits struct {
	rdb   redis.UniversalClient
	every time.Duration
	max   int
	onErr func(error)

	mu      sync.Mutex
	pending map[string]map[string]struct{}
	n       int
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	flushMu sync.Mutex // one flush at a time, so a count waits for a running one
}

func newVisits(rdb redis.UniversalClient, every time.Duration, onErr func(error)) *visits {
	v := &visits{rdb: rdb, every: every, max: 10000, onErr: onErr, pending: map[string]map[string]struct{}{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go v.loop()
	return v
}

func (v *visits) add(key, member string) {
	v.mu.Lock()
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

// UVTodayMany is UVToday of many shops in one pipeline: out[i] is ids[i]'s count.
func (s *Service) UVTodayMany(ctx context.Context, ids []int64) ([]int, error) {
	if err := s.visits.flush(ctx); err != nil {
		return nil, err
	}
	now := s.now()
	cmds := make([]*redis.IntCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.PFCount(ctx, s.uvKey(id, now))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ids))
	for i, c := range cmds {
		out[i] = int(c.Val())
	}
	return out, nil
}
