// Package idgen makes globally unique 64-bit ids (全局唯一ID) for orders:
//
//	0 | 31 bits: seconds since Epoch | 32 bits: sequence of the UTC day
//
// The sequence comes from one Redis counter per name and day, shared by every
// server instance, so ids are unique across instances and restarts. Each
// instance takes a segment of SegmentSize numbers with one INCRBY and hands
// them out locally, so most ids cost no round trip. A segment belongs to the
// day it was taken on: at midnight the rest of it is dropped, because the next
// day's counter starts again at 1 and the same second could otherwise be
// paired with the same number twice.
//
// Ids of one instance grow with time; across instances they are only roughly
// ordered (each instance draws from its own segment).
package idgen

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Epoch is second 0 of the timestamp part (2022-01-01 UTC, as in the original
// project); 31 bits of seconds last until 2090.
var Epoch = time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)

// DefaultSegment is how many sequence numbers one INCRBY reserves.
const DefaultSegment = 1000

// maxSeq is the largest sequence that fits the low 32 bits.
const maxSeq = 1<<32 - 1

// Generator hands out ids for one name (e.g. "order"). Safe for concurrent use.
type Generator struct {
	rdb     redis.UniversalClient
	prefix  string
	name    string
	segment int64
	// Now is the clock (tests move it).
	Now func() time.Time

	mu   sync.Mutex
	day  string // UTC day of the current segment
	next int64  // next sequence number to hand out
	end  int64  // last sequence number of the segment (inclusive)
}

// New returns a generator whose counters are prefix+"icr:"+name+":"+day.
// segment <= 0 means DefaultSegment.
func New(rdb redis.UniversalClient, prefix, name string, segment int64) *Generator {
	if segment <= 0 {
		segment = DefaultSegment
	}
	return &Generator{rdb: rdb, prefix: prefix, name: name, segment: segment, Now: time.Now}
}

// Key is the Redis counter of a UTC day ("2026:11:22").
func (g *Generator) Key(day string) string { return g.prefix + "icr:" + g.name + ":" + day }

// Next returns a new id.
func (g *Generator) Next(ctx context.Context) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.Now().UTC()
	secs := now.Unix() - Epoch.Unix()
	if secs < 0 || secs >= 1<<31 {
		return 0, fmt.Errorf("idgen: clock %s outside the id range", now)
	}
	day := now.Format("2006:01:02")
	if day != g.day || g.next > g.end {
		// The counter outlives its day by one, then goes (it is never read again).
		var incr *redis.IntCmd
		_, err := g.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			incr = p.IncrBy(ctx, g.Key(day), g.segment)
			p.Expire(ctx, g.Key(day), 48*time.Hour)
			return nil
		})
		end := incr.Val()
		if err != nil {
			return 0, fmt.Errorf("idgen %s: %w", g.name, err)
		}
		if end > maxSeq {
			return 0, fmt.Errorf("idgen %s: daily sequence exhausted", g.name)
		}
		g.day, g.next, g.end = day, end-g.segment+1, end
	}
	seq := g.next
	g.next++
	return secs<<32 | seq, nil
}

// Time returns the second an id was made in.
func Time(id int64) time.Time { return Epoch.Add(time.Duration(id>>32) * time.Second) }
