package reconcile

import (
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/hmdp/hmdp/internal/lock"
	"github.com/hmdp/hmdp/internal/testenv"
)

// Two instances on a schedule run the job about once a period between them,
// not once each: the period's mark is set under the reconcile lock by the
// instance that runs.
func TestScheduleRunsOncePerPeriod(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		const every, span = 100 * time.Millisecond, 1200 * time.Millisecond
		var jobs []*Job
		var scheds []*Schedule
		for range 2 {
			e := newEnv(t, b)
			locks := lock.New(b.Redis.Client, b.Redis.Prefix)
			t.Cleanup(func() { _ = locks.Close() })
			jobs = append(jobs, e.job)
			scheds = append(scheds, e.job.Start(locks, every))
		}
		if m := b.Redis.Mini; m != nil { // the embedded server's TTLs follow its own clock
			for end := time.Now().Add(span); time.Now().Before(end); {
				time.Sleep(10 * time.Millisecond)
				m.FastForward(10 * time.Millisecond)
			}
		} else {
			time.Sleep(span)
		}
		for _, s := range scheds {
			s.Stop()
		}
		total := 0.0
		for _, j := range jobs {
			var m dto.Metric
			if err := j.runs.WithLabelValues("ok").Write(&m); err != nil {
				t.Fatal(err)
			}
			total += m.GetCounter().GetValue()
		}
		// One run per 90 ms mark at most: 13 in 1.2 s; without the mark each
		// instance would run every 25 ms tick (about 96).
		if total < 3 || total > 14 {
			t.Fatalf("%v runs in %v with a period of %v on two instances", total, span, every)
		}
	})
}
