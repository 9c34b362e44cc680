package rediscache

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/lua"
)

// bloomCheck answers whether every bit of an id is set (-1: not filled).
var bloomCheck = lua.Script("bloom_check")

// Bloom is a Bloom filter over the ids that exist, in a Redis bitmap, so every
// instance shares it. It only ever gains bits (rows are not deleted), which
// lets a refill OR into the live bitmap while readers use it.
//
// Redis may lose the bitmap: until a fill has completed (the ready marker is
// set) the filter answers "maybe" for everything and starts a refill from
// the database, so a lost or half-filled bitmap never hides an existing row.
type Bloom struct {
	client redis.UniversalClient
	bits   string
	ready  string
	m      uint64 // bits
	k      int    // hashes
	all    func(ctx context.Context, add func(ids ...string) error) error
	log    *slog.Logger

	mu      sync.Mutex
	filling bool
	wg      sync.WaitGroup
}

// BloomConfig sizes a filter.
type BloomConfig struct {
	// Expected is the number of ids the filter is sized for (default 100000).
	Expected int
	// FalsePositive is the wanted false-positive rate at Expected ids (default 0.01).
	FalsePositive float64
	Log           *slog.Logger
}

// NewBloom returns the filter called name. all streams every existing id to
// add (in batches); Fill calls it at start-up and whenever the bitmap is lost.
func NewBloom(client redis.UniversalClient, prefix, name string, cfg BloomConfig,
	all func(ctx context.Context, add func(ids ...string) error) error) *Bloom {
	if cfg.Expected <= 0 {
		cfg.Expected = 100000
	}
	if cfg.FalsePositive <= 0 || cfg.FalsePositive >= 1 {
		cfg.FalsePositive = 0.01
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	n := float64(cfg.Expected)
	m := math.Ceil(-n * math.Log(cfg.FalsePositive) / (math.Ln2 * math.Ln2))
	k := max(1, int(math.Round(m/n*math.Ln2)))
	tag := prefix + "bloom:{" + name + "}"
	return &Bloom{client: client, bits: tag, ready: tag + ":ready", m: uint64(m), k: k, all: all, log: cfg.Log}
}

// Hashes is the number of bits set per id.
func (b *Bloom) Hashes() int { return b.k }

// offsets are the k bit positions of id, by double hashing (Kirsch and
// Mitzenmacher) over one 64-bit FNV-1a hash: stable across processes.
func (b *Bloom) offsets(id string) []any {
	h := fnv.New64a()
	_, _ = h.Write([]byte(id))
	sum := h.Sum64()
	h2 := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], sum)
	_, _ = h2.Write(buf[:])
	a, c := sum, h2.Sum64()|1
	out := make([]any, b.k)
	for i := range b.k {
		out[i] = (a + uint64(i)*c) % b.m
	}
	return out
}

// Add sets the bits of ids (call it after the rows are committed).
func (b *Bloom) Add(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := b.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			for _, off := range b.offsets(id) {
				p.SetBit(ctx, b.bits, int64(off.(uint64)), 1) //nolint:gosec // G115: an offset is below b.m, a bitmap size in bits (Redis caps it at 2^32)
			}
		}
		return nil
	})
	return err
}

// MightContain is false only when id certainly does not exist. Errors and an
// unfilled filter answer true (and an unfilled one starts a refill).
func (b *Bloom) MightContain(ctx context.Context, id string) (bool, error) {
	r, err := bloomCheck.Run(ctx, b.client, []string{b.bits, b.ready}, b.offsets(id)...).Int64()
	if err != nil {
		return true, err
	}
	if r < 0 {
		b.refill() //nolint:contextcheck // the refill runs in the background, past this call's context
		return true, nil
	}
	return r == 1, nil
}

// Fill adds every existing id, then marks the filter usable. The bits are
// set in a local bitmap first and ORed into Redis in one BITOP, rather than
// k SETBITs per id.
func (b *Bloom) Fill(ctx context.Context) error {
	local := make([]byte, (b.m+7)/8)
	err := b.all(ctx, func(ids ...string) error {
		for _, id := range ids {
			for _, off := range b.offsets(id) {
				o := off.(uint64)
				local[o/8] |= 0x80 >> (o % 8) // Redis numbers bits from the most significant
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	tmp := b.bits + ":fill:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := b.client.Set(ctx, tmp, local, time.Minute).Err(); err != nil {
		return err
	}
	defer b.client.Del(context.WithoutCancel(ctx), tmp)
	if err := b.client.BitOpOr(ctx, b.bits, b.bits, tmp).Err(); err != nil {
		return err
	}
	return b.client.Set(ctx, b.ready, time.Now().UTC().Format(time.RFC3339), 0).Err()
}

// refill runs one background Fill at a time.
func (b *Bloom) refill() {
	b.mu.Lock()
	if b.filling {
		b.mu.Unlock()
		return
	}
	b.filling = true
	b.wg.Add(1)
	b.mu.Unlock()
	go func() {
		defer b.wg.Done()
		defer func() {
			b.mu.Lock()
			b.filling = false
			b.mu.Unlock()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := b.Fill(ctx); err != nil {
			b.log.Warn("bloom filter refill", "key", b.bits, "err", err)
		}
	}()
}

// Wait waits for a running refill.
func (b *Bloom) Wait() { b.wg.Wait() }
