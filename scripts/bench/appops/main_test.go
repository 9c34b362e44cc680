package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The operations make bench-http loads (scripts/bench/run.sh) are the web
// app's: renaming one in the app, or changing a page size, shows here before
// a benchmark run fails or measures something else.
func TestBenchOperationsAreTheApps(t *testing.T) {
	for _, tc := range []struct {
		op, vars string
		first    int // the page size the app's code asks for; 0: none
	}{
		{"Shop", `{"id":"1"}`, 0},
		{"ShopBlogs", `{"shopId":"1","orderBy":"NEWEST"}`, 4},
		{"ShopReviews", `{"shopId":"1","orderBy":"NEWEST"}`, 5},
		{"MyOrders", `{"shopId":"1"}`, 20},
		{"Home", `{}`, 0},
		{"HotBlogs", `{}`, 10},
		{"Seckill", `{"voucherId":"7"}`, 0},
	} {
		out := filepath.Join(t.TempDir(), "body.json")
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := run(f, "../../..", tc.op, tc.vars); err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		_ = f.Close()
		raw, _ := os.ReadFile(out)
		var body struct {
			OperationName string
			Query         string
			Variables     map[string]any
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		if body.OperationName != tc.op || !strings.Contains(body.Query, " "+tc.op) {
			t.Fatalf("%s: body %s", tc.op, raw)
		}
		if got, _ := body.Variables["first"].(float64); int(got) != tc.first {
			t.Fatalf("%s: first %v, want the app's %d", tc.op, body.Variables["first"], tc.first)
		}
	}
	if err := run(os.Stdout, "../../..", "NoSuchOperation", "{}"); err == nil {
		t.Fatal("an operation the app does not have was printed")
	}
}
