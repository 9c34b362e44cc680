package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every operation loadgen sends is named, and its name is one the
// instances of scripts/lb.sh label in their metrics (HMDP_METRICS_OPERATIONS
// there), so that make load's summary shows requests per operation instead
// of one "anonymous" or "other" line; FeedItems is the web app's own
// subscription, known already (and left out of latency as a subscription).
func TestOperationsAreNamedAndLabelled(t *testing.T) {
	lb, err := os.ReadFile("../../lb.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^load_operations=(\S+)$`).FindSubmatch(lb)
	if m == nil {
		t.Fatal("scripts/lb.sh has no load_operations= line")
	}
	labelled := strings.Split(string(m[1]), ",")
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`\b(query|mutation|subscription) ([A-Za-z_]\w*)`)
	unnamed := regexp.MustCompile("[`\"](query|mutation|subscription)? *[({]")
	var used []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range regexp.MustCompile("(?:gql\\.do|g\\.do)\\(ctx, `[^`]*`|\"subscription [^\"]*\"").FindAllString(string(b), -1) {
			if unnamed.MatchString(doc) {
				t.Errorf("%s: an operation without a name: %s", f, doc)
			}
			for _, n := range named.FindAllStringSubmatch(doc, -1) {
				used = append(used, n[2])
				if n[2] != "FeedItems" && !slices.Contains(labelled, n[2]) {
					t.Errorf("%s: operation %s is not in scripts/lb.sh's load_operations", f, n[2])
				}
			}
		}
	}
	if len(used) < 15 {
		t.Errorf("found only %d operations (%v): the pattern misses some", len(used), used)
	}
	for _, l := range labelled {
		if !slices.Contains(used, l) {
			t.Errorf("scripts/lb.sh labels %s, which loadgen does not send", l)
		}
	}
}
