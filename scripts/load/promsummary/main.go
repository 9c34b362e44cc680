// Command promsummary writes the HTML summary of a load run (make load with
// LOAD_PROMETHEUS, scripts/load/run.sh) from the Prometheus that scraped
// its instances (scripts/prometheus.sh): each key series asked with
// query_range and drawn as an inline SVG chart, and the alerts that were
// pending or firing, with when.
//
//	promsummary -prom http://127.0.0.1:PORT -from UNIX -to UNIX [-kill UNIX -kill-label TEXT] -out FILE
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v2"

	"github.com/hmdp/hmdp/scripts/load/chart"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "promsummary:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("promsummary", flag.ContinueOnError)
	prom := fs.String("prom", "", "Prometheus' base URL (http://127.0.0.1:PORT)")
	from := fs.Float64("from", 0, "start of the run, Unix seconds")
	to := fs.Float64("to", 0, "end of the span to draw, Unix seconds")
	kill := fs.Float64("kill", 0, "when an instance was killed, Unix seconds (0: none)")
	killLabel := fs.String("kill-label", "kill -9", "the kill's label on the charts")
	job := fs.String("job", "hmdp", "the scrape job of the instances")
	window := fs.Duration("window", 5*time.Second, "rate() window: a few scrape intervals")
	step := fs.Duration("step", 0, "query_range step (0: the span / 600, at least 1s)")
	title := fs.String("title", "hmdp load run", "the page's title")
	var intro []string
	fs.Func("intro", "a paragraph under the title (repeatable)", func(s string) error { intro = append(intro, s); return nil })
	out := fs.String("out", "", "HTML file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *prom == "" || *from <= 0 || *to <= *from || *out == "" {
		return errors.New("needs -prom, -from, -to (after -from) and -out")
	}
	start, end := unix(*from), unix(*to)
	st := *step
	if st <= 0 {
		st = max(time.Second, end.Sub(start)/600).Round(time.Second)
	}
	c := &client{base: strings.TrimSuffix(*prom, "/"), http: &http.Client{Timeout: 30 * time.Second}}
	var marks []chart.Mark
	if *kill > 0 {
		marks = append(marks, chart.Mark{T: unix(*kill), Label: *killLabel})
	}
	p := chart.Page{Title: *title, Intro: intro, From: start, To: end}
	alerts, err := c.alerts(ctx, start, end, st)
	if err != nil {
		return err
	}
	p.Tables = append(p.Tables, alertTable(alerts, start))
	for _, s := range specs {
		ch, err := s.chart(ctx, c, selectors{job: *job, window: *window}, start, end, st)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Title, err)
		}
		ch.Marks = marks
		p.Charts = append(p.Charts, ch)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := p.WriteHTML(f); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, row := range alertTable(alerts, start).Rows {
		fmt.Fprintf(stdout, "alert %s\n", strings.Join(row, " "))
	}
	fmt.Fprintf(stdout, "summary of the run's series: %s\n", *out)
	return nil
}

