package main

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// arrival is an open loop at a constant rate (k6's constant-arrival-rate
// executor): iteration i is due at start + i/rate for every i with
// i/rate < duration, whatever happened to the earlier ones. A due iteration
// starts at once if fewer than maxVUs are in flight, else it is dropped and
// counted (k6's dropped_iterations once maxVUs are all busy). A scheduler
// that falls behind (a busy machine) starts the overdue iterations at once.
type arrival struct {
	rate     float64 // iterations per second
	duration time.Duration
	maxVUs   int
}

// iterations is how many iterations are due in all.
func (a arrival) iterations() int64 {
	if a.rate <= 0 || a.duration <= 0 {
		return 0
	}
	// i/rate < duration; the epsilon keeps 20 s × 30/s at exactly 600.
	return int64(math.Ceil(a.duration.Seconds()*a.rate - 1e-9))
}

// due is when iteration i is due.
func (a arrival) due(start time.Time, i int64) time.Time {
	return start.Add(time.Duration(float64(i) * float64(time.Second) / a.rate))
}

// arrivalRun is a started arrival.
type arrivalRun struct {
	scheduled chan struct{} // closed once every iteration was started or dropped
	done      chan struct{} // closed once the started ones have returned too
	started   atomic.Int64
	dropped   atomic.Int64
}

// start runs fn for each iteration from start on; fn gets the number of the
// iteration among those started (0, 1, … without gaps for dropped ones, k6's
// exec.scenario.iterationInTest). Cancelling ctx stops the schedule; the
// started iterations see ctx too.
func (a arrival) start(ctx context.Context, start time.Time, fn func(ctx context.Context, iter int64)) *arrivalRun {
	r := &arrivalRun{scheduled: make(chan struct{}), done: make(chan struct{})}
	go func() {
		var wg sync.WaitGroup
		defer close(r.done)
		defer wg.Wait()
		defer close(r.scheduled)
		vus := make(chan struct{}, max(a.maxVUs, 1)) // one token per iteration in flight
		timer := time.NewTimer(time.Hour)
		defer timer.Stop()
		total := a.iterations()
		for i := range total {
			if wait := time.Until(a.due(start, i)); wait > 0 {
				timer.Reset(wait)
				select {
				case <-ctx.Done():
					return
				case <-timer.C:
				}
			} else if ctx.Err() != nil {
				return
			}
			select {
			case vus <- struct{}{}:
				iter := r.started.Add(1) - 1
				wg.Go(func() {
					defer func() { <-vus }()
					fn(ctx, iter)
				})
			default:
				r.dropped.Add(1)
			}
		}
	}()
	return r
}

// wait waits for the last iteration and returns how many were started and
// how many dropped.
func (r *arrivalRun) wait() (started, dropped int64) {
	<-r.done
	return r.started.Load(), r.dropped.Load()
}
