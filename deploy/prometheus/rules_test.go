// Package prometheus_test checks the alerting rules, the Grafana dashboard
// and the charts of make load's summary (scripts/load/promsummary) against
// the server: every metric they name must be one the server registers, and
// every alert must say how bad it is and where its runbook is. promtool
// (make test-alerts) checks what the rules compute.
package prometheus_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.yaml.in/yaml/v2"

	"github.com/hmdp/hmdp/internal/app"
	"github.com/hmdp/hmdp/internal/binlog"
	"github.com/hmdp/hmdp/internal/config"
)

const (
	rulesFile     = "hmdp.rules.yml"
	dashboardFile = "../grafana/hmdp.json"
	runbookFile   = "../../docs/OPERATIONS.md"
	summaryFile   = "../../scripts/load/promsummary/charts.yml"
)

type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []rule `yaml:"rules"`
	} `yaml:"groups"`
}

type rule struct {
	Record      string            `yaml:"record"`
	Alert       string            `yaml:"alert"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

func loadRules(t *testing.T) []rule {
	t.Helper()
	b, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	var f ruleFile
	if err := yaml.UnmarshalStrict(b, &f); err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	var rules []rule
	for _, g := range f.Groups {
		rules = append(rules, g.Rules...)
	}
	if len(rules) == 0 {
		t.Fatalf("%s has no rules", rulesFile)
	}
	return rules
}

// dashboardQueries returns every target expression of the dashboard's
// panels (rows' nested panels included) and of its query variables.
func dashboardQueries(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	type target struct {
		Expr  string `json:"expr"`
		RefID string `json:"refId"`
	}
	type panel struct {
		Title   string   `json:"title"`
		Type    string   `json:"type"`
		Targets []target `json:"targets"`
		Panels  []panel  `json:"panels"`
	}
	var d struct {
		UID        string  `json:"uid"`
		Title      string  `json:"title"`
		Panels     []panel `json:"panels"`
		Templating struct {
			List []struct {
				Name  string `json:"name"`
				Type  string `json:"type"`
				Query any    `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s is not valid JSON: %v", dashboardFile, err)
	}
	if d.UID == "" || d.Title == "" || len(d.Panels) == 0 {
		t.Fatalf("%s: no uid, title or panels", dashboardFile)
	}
	queries := map[string]string{}
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			walk(p.Panels)
			if p.Type == "row" || p.Type == "text" {
				continue
			}
			if len(p.Targets) == 0 {
				t.Errorf("dashboard panel %q has no query", p.Title)
			}
			for _, tg := range p.Targets {
				if strings.TrimSpace(tg.Expr) == "" {
					t.Errorf("dashboard panel %q: target %s has no expr", p.Title, tg.RefID)
				}
				queries["panel "+p.Title+" "+tg.RefID] = tg.Expr
			}
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if v.Type != "query" { // a datasource variable's query is a plugin name
			continue
		}
		switch q := v.Query.(type) {
		case string:
			queries["variable "+v.Name] = q
		case map[string]any:
			if s, ok := q["query"].(string); ok {
				queries["variable "+v.Name] = s
			}
		}
	}
	return queries
}

// summaryQueries returns the expressions of make load's summary charts.
func summaryQueries(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(summaryFile)
	if err != nil {
		t.Fatal(err)
	}
	var charts []struct {
		Title   string `yaml:"title"`
		Queries []struct {
			Expr string `yaml:"expr"`
		} `yaml:"queries"`
	}
	if err := yaml.Unmarshal(b, &charts); err != nil {
		t.Fatalf("%s: %v", summaryFile, err)
	}
	queries := map[string]string{}
	for _, c := range charts {
		for i, q := range c.Queries {
			queries[c.Title+" "+strconv.Itoa(i)] = q.Expr
		}
	}
	if len(queries) == 0 {
		t.Fatalf("%s has no query", summaryFile)
	}
	return queries
}

