package image

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hmdp/hmdp/ent"
	entblog "github.com/hmdp/hmdp/ent/blog"
	entimage "github.com/hmdp/hmdp/ent/image"
	"github.com/hmdp/hmdp/ent/predicate"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/outbox"
)

// Images nothing shows any more are removed, record and file: deleteBlog
// hands its blog's images to Release (an outbox row in the delete's
// transaction, run after commit and retried until it succeeds), a profile
// that changes its icon releases the old one, and the sweep removes uploads
// never attached to a blog or profile within the sweep age.
//
// An image is removed only while its hmdp_image row is locked and only when
// no blog and no profile shows it; writers that start showing an image lock
// the same row in their transaction (Claim), so a blog or profile being
// written never ends up showing a removed image.

// kindRemove is the outbox kind whose handler removes released images.
const kindRemove = "image.remove"

// DefaultSweepAge is how long an upload may wait to be attached.
const DefaultSweepAge = 24 * time.Hour

// sweepBatch bounds the rows one sweep transaction locks.
const sweepBatch = 100

// Collector removes the images of a Store that nothing shows any more.
type Collector struct {
	store *Store
	age   time.Duration
	log   *slog.Logger
	now   func() time.Time

	outbox *outbox.Outbox
	stop   context.CancelFunc
	wg     sync.WaitGroup
}

// CollectorConfig configures a Collector; zero values take the defaults.
type CollectorConfig struct {
	// SweepAge is how long an upload may stay unattached (default DefaultSweepAge).
	SweepAge time.Duration
	// OutboxInterval is how often failed removals are retried (default 1 s).
	OutboxInterval time.Duration
	Log            *slog.Logger
}

// NewCollector returns the collector of s, which must have a DB; Start runs
// its retries and sweeps.
func NewCollector(s *Store, cfg CollectorConfig) *Collector {
	if cfg.SweepAge <= 0 {
		cfg.SweepAge = DefaultSweepAge
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	c := &Collector{store: s, age: cfg.SweepAge, log: cfg.Log, now: time.Now}
	c.outbox = outbox.New(s.DB, outbox.Config{Interval: cfg.OutboxInterval, Log: cfg.Log})
	c.outbox.Handle(kindRemove, func(ctx context.Context, arg string) error {
		_, err := c.removeUnused(ctx, entimage.IDIn(strings.Split(arg, ",")...))
		return err
	})
	return c
}

// Start retries pending removals and sweeps every sweep age / 4 (at most
// hourly) until Close.
func (c *Collector) Start() {
	c.outbox.Start()
	ctx, cancel := context.WithCancel(context.Background())
	c.stop = cancel
	every := min(c.age/4, time.Hour)
	c.wg.Go(func() {
		if n, err := c.FillSizes(ctx); err != nil && ctx.Err() == nil {
			c.log.Warn("image sizes of older uploads not recorded; the upload quota counts them as 0 bytes", "recorded", n, "err", err)
		}
		if n, err := c.FillVariants(ctx); err != nil && ctx.Err() == nil {
			c.log.Warn("variants of older uploads not made; they are served as uploaded", "made", n, "err", err)
		} else if n > 0 {
			c.log.Info("variants of older uploads made", "images", n)
		}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if n, err := c.Sweep(ctx); err != nil && ctx.Err() == nil {
				c.log.Warn("image sweep", "removed", n, "err", err)
			} else if n > 0 {
				c.log.Info("image sweep", "removed", n)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
}

// Close stops Start's work and waits for it.
func (c *Collector) Close() {
	if c.stop != nil {
		c.stop()
	}
	c.wg.Wait()
	c.outbox.Close()
}

// Outbox is the outbox of pending removals (for tests).
func (c *Collector) Outbox() *outbox.Outbox { return c.outbox }

// Claim is CheckOwner inside tx, the transaction that makes a blog or
// profile show paths: it locks the images' rows, so the collector cannot
// remove them before tx commits, and marks them attached, so the sweep
// leaves them alone.
func (c *Collector) Claim(ctx context.Context, tx *ent.Tx, userID int64, field string, many bool, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if err := checkOwner(ctx, tx.Image.Query().Where(database.ForUpdate), userID, field, many, paths); err != nil {
		return err
	}
	return tx.Image.Update().Where(entimage.IDIn(paths...), entimage.Attached(false)).SetAttached(true).Exec(ctx)
}

// Release records, in tx, that paths may no longer be shown by what tx
// changes (a deleted blog, a replaced icon): after commit, run the returned
// function; the images that nothing else shows are then removed, and a
// failed removal is retried by the outbox. Paths that are not upload
// paths are ignored.
func (c *Collector) Release(ctx context.Context, tx *ent.Tx, paths []string) (after func(context.Context), err error) {
	ours := slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return !isUploadPath(p) })
	if len(ours) == 0 {
		return func(context.Context) {}, nil
	}
	row, err := c.outbox.Record(ctx, tx, kindRemove, strings.Join(ours, ","))
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) {
		if err := c.outbox.Run(ctx, row); err != nil {
			c.log.Warn("image removal failed; the outbox retries it", "images", ours, "err", err)
		}
	}, nil
}

// FillSizes records the size (the image and its variants) of the uploads
// stored before sizes were recorded (size 0: no image is empty), so the
// upload quota counts them, and returns how many it recorded. A row whose
// file is missing is left to the sweep and the removals.
func (c *Collector) FillSizes(ctx context.Context) (int, error) {
	n := 0
	for {
		ids, err := c.store.DB.Image.Query().Where(entimage.Size(0)).Order(ent.Asc(entimage.FieldID)).
			Limit(sweepBatch).IDs(ctx)
		if err != nil {
			return n, err
		}
		progress := false
		for _, id := range ids {
			if !isUploadPath(id) {
				continue
			}
			size, err := c.store.storedBytes(ctx, id)
			if err != nil {
				return n, err
			}
			if size == 0 {
				continue
			}
			if err := c.store.DB.Image.Update().Where(entimage.ID(id), entimage.Size(0)).SetSize(size).Exec(ctx); err != nil {
				return n, err
			}
			n++
			progress = true
		}
		if len(ids) < sweepBatch || !progress {
			return n, nil
		}
	}
}

// FillVariants makes the variants of the uploads stored before variants
// were made (those without a 240 px WebP), one at a time and through the
// same encoder slots as uploads, records their new sizes, and returns how
// many it made. An upload that no longer passes the checks (it does not
// decode, or is past MaxPixels) is left as it is and served as uploaded.
// Instances starting together may both make an upload's variants: the
// results are the same bytes under the same names.
func (c *Collector) FillVariants(ctx context.Context) (int, error) {
	n := 0
	after := ""
	for {
		ids, err := c.store.DB.Image.Query().Where(entimage.IDGT(after)).Order(ent.Asc(entimage.FieldID)).
			Limit(sweepBatch).IDs(ctx)
		if err != nil {
			return n, err
		}
		for _, id := range ids {
			after = id
			made, err := c.store.fillVariants(ctx, id)
			if err != nil {
				return n, err
			}
			if !made {
				continue
			}
			size, err := c.store.storedBytes(ctx, id)
			if err != nil {
				return n, err
			}
			if err := c.store.DB.Image.UpdateOneID(id).SetSize(size).Exec(ctx); err != nil && !ent.IsNotFound(err) {
				return n, err
			}
			n++
		}
		if len(ids) < sweepBatch {
			return n, nil
		}
	}
}

// Sweep removes the uploads older than the sweep age that were never
// attached and that nothing shows, and returns how many it removed. An old
// unattached upload that something does show (a blog written before uploads
// were tracked) is marked attached instead.
func (c *Collector) Sweep(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := c.removeUnused(ctx, entimage.Attached(false), entimage.CreateTimeLT(c.now().Add(-c.age)))
		total += n.removed
		if err != nil || n.seen < sweepBatch {
			return total, err
		}
	}
}

