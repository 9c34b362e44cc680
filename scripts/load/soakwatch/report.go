package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hmdp/hmdp/scripts/load/chart"
)

// header and row are the line printed per sample: the per-instance
// measures as a/b/c, then the back ends'.
func header(instances int) string {
	per := strings.TrimSuffix(strings.Repeat("i/", instances), "/")
	return fmt.Sprintf("%-7s %-20s %-20s %-16s %-14s %10s %10s %10s %6s",
		"+time", "heap MiB "+per, "rss MiB "+per, "goroutines", "fds", "redis keys", "no TTL", "redis MiB", "mysql")
}

func row(s sample, start time.Time, instances int) string {
	per := func(m string, scale float64) string {
		parts := make([]string, instances)
		for i := range instances {
			parts[i] = num(s.v[key(m, i+1)] / scale)
		}
		return strings.Join(parts, "/")
	}
	return fmt.Sprintf("%-7s %-20s %-20s %-16s %-14s %10s %10s %10s %6s",
		fmt.Sprintf("+%.0fs", s.t.Sub(start).Seconds()),
		per("heap", 1<<20), per("rss", 1<<20), per("goroutines", 1), per("fds", 1),
		num(s.v["redis_keys"]), num(s.v["redis_nottl"]), num(s.v["redis_mem"]/(1<<20)), num(s.v["mysql_conns"]))
}

// num writes a reading: whole numbers as such, others with one decimal, a
// failed reading as "?".
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "?"
	case v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
}

// soakReport is the outcome: the page, the verdict's lines for the
// terminal, and the series that failed.
type soakReport struct {
	page   chart.Page
	lines  []string
	failed []string
}

// report judges every series of the judged measures and lays out the page:
// the verdicts, a chart per measure, then every sample.
func report(samples []sample, instances int, intro []string) soakReport {
	var r soakReport
	if len(samples) == 0 {
		r.failed = append(r.failed, "no sample")
		return r
	}
	from, to := samples[0].t, samples[len(samples)-1].t
	r.page = chart.Page{Title: "hmdp soak", Intro: intro, From: from, To: to}
	verdicts := chart.Table{
		Caption: "Growth per half of the run (least-squares slope × half the run); a series fails when its last half grows past the limit",
		Head:    []string{"series", "first", "last", "median", "first half", "last half", "limit", "verdict"},
	}
	r.lines = append(r.lines, fmt.Sprintf("%-34s %10s %10s %11s %11s %10s  %s", "series", "first", "last", "first half", "last half", "limit", "verdict"))
	for _, m := range measures {
		c := chart.Chart{Title: m.title, Unit: m.unit}
		for _, sk := range seriesOf(m, instances) {
			s := chart.Series{Name: sk.name}
			for _, smp := range samples {
				v, ok := smp.v[sk.key]
				if !ok {
					v = math.NaN()
				}
				s.Points = append(s.Points, chart.Point{T: smp.t, V: v})
			}
			c.Series = append(c.Series, s)
			first, last := ends(s.Points)
			if !m.judged {
				verdicts.Rows = append(verdicts.Rows, []string{sk.label, chart.Format(first, m.unit), chart.Format(last, m.unit), "", "", "", "", "not judged"})
				continue
			}
			j := judge(s.Points, m.rule)
			verdicts.Rows = append(verdicts.Rows, []string{sk.label, chart.Format(first, m.unit), chart.Format(last, m.unit),
				chart.Format(j.level, m.unit), signed(j.first, m.unit), signed(j.last, m.unit), chart.Format(j.limit, m.unit), j.state})
			r.lines = append(r.lines, fmt.Sprintf("%-34s %10s %10s %11s %11s %10s  %s", sk.label, chart.Format(first, m.unit), chart.Format(last, m.unit),
				signed(j.first, m.unit), signed(j.last, m.unit), chart.Format(j.limit, m.unit), j.state))
			if j.state == stateGrows || j.state == stateTooFew {
				r.failed = append(r.failed, sk.label+" "+j.state)
			}
		}
		r.page.Charts = append(r.page.Charts, c)
	}
	r.page.Tables = append(r.page.Tables, verdicts, sampleTable(samples, instances))
	return r
}

// seriesKey is one series of a measure: its key in the samples, its name
// in the chart's legend and its label in the verdict.
type seriesKey struct {
	key, name, label string
}

// seriesOf lists m's series: one per instance, or one.
func seriesOf(m measure, instances int) []seriesKey {
	if !m.perInstance {
		return []seriesKey{{key: m.key, name: m.key, label: m.key}}
	}
	out := make([]seriesKey, instances)
	for i := range instances {
		name := "instance " + strconv.Itoa(i+1)
		out[i] = seriesKey{key: key(m.key, i+1), name: name, label: m.key + " " + name}
	}
	return out
}

// ends are the first and last readings that are numbers.
func ends(ps []chart.Point) (first, last float64) {
	first, last = math.NaN(), math.NaN()
	for _, p := range ps {
		if math.IsNaN(p.V) {
			continue
		}
		if math.IsNaN(first) {
			first = p.V
		}
		last = p.V
	}
	return first, last
}

// signed writes a growth with its sign.
func signed(v float64, u chart.Unit) string {
	if v > 0 {
		return "+" + chart.Format(v, u)
	}
	return chart.Format(v, u)
}

// sampleTable lists every sample as printed during the run.
func sampleTable(samples []sample, instances int) chart.Table {
	t := chart.Table{Caption: "Samples", Head: []string{"+time", "heap MiB", "rss MiB", "goroutines", "fds", "redis keys", "no TTL", "redis MiB", "mysql"}}
	for _, s := range samples {
		t.Rows = append(t.Rows, strings.Fields(row(s, samples[0].t, instances)))
	}
	return t
}

// writeFiles writes soak.csv (unix seconds, series, value: every reading)
// and soak.html into dir.
func writeFiles(dir string, samples []sample, page chart.Page) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "soak.csv")) //nolint:gosec // the directory the caller names for its output
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "unix,series,value")
	for _, s := range samples {
		keys := make([]string, 0, len(s.v))
		for k := range s.v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "%d,%s,%s\n", s.t.Unix(), k, strconv.FormatFloat(s.v[k], 'f', -1, 64))
		}
	}
	if err := w.Flush(); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	h, err := os.Create(filepath.Join(dir, "soak.html")) //nolint:gosec // the directory the caller names for its output
	if err != nil {
		return err
	}
	if err := page.WriteHTML(h); err != nil {
		_ = h.Close()
		return err
	}
	return h.Close()
}
