package chart

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"
)

var t0 = time.Unix(1_800_000_000, 0)

func pts(vs ...float64) []Point {
	out := make([]Point, len(vs))
	for i, v := range vs {
		out[i] = Point{T: t0.Add(time.Duration(i) * 10 * time.Second), V: v}
	}
	return out
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		u    Unit
		want string
	}{
		{0.0123, Seconds, "12.3 ms"},
		{2.5, Seconds, "2.5 s"},
		{0.0004, Seconds, "400 µs"},
		{0, Seconds, "0"},
		{64 << 20, Bytes, "64 MiB"},
		{1536, Bytes, "1.5 KiB"},
		{12, Bytes, "12 B"},
		{0.0125, Ratio, "1.25%"},
		{187.6, PerSec, "188/s"},
		{1.25, PerSec, "1.25/s"},
		{25_000, Count, "25k"},
		{3_400_000, Count, "3.4M"},
		{7, Count, "7"},
		{math.NaN(), Count, "–"},
	} {
		if got := Format(c.v, c.u); got != c.want {
			t.Errorf("Format(%v, %q) = %q, want %q", c.v, c.u, got, c.want)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	for v, want := range map[float64]float64{0: 1, 0.7: 1, 1: 1, 1.2: 2, 2.2: 2.5, 3: 5, 7: 10, 180: 200, 0.031: 0.05} {
		if got := niceCeil(v); math.Abs(got-want) > 1e-12 {
			t.Errorf("niceCeil(%v) = %v, want %v", v, got, want)
		}
	}
}

func TestBounds(t *testing.T) {
	for _, c := range []struct {
		vs     []float64
		u      Unit
		lo, hi float64
	}{
		{[]float64{3, 7}, Count, 0, 10},
		{[]float64{0, 0}, Count, 0, 1},
		{[]float64{0, 0}, Ratio, 0, 0.01}, // no errors: 0 against 1%, not 100%
		{[]float64{0.3}, Ratio, 0, 0.5},
		{[]float64{47 << 20}, Bytes, 0, 50 << 20}, // 50 MiB, not 50 000 000 B (47.7 MiB)
		{[]float64{900}, Bytes, 0, 1000},
		{[]float64{-3, 2}, Count, -5, 2},
	} {
		lo, hi := bounds([]Series{{Points: pts(c.vs...)}}, c.u)
		if lo != c.lo || hi != c.hi {
			t.Errorf("bounds(%v, %q) = %v, %v; want %v, %v", c.vs, c.u, lo, hi, c.lo, c.hi)
		}
	}
}

var (
	polyline = regexp.MustCompile(`<polyline [^>]*points="([^"]*)"`)
	dot      = regexp.MustCompile(`<circle `)
)

// The drawing: one polyline per stretch between gaps, points inside the
// plot, the highest value on the top of a round axis, the mark where it is.
func TestSVGDrawsSeriesGapsAndMarks(t *testing.T) {
	c := Chart{
		Title: `p99 <by> "instance"`,
		Unit:  Seconds,
		Series: []Series{
			{Name: "a", Points: pts(0.1, 0.2, math.NaN(), 0.4, 0.15)},
			{Name: "b", Points: pts(0.05, math.NaN(), 0.05, math.NaN(), math.NaN())},
		},
		Marks: []Mark{{T: t0.Add(20 * time.Second), Label: "kill -9 <2>"}},
	}
	svg := string(SVG(c, t0, t0.Add(40*time.Second)))
	lines := polyline.FindAllStringSubmatch(svg, -1)
	if len(lines) != 2 { // a: two stretches; b: only lone samples
		t.Fatalf("%d polylines, want 2:\n%s", len(lines), svg)
	}
	if n := len(dot.FindAllString(svg, -1)); n != 2 {
		t.Errorf("%d dots for b's two lone samples, want 2", n)
	}
	if got := strings.Fields(lines[0][1]); len(got) != 2 || got[0] != "64.0,157.2" {
		// 0.1 of an axis up to 0.5 (niceCeil(0.4)): 80% down the 184-unit plot from 10.
		t.Errorf("first stretch %v, want 2 points starting at 64.0,157.2", got)
	}
	if got := strings.Fields(lines[1][1]); len(got) != 2 || got[0] != "577.0,46.8" {
		t.Errorf("second stretch %v, want 2 points starting at 577.0,46.8 (0.4 of 0.5, 30 s of 40)", got)
	}
	for _, want := range []string{
		`>500 ms</text>`,                                 // the axis' top
		`class="mark" x1="406.0"`,                        // 20 s of 40 across the 684-unit plot from 64
		`kill -9 &lt;2&gt;`,                              // escaped
		`aria-label="p99 &lt;by&gt; &#34;instance&#34;"`, // escaped
		`>40s</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q:\n%s", want, svg)
		}
	}
}

func TestSVGWithoutDataSaysSo(t *testing.T) {
	svg := string(SVG(Chart{Title: "dead letters", Series: []Series{{Name: "x", Points: pts(math.NaN())}}}, t0, t0.Add(time.Minute)))
	if !strings.Contains(svg, ">no data</text>") || strings.Contains(svg, "<polyline") {
		t.Errorf("an empty chart should say no data and draw nothing:\n%s", svg)
	}
}

// The page holds everything itself: no script, nothing loaded from
// elsewhere; names are escaped; legends carry each series' figures.
func TestPageIsSelfContained(t *testing.T) {
	p := Page{
		Title:  "load run <1>",
		Intro:  []string{"3 instances & HAProxy"},
		Tables: []Table{{Caption: "alerts", Head: []string{"alert", "state"}, Rows: [][]string{{"HmdpInstanceDown", "firing"}}}},
		Charts: []Chart{{Title: "requests", Unit: PerSec, Series: []Series{
			{Name: "<script>alert(1)</script>", Points: pts(10, 20, 30)},
		}}},
		From: t0, To: t0.Add(20 * time.Second),
	}
	var b bytes.Buffer
	if err := p.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	for _, want := range []string{
		"<title>load run &lt;1&gt;</title>",
		"3 instances &amp; HAProxy",
		"<td>HmdpInstanceDown</td><td>firing</td>",
		"&lt;script&gt;alert(1)&lt;/script&gt;</td><td>20/s</td><td>30/s</td><td>30/s</td>",
		`style="background: #1f77b4"`,
		"<polyline",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q:\n%s", want, html)
		}
	}
}

func TestLegendSumsUpPastMaxRows(t *testing.T) {
	var c Chart
	for range maxRows + 3 {
		c.Series = append(c.Series, Series{Name: "s", Points: pts(1)})
	}
	rows := legend(c)
	if len(rows) != maxRows+1 || rows[maxRows].Name != "… and 3 more" {
		t.Errorf("legend of %d series: %d rows, last %+v", len(c.Series), len(rows), rows[len(rows)-1])
	}
}

func TestSortByMean(t *testing.T) {
	s := []Series{{Name: "low", Points: pts(1, 1)}, {Name: "high", Points: pts(5, 7)}, {Name: "gap", Points: pts(math.NaN(), 3)}}
	SortByMean(s)
	if s[0].Name != "high" || s[1].Name != "gap" || s[2].Name != "low" {
		t.Errorf("order %s %s %s", s[0].Name, s[1].Name, s[2].Name)
	}
}