type removal struct{ seen, removed int }

// removeUnused locks up to sweepBatch hmdp_image rows matching where,
// removes the files (variants too) and rows of those no blog or profile shows, marks the
// others attached, and commits. Files go before the commit: a failed commit
// leaves a row without a file, which the next pass removes, rather than a
// file nothing records.
func (c *Collector) removeUnused(ctx context.Context, where ...predicate.Image) (removal, error) {
	var n removal
	var gone []string
	err := database.WithTx(ctx, c.store.DB, func(tx *ent.Tx) error {
		ids, err := tx.Image.Query().Where(where...).Where(database.ForUpdate).
			Order(ent.Asc(entimage.FieldCreateTime)).Limit(sweepBatch).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		n.seen = len(ids)
		shown, err := shownOf(ctx, tx, ids)
		if err != nil {
			return err
		}
		var kept []string
		for _, id := range ids {
			if shown[id] {
				kept = append(kept, id)
			} else {
				gone = append(gone, id)
			}
		}
		if len(kept) > 0 {
			if err := tx.Image.Update().Where(entimage.IDIn(kept...)).SetAttached(true).Exec(ctx); err != nil {
				return err
			}
		}
		if len(gone) == 0 {
			return nil
		}
		for _, p := range gone {
			if err := c.store.remove(ctx, p); err != nil {
				return err
			}
		}
		_, err = tx.Image.Delete().Where(entimage.IDIn(gone...)).Exec(ctx)
		return err
	})
	if err == nil {
		n.removed = len(gone)
	}
	return n, err
}

// shownOf reports which of paths a blog or a profile shows.
func shownOf(ctx context.Context, tx *ent.Tx, paths []string) (map[string]bool, error) {
	shown := make(map[string]bool, len(paths))
	contains := make([]predicate.Blog, len(paths))
	for i, p := range paths {
		contains[i] = entblog.ImagesContains(p)
	}
	lists, err := tx.Blog.Query().Where(entblog.Or(contains...)).Select(entblog.FieldImages).Strings(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range lists {
		for p := range strings.SplitSeq(l, ",") {
			shown[p] = true
		}
	}
	icons, err := tx.User.Query().Where(entuser.IconIn(paths...)).Select(entuser.FieldIcon).Strings(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range icons {
		shown[p] = true
	}
	return shown, nil
}
