package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// trend collects latencies in milliseconds (k6's Trend).
type trend struct {
	mu sync.Mutex
	ms []float64
}

func (t *trend) add(d time.Duration) {
	t.mu.Lock()
	t.ms = append(t.ms, float64(d)/float64(time.Millisecond))
	t.mu.Unlock()
}

// sorted returns a sorted copy of the samples.
func (t *trend) sorted() []float64 {
	t.mu.Lock()
	s := slices.Clone(t.ms)
	t.mu.Unlock()
	slices.Sort(s)
	return s
}

// percentile is the p-th fraction (0..1) of sorted samples, interpolated
// linearly between the two nearest ranks as k6 computes p(x) and med: for n
// samples, rank p·(n-1) counted from 0. It is 0 without samples.
func percentile(sorted []float64, p float64) float64 {
	switch len(sorted) {
	case 0:
		return 0
	case 1:
		return sorted[0]
	}
	i := p * float64(len(sorted)-1)
	lo, hi := sorted[int(math.Floor(i))], sorted[int(math.Ceil(i))]
	return lo + (hi-lo)*(i-math.Floor(i))
}

// rate counts outcomes, some of them failures (k6's Rate of err_<step>).
type rate struct {
	total, failed atomic.Int64
}

func (r *rate) add(failed bool) {
	r.total.Add(1)
	if failed {
		r.failed.Add(1)
	}
}

// percent is the share of failures, 0 without outcomes.
func (r *rate) percent() float64 {
	n := r.total.Load()
	if n == 0 {
		return 0
	}
	return float64(r.failed.Load()) * 100 / float64(n)
}

// failLog writes one line per failed request, err_<step>,<unix seconds>,1,
// the lines of k6's CSV output that scripts/load/run.sh reads to say how long
// errors went on after the kill.
type failLog struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
}

func openFailLog(path string) (*failLog, error) {
	if path == "" {
		return &failLog{}, nil
	}
	f, err := os.Create(path) //nolint:gosec // a path the caller names for its own output
	if err != nil {
		return nil, err
	}
	return &failLog{f: f, w: bufio.NewWriter(f)}, nil
}

func (l *failLog) record(step string, at time.Time) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	fmt.Fprintf(l.w, "err_%s,%d,1\n", step, at.Unix())
	l.mu.Unlock()
}

func (l *failLog) close() error {
	if l.w == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		_ = l.f.Close()
		return err
	}
	return l.f.Close()
}
