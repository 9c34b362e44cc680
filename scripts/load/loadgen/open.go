package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync/atomic"
	"time"
)

// openResult is what an open loop measured.
type openResult struct {
	requests, failed, dropped int64
	elapsed                   time.Duration // from the first iteration due to the last one done
	lat                       []float64     // sorted, ms
}

// line is the RESULT line scripts/bench/run.sh reads: requests per second
// over the whole run, median and p99 in µs, failed requests (no answer, or a
// status of 400 and above) and dropped iterations.
func (o openResult) line() string {
	rps := 0.0
	if o.elapsed > 0 {
		rps = float64(o.requests) / o.elapsed.Seconds()
	}
	return fmt.Sprintf("RESULT rps=%.0f p50_us=%.0f p99_us=%.0f failed=%d dropped=%d",
		math.Round(rps), math.Round(percentile(o.lat, 0.5)*1000), math.Round(percentile(o.lat, 0.99)*1000), o.failed, o.dropped)
}

// openLoop posts body to url at a constant rate for duration with at most
// maxVUs requests in flight, discarding the answers.
func openLoop(ctx context.Context, url string, body []byte, a arrival) openResult {
	c := newClient(a.maxVUs, 60*time.Second)
	defer c.CloseIdleConnections()
	var lat trend
	var requests, failed atomic.Int64
	start := time.Now()
	run := a.start(ctx, start, func(ctx context.Context, _ int64) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			failed.Add(1)
			return
		}
		req.Header.Set("Content-Type", "application/json")
		status, took, err := timedDo(c, req, io.Discard)
		requests.Add(1)
		lat.add(took)
		if err != nil || status >= 400 {
			failed.Add(1)
		}
	})
	_, dropped := run.wait()
	return openResult{
		requests: requests.Load(), failed: failed.Load(), dropped: dropped,
		elapsed: time.Since(start), lat: lat.sorted(),
	}
}

// openMain is the open loop of make bench-http: RATE shop(id) requests per
// second for DURATION whatever the latency, so queueing shows in p99.
func openMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	url := fs.String("url", "", "GraphQL endpoint to post to")
	rateFlag := fs.Float64("rate", 0, "requests per second")
	duration := fs.Duration("duration", 10*time.Second, "how long requests are started")
	shopID := fs.String("shop-id", "1", "the shop asked for")
	maxVUs := fs.Int("max-vus", 400, "requests in flight at most; a request due while that many are in flight is dropped")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" || *rateFlag <= 0 {
		return errors.New("open needs -url and a -rate above 0")
	}
	body, err := json.Marshal(map[string]any{
		"query":     "query($id:ID!){shop(id:$id){id name area address avgPrice score}}",
		"variables": map[string]any{"id": *shopID},
	})
	if err != nil {
		return err
	}
	res := openLoop(ctx, *url, body, arrival{rate: *rateFlag, duration: *duration, maxVUs: *maxVUs})
	_, err = fmt.Fprintln(stdout, res.line())
	return err
}
