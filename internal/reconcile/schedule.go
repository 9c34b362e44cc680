package reconcile

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hmdp/hmdp/internal/lock"
)

// LockName is the reentrant lock (internal/lock) every run holds, scheduled
// or from the command line, so two runs never overlap.
const LockName = "reconcile"

// Locked runs the job once under LockName, waiting up to wait for it.
func (j *Job) Locked(ctx context.Context, locks *lock.Locker, wait time.Duration, opt Options) (Report, error) {
	var rep Report
	err := locks.WithLock(ctx, LockName, wait, func(ctx context.Context) error {
		var err error
		rep, err = j.Run(ctx, opt)
		return err
	})
	return rep, err
}

// Schedule runs the job every `every` on one instance at a time: each
// instance looks every quarter period; under LockName, the first to find
// the period's mark (p reconcile:due, SET NX with a lifetime of 9/10 of the
// period) absent sets it and runs. So one run a period across instances,
// whichever instances live. Stop ends it.
type Schedule struct {
	stop context.CancelFunc
	wg   sync.WaitGroup
}

// Start begins the schedule (every > 0).
func (j *Job) Start(locks *lock.Locker, every time.Duration) *Schedule {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Schedule{stop: cancel}
	s.wg.Go(func() {
		t := time.NewTicker(max(every/4, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			err := locks.WithLock(ctx, LockName, 0, func(ctx context.Context) error {
				due, err := j.cfg.Redis.SetNX(ctx, j.cfg.Prefix+"reconcile:due", "1", every*9/10).Result()
				if err != nil || !due {
					return err // another instance ran this period
				}
				_, err = j.Run(ctx, Options{})
				return err
			})
			if err != nil && !errors.Is(err, lock.ErrNotAcquired) && ctx.Err() == nil {
				j.log.Warn("scheduled reconciliation failed; the next period tries again", "err", err)
			}
		}
	})
	return s
}

// Stop ends the schedule, waiting for a run in progress (its context ends).
func (s *Schedule) Stop() {
	s.stop()
	s.wg.Wait()
}