func unix(s float64) time.Time {
	sec, frac := math.Modf(s)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// selectors fill the queries' placeholders: $job (a label matcher) and $w
// (the rate window).
type selectors struct {
	job    string
	window time.Duration
}

func (s selectors) expand(q string) string {
	return strings.NewReplacer("$job", `job="`+s.job+`"`, "$w", s.window.String()).Replace(q)
}

// query is one PromQL expression of a chart; name writes a series' name
// from its labels: {label} is replaced by the label's value.
type query struct {
	Expr string `yaml:"expr"`
	Name string `yaml:"name"`
}

// spec is one chart of the summary (charts.yml).
type spec struct {
	Title   string     `yaml:"title"`
	Note    string     `yaml:"note"`
	Unit    chart.Unit `yaml:"unit"`
	Queries []query    `yaml:"queries"`
	Top     int        `yaml:"top"` // keep the busiest top series, sum the others into one (0: all)
}

//go:embed charts.yml
var chartsYAML []byte

// specs are the charts, read once from charts.yml.
var specs = mustSpecs(chartsYAML)

func mustSpecs(b []byte) []spec {
	var out []spec
	if err := yaml.UnmarshalStrict(b, &out); err != nil {
		panic("charts.yml: " + err.Error())
	}
	for _, s := range out {
		switch s.Unit {
		case chart.Count, chart.PerSec, chart.Seconds, chart.Bytes, chart.Ratio:
		default:
			panic(fmt.Sprintf("charts.yml: %q: unit %q", s.Title, s.Unit))
		}
		if s.Title == "" || len(s.Queries) == 0 {
			panic(fmt.Sprintf("charts.yml: a chart without title or queries: %+v", s))
		}
	}
	return out
}

// chart asks each of s's queries over start..end and names the series.
func (s spec) chart(ctx context.Context, c *client, sel selectors, start, end time.Time, step time.Duration) (chart.Chart, error) {
	ch := chart.Chart{Title: s.Title, Note: s.Note, Unit: s.Unit}
	for _, q := range s.Queries {
		res, err := c.queryRange(ctx, sel.expand(q.Expr), start, end, step)
		if err != nil {
			return ch, err
		}
		var series []chart.Series
		for _, r := range res {
			series = append(series, chart.Series{Name: name(q.Name, r.Metric), Points: r.points(step)})
		}
		slices.SortFunc(series, func(a, b chart.Series) int { return strings.Compare(a.Name, b.Name) })
		if s.Top > 0 {
			chart.SortByMean(series)
			series = keepTop(series, s.Top)
		}
		ch.Series = append(ch.Series, series...)
	}
	ch.Series, ch.Note = dropZeros(ch.Series, ch.Note)
	return ch, nil
}

// dropZeros leaves out the series that are 0 all along, when another one is
// not (the counters of outcomes that did not happen: a sale's rate_limited,
// bad_token ...), and says so in the note.
func dropZeros(series []chart.Series, note string) ([]chart.Series, string) {
	var kept, zero []chart.Series
	for _, s := range series {
		if st := chart.StatsOf(s); st.N > 0 && st.Max == 0 && minOf(s) == 0 {
			zero = append(zero, s)
		} else {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 || len(zero) == 0 {
		return series, note
	}
	names := make([]string, len(zero))
	for i, s := range zero {
		names[i] = s.Name
	}
	if note != "" {
		note += "; "
	}
	return kept, note + "0 all along, not drawn: " + strings.Join(names, ", ")
}

// minOf is the smallest value of s that is a number.
func minOf(s chart.Series) float64 {
	m := math.Inf(1)
	for _, p := range s.Points {
		if !math.IsNaN(p.V) {
			m = min(m, p.V)
		}
	}
	return m
}

// name fills {label} placeholders from metric's labels.
func name(pattern string, metric map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(pattern, '{')
		j := strings.IndexByte(pattern, '}')
		if i < 0 || j < i {
			b.WriteString(pattern)
			return b.String()
		}
		b.WriteString(pattern[:i])
		v := metric[pattern[i+1:j]]
		if v == "" {
			v = "(none)"
		}
		b.WriteString(v)
		pattern = pattern[j+1:]
	}
}

// keepTop keeps the first n series (sorted busiest first) and sums the
// others, sample by sample, into one named after how many they are.
func keepTop(series []chart.Series, n int) []chart.Series {
	if len(series) <= n {
		return series
	}
	rest := series[n-1:]
	sum := map[int64]float64{}
	var times []time.Time
	for _, s := range rest {
		for _, p := range s.Points {
			if math.IsNaN(p.V) {
				continue
			}
			k := p.T.UnixNano()
			if _, ok := sum[k]; !ok {
				times = append(times, p.T)
			}
			sum[k] += p.V
		}
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	others := chart.Series{Name: fmt.Sprintf("%d others", len(rest))}
	for _, t := range times {
		others.Points = append(others.Points, chart.Point{T: t, V: sum[t.UnixNano()]})
	}
	return append(series[:n-1:n-1], others)
}

// alert is one alert's activity: when it was seen in a state.
type alert struct {
	name, state string
	labels      map[string]string
	first, last time.Time
}

// alerts reads the ALERTS series: one per alert, labels and state, 1 while
// the alert was in that state.
func (c *client) alerts(ctx context.Context, start, end time.Time, step time.Duration) ([]alert, error) {
	res, err := c.queryRange(ctx, "ALERTS", start, end, step)
	if err != nil {
		return nil, fmt.Errorf("ALERTS: %w", err)
	}
	var out []alert
	for _, r := range res {
		a := alert{name: r.Metric["alertname"], state: r.Metric["alertstate"], labels: map[string]string{}}
		for k, v := range r.Metric {
			if k != "alertname" && k != "alertstate" && k != "__name__" && k != "severity" {
				a.labels[k] = v
			}
		}
		for _, p := range r.points(step) {
			if math.IsNaN(p.V) {
				continue
			}
			if a.first.IsZero() {
				a.first = p.T
			}
			a.last = p.T
		}
		if !a.first.IsZero() {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b alert) int {
		if c := a.first.Compare(b.first); c != 0 {
			return c
		}
		return strings.Compare(a.name+a.state, b.name+b.state)
	})
	return out, nil
}

// alertTable lists the alerts, times in seconds since start.
func alertTable(alerts []alert, start time.Time) chart.Table {
	t := chart.Table{
		Caption: "Alerts of deploy/prometheus/hmdp.rules.yml pending or firing during the run",
		Head:    []string{"alert", "state", "labels", "from", "until"},
	}
	for _, a := range alerts {
		keys := make([]string, 0, len(a.labels))
		for k := range a.labels {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var ls []string
		for _, k := range keys {
			ls = append(ls, k+"="+a.labels[k])
		}
		t.Rows = append(t.Rows, []string{a.name, a.state, strings.Join(ls, ","),
			fmt.Sprintf("+%.0fs", a.first.Sub(start).Seconds()), fmt.Sprintf("+%.0fs", a.last.Sub(start).Seconds())})
	}
	if len(t.Rows) == 0 {
		t.Rows = [][]string{{"none", "", "", "", ""}}
	}
	return t
}

// client asks Prometheus' HTTP API.
type client struct {
	base string
	http *http.Client
}

// sample is one series of a query_range answer (resultType matrix).
type sample struct {
	Metric map[string]string `json:"metric"`
	Values [][2]any          `json:"values"` // [unix seconds (number), value (string)]
}

// points converts the values; a value Prometheus writes as NaN stays a gap,
// and so do steps with no value at all (query_range leaves them out: an
// instance that was down), so that no line is drawn across them.
func (s sample) points(step time.Duration) []chart.Point {
	out := make([]chart.Point, 0, len(s.Values))
	for _, v := range s.Values {
		ts, ok := v[0].(float64)
		str, ok2 := v[1].(string)
		if !ok || !ok2 {
			continue
		}
		f, err := strconv.ParseFloat(str, 64)
		if err != nil {
			continue
		}
		t := unix(ts)
		if n := len(out); n > 0 && t.Sub(out[n-1].T) > step*3/2 {
			out = append(out, chart.Point{T: out[n-1].T.Add(step), V: math.NaN()})
		}
		out = append(out, chart.Point{T: t, V: f})
	}
	return out
}

// queryRange runs expr over start..end every step.
func (c *client) queryRange(ctx context.Context, expr string, start, end time.Time, step time.Duration) ([]sample, error) {
	q := url.Values{
		"query": {expr},
		"start": {strconv.FormatFloat(float64(start.UnixMilli())/1000, 'f', 3, 64)},
		"end":   {strconv.FormatFloat(float64(end.UnixMilli())/1000, 'f', 3, 64)},
		"step":  {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/query_range", strings.NewReader(q.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = res.Body.Close() }()
	var body struct {
		Status    string `json:"status"`
		ErrorType string `json:"errorType"`
		Error     string `json:"error"`
		Data      struct {
			ResultType string   `json:"resultType"`
			Result     []sample `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<20)).Decode(&body); err != nil {
		return nil, fmt.Errorf("query_range %s: HTTP %d, %w", expr, res.StatusCode, err)
	}
	if body.Status != "success" {
		return nil, fmt.Errorf("query_range %s: %s: %s", expr, body.ErrorType, body.Error)
	}
	if body.Data.ResultType != "matrix" {
		return nil, fmt.Errorf("query_range %s: result type %q, want matrix", expr, body.Data.ResultType)
	}
	return body.Data.Result, nil
}
