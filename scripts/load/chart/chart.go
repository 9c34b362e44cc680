// Package chart renders time series as inline SVG line charts inside one
// self-contained HTML page (no script, no style sheet or font from the
// network): the summary of make load's Prometheus (scripts/load/promsummary)
// and the report of make soak (scripts/load/soakwatch).
package chart

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Point is one sample; a NaN value is a gap (the series was absent then).
type Point struct {
	T time.Time
	V float64
}

// Series is one line of a chart.
type Series struct {
	Name   string
	Points []Point
}

// Mark is a vertical line at a moment of the run (an instance killed).
type Mark struct {
	T     time.Time
	Label string
}

// Unit says how a chart's values are written.
type Unit string

// The units the axes and legends know.
const (
	Count   Unit = ""        // plain numbers: 1.5k, 2M
	PerSec  Unit = "/s"      // a rate
	Seconds Unit = "s"       // durations: 12 ms, 1.2 s
	Bytes   Unit = "B"       // sizes: 12 MiB
	Ratio   Unit = "percent" // 0..1 written as a percentage
)

// Chart is one chart of a page.
type Chart struct {
	Title  string
	Unit   Unit
	Note   string // a line under the title: what the series are
	Series []Series
	Marks  []Mark
}

// Table is a plain table of a page.
type Table struct {
	Caption string
	Head    []string
	Rows    [][]string
}

// Page is a whole HTML report: paragraphs, tables, then charts, all over
// one time span (From, To).
type Page struct {
	Title    string
	Intro    []string
	Tables   []Table
	Charts   []Chart
	From, To time.Time
}

// Size of a chart's drawing, in SVG user units.
const (
	width   = 760
	height  = 220
	padL    = 64 // y-axis labels
	padR    = 12
	padT    = 10
	padB    = 26 // x-axis labels
	maxRows = 12 // legend rows kept; the rest are summed up in one line
)

// palette is distinguishable on white and by most colour-blind readers.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// Stats are the figures of a series written in its legend: the mean, the
// largest value and the last, over the samples that are not gaps.
type Stats struct {
	N               int
	Mean, Max, Last float64
}

// StatsOf computes s's figures.
func StatsOf(s Series) Stats {
	var st Stats
	sum := 0.0
	st.Max = math.Inf(-1)
	for _, p := range s.Points {
		if math.IsNaN(p.V) || math.IsInf(p.V, 0) {
			continue
		}
		st.N++
		sum += p.V
		st.Max = max(st.Max, p.V)
		st.Last = p.V
	}
	if st.N == 0 {
		return Stats{}
	}
	st.Mean = sum / float64(st.N)
	return st
}

// Format writes v in unit u, short (axes and legends).
func Format(v float64, u Unit) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 0):
		return "∞"
	}
	switch u {
	case Seconds:
		switch a := math.Abs(v); {
		case a == 0:
			return "0"
		case a < 1e-3:
			return trim(v*1e6, 0) + " µs"
		case a < 1:
			return trim(v*1e3, 1) + " ms"
		default:
			return trim(v, 2) + " s"
		}
	case Bytes:
		a := math.Abs(v)
		for _, s := range []struct {
			f    float64
			name string
		}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
			if a >= s.f {
				return trim(v/s.f, 1) + " " + s.name
			}
		}
		return trim(v, 0) + " B"
	case Ratio:
		return trim(v*100, 2) + "%"
	case PerSec:
		return short(v) + "/s"
	default:
		return short(v)
	}
}

// short writes v with a k/M/G suffix past a thousand.
func short(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return trim(v/1e9, 2) + "G"
	case a >= 1e6:
		return trim(v/1e6, 2) + "M"
	case a >= 1e4:
		return trim(v/1e3, 1) + "k"
	case a >= 100 || v == math.Trunc(v):
		return trim(v, 0)
	default:
		return trim(v, 2)
	}
}

