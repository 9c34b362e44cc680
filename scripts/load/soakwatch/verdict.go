package main

import (
	"math"
	"slices"

	"github.com/hmdp/hmdp/scripts/load/chart"
)

// rule says how much growth of a series counts: over the last half of the
// soak, more than abs (in the series' unit) and more than rel times its
// level (the median of the whole run). Both, so that neither a small
// series' noise (2 goroutines more on 10) nor a big one's (a GC cycle's
// heap) fails a soak.
type rule struct {
	abs, rel float64
}

// Verdicts.
const (
	stateOK      = "ok"
	stateGrows   = "GROWS"
	stateTooFew  = "too few samples"
	minPerHalf   = 3 // samples in each half for a slope worth anything
	stateWarming = "ok (grew in the first half only)"
)

// judgement is what a series did: its least-squares growth over each half
// of the run (slope × the half's length), against the limit.
type judgement struct {
	first, last  float64 // fitted growth over the first and the last half
	level, limit float64
	state        string
}

// judge tells whether points keep growing: a leak grows in the last half as
// in the first, a cache or pool warming up grows in the first half and then
// stays. Gaps (NaN) are left out.
func judge(points []chart.Point, r rule) judgement {
	var ps []chart.Point
	for _, p := range points {
		if !math.IsNaN(p.V) && !math.IsInf(p.V, 0) {
			ps = append(ps, p)
		}
	}
	if len(ps) < 2*minPerHalf {
		return judgement{state: stateTooFew}
	}
	t0, tn := ps[0].T, ps[len(ps)-1].T
	half := tn.Sub(t0) / 2
	mid := t0.Add(half)
	var a, b []chart.Point
	for _, p := range ps {
		if p.T.Before(mid) {
			a = append(a, p)
		} else {
			b = append(b, p)
		}
	}
	if len(a) < minPerHalf || len(b) < minPerHalf {
		return judgement{state: stateTooFew}
	}
	j := judgement{
		first: slope(a) * half.Seconds(),
		last:  slope(b) * half.Seconds(),
		level: median(ps),
	}
	j.limit = max(r.abs, r.rel*math.Abs(j.level))
	switch {
	case j.last > j.limit:
		j.state = stateGrows
	case j.first > j.limit:
		j.state = stateWarming
	default:
		j.state = stateOK
	}
	return j
}

// slope is the least-squares slope of ps, per second.
func slope(ps []chart.Point) float64 {
	t0 := ps[0].T
	var sx, sy, sxx, sxy float64
	for _, p := range ps {
		x := p.T.Sub(t0).Seconds()
		sx += x
		sy += p.V
		sxx += x * x
		sxy += x * p.V
	}
	n := float64(len(ps))
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

func median(ps []chart.Point) float64 {
	v := make([]float64, len(ps))
	for i, p := range ps {
		v[i] = p.V
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