var (
	strLit = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")
	// Label matchers, ranges and subqueries, grouping label lists, Grafana
	// variables ($job, ${job}, $__rate_interval) and label_values()'s label.
	matchers  = regexp.MustCompile(`\{[^{}]*\}`)
	ranges    = regexp.MustCompile(`\[[^\[\]]*\]`)
	grouping  = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)`)
	variables = regexp.MustCompile(`\$\{[^}]*\}|\$\w+`)
	ident     = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	keywords  = map[string]bool{
		"and": true, "or": true, "unless": true, "bool": true, "offset": true, "by": true, "without": true,
		"on": true, "ignoring": true, "group_left": true, "group_right": true, "inf": true, "nan": true,
		"atan2": true,
	}
	// label_values(metric, label) of a Grafana variable: its label is no metric.
	labelValues = regexp.MustCompile(`label_values\((.+),\s*[a-zA-Z_]\w*\s*\)`)
)

// metricNames returns the metric names an expression selects: identifiers
// outside strings, label matchers, ranges and grouping lists that are neither
// keywords nor functions (an identifier followed by "(").
func metricNames(expr string) []string {
	e := labelValues.ReplaceAllString(expr, "($1)")
	e = strLit.ReplaceAllString(e, `""`)
	e = matchers.ReplaceAllString(e, " ")
	e = ranges.ReplaceAllString(e, " ")
	e = grouping.ReplaceAllString(e, " ")
	e = variables.ReplaceAllString(e, " ")
	var names []string
	for _, loc := range ident.FindAllStringIndex(e, -1) {
		name := e[loc[0]:loc[1]]
		if loc[0] > 0 && (e[loc[0]-1] == '.' || (e[loc[0]-1] >= '0' && e[loc[0]-1] <= '9')) {
			continue // the exponent or unit of a number: 1e3, 10m
		}
		if keywords[strings.ToLower(name)] || strings.HasPrefix(strings.TrimLeft(e[loc[1]:], " \t\n"), "(") {
			continue
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

func TestMetricNamesOfAnExpression(t *testing.T) {
	for expr, want := range map[string][]string{
		`histogram_quantile(0.99, sum by (job, le) (rate(hmdp_graphql_duration_seconds_bucket{operation!~"A|B"}[5m])))`: {"hmdp_graphql_duration_seconds_bucket"},
		`sum(x{a="up and down"}) by (instance) / on (job) group_left sum without (le) (y_total offset 10m) > 1e3`:       {"x", "y_total"},
		`deriv(sum by (job) (max by (job, voucher) (p))[10m:1m]) > 0 and job:rec:rate5m unless absent(up)`:              {"p", "job:rec:rate5m", "up"},
		`sum(rate(a_total{instance=~"$instance"}[$__rate_interval])) * 60`:                                              {"a_total"},
		`label_values(hmdp_ready, instance)`: {"hmdp_ready"},
	} {
		if got := metricNames(expr); !slices.Equal(got, want) {
			t.Errorf("metricNames(%s) = %q, want %q", expr, got, want)
		}
	}
}

// registry is the server's own registry, built the way the server builds it
// (app.New on the embedded back ends), plus the binlog tailer's metrics,
// which the server registers only with HMDP_BINLOG on a MySQL primary.
func registry(t *testing.T) *prometheus.Registry {
	t.Helper()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	a, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	reg := a.Registry()
	// Registration only: sql.Open does not connect, and it is never started.
	tl, err := binlog.New(binlog.Config{DSN: "hmdp@tcp(127.0.0.1:1)/hmdp", Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tl.Close)
	return reg
}

// registered reports whether reg has a metric named name: registering
// another with that name and a different help is refused only then.
// Labelled metrics without a value yet are found too, unlike in /metrics.
func registered(t *testing.T, reg *prometheus.Registry, name string) bool {
	t.Helper()
	probe := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: "probe from deploy/prometheus"})
	err := reg.Register(probe)
	if err == nil {
		reg.Unregister(probe)
		return false
	}
	if !strings.Contains(err.Error(), "same fully-qualified name") {
		t.Fatalf("probing %s: %v", name, err)
	}
	return true
}

// knownMetric: a registered metric, one series of a registered histogram
// (_bucket, _sum, _count), a recording rule, or Prometheus's own "up".
func knownMetric(t *testing.T, reg *prometheus.Registry, recorded map[string]bool, name string) bool {
	t.Helper()
	if name == "up" || recorded[name] || registered(t, reg, name) {
		return true
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok && registered(t, reg, base) {
			return true
		}
	}
	return false
}

func TestRulesAndDashboardNameOnlyRegisteredMetrics(t *testing.T) {
	rules := loadRules(t)
	recorded := map[string]bool{}
	for _, r := range rules {
		if r.Record != "" {
			recorded[r.Record] = true
		}
	}
	reg := registry(t)
	if registered(t, reg, "hmdp_no_such_metric_total") {
		t.Fatal("the registry probe finds a metric that is not there")
	}
	exprs := map[string]string{}
	for _, r := range rules {
		exprs["rule "+r.Record+r.Alert] = r.Expr
	}
	for where, q := range dashboardQueries(t) {
		exprs["dashboard "+where] = q
	}
	for where, q := range summaryQueries(t) {
		exprs["load summary "+where] = q
	}
	used := 0
	for where, expr := range exprs {
		names := metricNames(expr)
		if len(names) == 0 {
			t.Errorf("%s: no metric in %q", where, expr)
		}
		for _, n := range names {
			used++
			if !knownMetric(t, reg, recorded, n) {
				t.Errorf("%s names %s, which the server does not register", where, n)
			}
		}
	}
	t.Logf("%d expressions, %d metric names checked", len(exprs), used)
}

// headingSlugs are GitHub's anchors of the markdown headings in path.
func headingSlugs(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	drop := regexp.MustCompile(`[^\p{L}\p{N}\- _]`)
	slugs := map[string]bool{}
	for line := range strings.SplitSeq(string(b), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		h = strings.ReplaceAll(h, "`", "")
		slugs[strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-")] = true
	}
	return slugs
}

// Every alert waits (for:), says how bad it is, what happened, and links a
// section of docs/OPERATIONS.md that exists.
func TestAlertsHaveSeverityForSummaryAndRunbook(t *testing.T) {
	slugs := headingSlugs(t, runbookFile)
	alerts := 0
	for _, r := range loadRules(t) {
		if r.Alert == "" {
			continue
		}
		alerts++
		if r.For == "" {
			t.Errorf("%s has no for:", r.Alert)
		}
		if s := r.Labels["severity"]; s != "critical" && s != "warning" {
			t.Errorf("%s: severity %q, want critical or warning", r.Alert, s)
		}
		if r.Annotations["summary"] == "" {
			t.Errorf("%s has no summary", r.Alert)
		}
		file, anchor, _ := strings.Cut(r.Annotations["runbook_url"], "#")
		if file != "docs/OPERATIONS.md" || !slugs[anchor] {
			t.Errorf("%s: runbook_url %q is no section of %s", r.Alert, r.Annotations["runbook_url"], filepath.Clean(runbookFile))
		}
	}
	if alerts == 0 {
		t.Fatal("no alerts")
	}
}