// trim writes v with at most digits decimals and no trailing zeros.
func trim(v float64, digits int) string {
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// niceCeil is the smallest of 1, 2, 2.5, 5 times a power of ten at least v.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// bounds are the y axis' range: from 0 (or the lowest value, when negative)
// to a round number at or above the highest one (in KiB, MiB or GiB for
// sizes; 1% at least for ratios, whose zero would else be drawn against 100%).
func bounds(series []Series, u Unit) (lo, hi float64) {
	lo, hi = 0, math.Inf(-1)
	for _, s := range series {
		for _, p := range s.Points {
			if math.IsNaN(p.V) || math.IsInf(p.V, 0) {
				continue
			}
			lo, hi = min(lo, p.V), max(hi, p.V)
		}
	}
	if math.IsInf(hi, -1) || hi <= 0 {
		hi = 1
		if u == Ratio {
			hi = 0.01
		}
	}
	scale := 1.0
	if u == Bytes {
		for _, f := range []float64{1 << 30, 1 << 20, 1 << 10} {
			if max(hi, -lo) >= f {
				scale = f
				break
			}
		}
	}
	hi = niceCeil(hi/scale) * scale
	if lo < 0 {
		lo = -niceCeil(-lo/scale) * scale
	}
	return lo, hi
}

// SVG draws c over the span from..to: a line per series (broken at gaps),
// four grid lines labelled in c's unit, the time axis in seconds since
// from, and the marks as dashed vertical lines.
func SVG(c Chart, from, to time.Time) template.HTML {
	var b strings.Builder
	span := to.Sub(from).Seconds()
	if span <= 0 {
		span = 1
	}
	lo, hi := bounds(c.Series, c.Unit)
	plotW, plotH := float64(width-padL-padR), float64(height-padT-padB)
	x := func(t time.Time) float64 { return padL + plotW*t.Sub(from).Seconds()/span }
	y := func(v float64) float64 { return padT + plotH*(1-(v-lo)/(hi-lo)) }
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		width, height, width, height, template.HTMLEscapeString(c.Title))
	b.WriteString(`<g font-family="sans-serif" font-size="11" fill="#555">`)
	for i := range 5 {
		v := lo + (hi-lo)*float64(i)/4
		yy := y(v)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, padL, width-padR, yy, yy)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`, padL-4, yy+4, template.HTMLEscapeString(Format(v, c.Unit)))
	}
	step := niceCeil(span / 8)
	for s := 0.0; s <= span+1e-9; s += step {
		xx := padL + plotW*s/span
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>`, xx, xx, padT, height-padB)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%ss</text>`, xx, height-padB+14, trim(s, 0))
	}
	b.WriteString(`</g>`)
	for _, m := range c.Marks {
		xx := x(m.T)
		if xx < padL || xx > width-padR {
			continue
		}
		fmt.Fprintf(&b, `<line class="mark" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#000" stroke-dasharray="4 3"/>`, xx, xx, padT, height-padB)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-family="sans-serif" font-size="11">%s</text>`, xx+3, padT+10, template.HTMLEscapeString(m.Label))
	}
	drawn := 0
	for i, s := range c.Series {
		colour := palette[i%len(palette)]
		for _, run := range runs(s.Points) {
			if len(run) == 1 { // a lone sample between gaps: a dot
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2" fill="%s"/>`, x(run[0].T), y(run[0].V), colour)
				drawn++
				continue
			}
			pts := make([]string, len(run))
			for j, p := range run {
				pts[j] = fmt.Sprintf("%.1f,%.1f", x(p.T), y(p.V))
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`, colour, strings.Join(pts, " "))
			drawn++
		}
	}
	if drawn == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-family="sans-serif" font-size="13" fill="#999" text-anchor="middle">no data</text>`,
			padL+int(plotW/2), padT+int(plotH/2))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`, padL, padT, plotW, plotH)
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) //nolint:gosec // built here, every text escaped
}

// runs splits points at gaps (NaN, ±Inf) into the stretches drawn as one line.
func runs(points []Point) [][]Point {
	var out [][]Point
	var cur []Point
	for _, p := range points {
		if math.IsNaN(p.V) || math.IsInf(p.V, 0) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, p)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// legendRow is one line of a chart's legend.
type legendRow struct {
	Colour                template.CSS // one of the palette's, ours
	Name, Mean, Max, Last string
}

// legend lists each series with its figures, the first maxRows of them.
func legend(c Chart) []legendRow {
	rows := make([]legendRow, 0, len(c.Series))
	for i, s := range c.Series {
		if i == maxRows {
			rows = append(rows, legendRow{Name: fmt.Sprintf("… and %d more", len(c.Series)-maxRows)})
			break
		}
		st := StatsOf(s)
		row := legendRow{Colour: template.CSS(palette[i%len(palette)]), Name: s.Name, Mean: "–", Max: "–", Last: "–"} //nolint:gosec // our palette's constants
		if st.N > 0 {
			row.Mean, row.Max, row.Last = Format(st.Mean, c.Unit), Format(st.Max, c.Unit), Format(st.Last, c.Unit)
		}
		rows = append(rows, row)
	}
	return rows
}

// SortByMean orders series by their mean, largest first (busiest operation
// on top of the legend), keeping the order of equal ones.
func SortByMean(series []Series) {
	slices.SortStableFunc(series, func(a, b Series) int {
		ma, mb := StatsOf(a).Mean, StatsOf(b).Mean
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 800px; }
h2 { font-size: 1.05em; margin: 1.6em 0 0.2em; }
p.note { margin: 0 0 0.4em; color: #555; font-size: 0.9em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.4em 0 1em; }
td, th { padding: 2px 8px; text-align: right; border-bottom: 1px solid #eee; }
td:first-child, th:first-child { text-align: left; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
span.key { display: inline-block; width: 12px; height: 3px; vertical-align: middle; margin-right: 6px; }
</style></head><body>
<h1>{{.Title}}</h1>
{{range .Intro}}<p>{{.}}</p>
{{end}}{{range .Tables}}<table>{{if .Caption}}<caption>{{.Caption}}</caption>{{end}}
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{range .Charts}}<section class="chart">
<h2>{{.Title}}</h2>
{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
{{.SVG}}
<table><tr><th>series</th><th>mean</th><th>max</th><th>last</th></tr>
{{range .Legend}}<tr><td>{{if .Colour}}<span class="key" style="background: {{.Colour}}"></span>{{end}}{{.Name}}</td><td>{{.Mean}}</td><td>{{.Max}}</td><td>{{.Last}}</td></tr>
{{end}}</table>
</section>
{{end}}</body></html>
`))

// WriteHTML writes p as one HTML document.
func (p Page) WriteHTML(w io.Writer) error {
	type chartView struct {
		Title, Note string
		SVG         template.HTML
		Legend      []legendRow
	}
	charts := make([]chartView, len(p.Charts))
	for i, c := range p.Charts {
		charts[i] = chartView{Title: c.Title, Note: c.Note, SVG: SVG(c, p.From, p.To), Legend: legend(c)}
	}
	return page.Execute(w, struct {
		Title  string
		Intro  []string
		Tables []Table
		Charts []chartView
	}{p.Title, p.Intro, p.Tables, charts})
}
