package seckill

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"

	"github.com/redis/go-redis/v9"
)

// Sale epochs keep a rebuild and the consumers' batches in agreement.
//
// A rebuild computes the sale state from MySQL and the stream. A batch a
// consumer has read but not yet committed is in neither when Redis lost the
// stream (a restart without persistence): the rebuilt state then lacks the
// batch's buyers and counts its units as unsold, and once the batch commits
// Redis would over-admit and let those buyers buy again, for as long as the
// state lives.
//
// So every rebuild first writes a new random epoch, and every batch notes
// the epoch before it is read. A batch that finds another epoch once it is
// done (committed or ended) overlapped a rebuild that may have missed it, and
// drops the state: the next attempt rebuilds it from MySQL, which now holds
// the batch. Orders admitted in the short overlap are decided by MySQL (one
// per buyer, no oversell) and any it refuses are ended visibly, as always.
//
// A rebuild missed the batch only if the stream lost entries of it: the
// stream keeps an entry until it is acknowledged after its commit, and a
// rebuild reads the stream before MySQL, so it sees each entry in one or the
// other. A batch whose every entry XACK still found pending (kept) therefore
// keeps the state. Without that, a rebuild during a consumer's 2-s blocking
// read made the next batch drop the state again, and every purchase after it
// rebuilt it once more (a storm of rebuilds, each reading all the sale's
// orders from MySQL).

// epochTTL outlives the state (stateTTL) of any sale a consumer still reads.
const epochTTL = 2 * stateTTL

// newEpoch marks the start of a rebuild of k's state.
func newEpoch(ctx context.Context, rdb redis.UniversalClient, k Keys) error {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return rdb.Set(ctx, k.Epoch, hex.EncodeToString(b[:]), epochTTL).Err()
}

// epochOf is k's current epoch, "" when none (no rebuild since the sale was
// published, or Redis lost it: either way different from any rebuild's).
func epochOf(ctx context.Context, rdb redis.UniversalClient, k Keys) (string, error) {
	e, err := rdb.Get(ctx, k.Epoch).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return e, err
}

// unknownEpoch is what a batch read without knowing the epoch carries: it
// never matches, so such a batch always drops the state when done.
const unknownEpoch = "?"

// readEpoch is the epoch a batch about to be read carries.
func (c *consumers) readEpoch(k Keys) string {
	e, err := epochOf(c.hard, c.s.rdb, k)
	if err != nil {
		return unknownEpoch
	}
	return e
}

// settleEpoch drops k's state when a rebuild ran since a batch that noted
// epoch was read and the stream did not keep the whole batch (see above).
func (c *consumers) settleEpoch(k Keys, epoch string, kept bool, log *slog.Logger) {
	if c.hard.Err() != nil {
		return // stopping: the batch, if not done, stays pending for a takeover
	}
	if kept {
		return
	}
	now, err := epochOf(c.hard, c.s.rdb, k)
	if err == nil && now == epoch {
		return
	}
	log.Warn("the sale state was rebuilt while a batch was in flight; dropping it so it is rebuilt with the batch", "err", err)
	if err := c.s.rdb.Del(c.hard, k.State, k.Buyers).Err(); err != nil {
		log.Error("cannot drop the sale state; it may admit the batch's buyers again until rebuilt", "err", err)
	}
}
