package outbox

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/hmdp/hmdp/ent"
	entoutbox "github.com/hmdp/hmdp/ent/outbox"
)

// Handler performs one recorded side effect; it must be idempotent (it may
// run more than once, on any instance).
type Handler func(ctx context.Context, arg string) error

// Outbox makes the Redis side effects of a write durable: Record adds a row
// in the write's transaction, Run performs it right after commit and deletes
// the row, and the poller started by Start retries rows whose run failed (or
// whose process died before running them), with backoff, until they succeed.
type Outbox struct {
	db       *ent.Client
	log      *slog.Logger
	interval time.Duration
	now      func() time.Time

	mu       sync.RWMutex
	handlers map[string]Handler

	stop context.CancelFunc
	wg   sync.WaitGroup
}

// Config configures an Outbox; zero values take the defaults.
type Config struct {
	// Interval between polls for due rows (default 1 s).
	Interval time.Duration
	Log      *slog.Logger
}

// New returns an outbox on db.
func New(db *ent.Client, cfg Config) *Outbox {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Outbox{db: db, log: cfg.Log, interval: cfg.Interval, now: time.Now, handlers: map[string]Handler{}}
}

// Handle registers the handler of kind.
func (o *Outbox) Handle(kind string, h Handler) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.handlers[kind] = h
}

// graceBeforeRetry keeps the poller off rows whose writer is about to run
// them itself after commit.
const graceBeforeRetry = 2 * time.Second

// Record adds a side effect to the transaction tx; pass the rows to Run after
// tx commits.
func (o *Outbox) Record(ctx context.Context, tx *ent.Tx, kind, arg string) (*ent.Outbox, error) {
	return tx.Outbox.Create().SetKind(kind).SetArg(arg).SetNextTry(o.now().Add(graceBeforeRetry)).Save(ctx)
}

// Run performs rows now, deleting each that succeeds; it returns the first
// failure (the row stays and the poller retries it).
func (o *Outbox) Run(ctx context.Context, rows ...*ent.Outbox) error {
	var first error
	for _, r := range rows {
		if err := o.runOne(ctx, r); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (o *Outbox) runOne(ctx context.Context, r *ent.Outbox) error {
	o.mu.RLock()
	h := o.handlers[r.Kind]
	o.mu.RUnlock()
	if h == nil {
		return fmt.Errorf("outbox: no handler for %q", r.Kind)
	}
	if err := h(ctx, r.Arg); err != nil {
		backoff := min(time.Duration(1<<min(r.Attempts, 10))*250*time.Millisecond, time.Minute)
		if uerr := o.db.Outbox.UpdateOneID(r.ID).AddAttempts(1).SetNextTry(o.now().Add(backoff)).Exec(ctx); uerr != nil && !ent.IsNotFound(uerr) {
			o.log.Warn("outbox: reschedule", "id", r.ID, "err", uerr)
		}
		return fmt.Errorf("outbox %s(%s): %w", r.Kind, r.Arg, err)
	}
	if err := o.db.Outbox.DeleteOneID(r.ID).Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return fmt.Errorf("outbox: delete done row %d: %w", r.ID, err)
	}
	return nil
}

// Done deletes rows whose side effects the writer performed itself after
// commit (so the poller does not run them again).
func (o *Outbox) Done(ctx context.Context, rows ...*ent.Outbox) error {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	_, err := o.db.Outbox.Delete().Where(entoutbox.IDIn(ids...)).Exec(ctx)
	return err
}

// RunDue runs the rows that are due (what each poll does). Only kinds with a
// handler here are taken: several services keep their own outbox on the one
// table, and each must leave the others' rows alone.
func (o *Outbox) RunDue(ctx context.Context) error {
	o.mu.RLock()
	kinds := make([]string, 0, len(o.handlers))
	for k := range o.handlers {
		kinds = append(kinds, k)
	}
	o.mu.RUnlock()
	rows, err := o.db.Outbox.Query().Where(entoutbox.NextTryLTE(o.now()), entoutbox.KindIn(kinds...)).
		Order(ent.Asc(entoutbox.FieldID)).Limit(100).All(ctx)
	if err != nil {
		return err
	}
	return o.Run(ctx, rows...)
}

// Pending counts rows not yet done.
func (o *Outbox) Pending(ctx context.Context) (int, error) { return o.db.Outbox.Query().Count(ctx) }

// Start polls for due rows until Close.
func (o *Outbox) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	o.stop = cancel
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		t := time.NewTicker(o.interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := o.RunDue(ctx); err != nil && ctx.Err() == nil {
					o.log.Warn("outbox retry", "err", err)
				}
			}
		}
	}()
}

// Close stops the poller.
func (o *Outbox) Close() {
	if o.stop != nil {
		o.stop()
	}
	o.wg.Wait()
}
