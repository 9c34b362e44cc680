package app

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.MaxDepth = 2 })
	ts.ok("", `{ shop(id: "1") { name } }`, nil, nil) // depth 2
	for _, q := range []string{
		`{ shop(id: "1") { type { name } } }`,
		`{ shop(id: "1") { ...F } } fragment F on Shop { type { name } }`,
		`{ shop(id: "1") { ... on Shop { type { name } } } }`,
	} {
		e := ts.fails("", q, nil, "GRAPHQL_VALIDATION_FAILED")
		if !strings.Contains(e.Message, "exceeds the limit of 2") {
			t.Errorf("%s: message %q", q, e.Message)
		}
	}
	// Introspection is not counted: GraphiQL must still load the schema.
	ts.ok("", `{ __schema { types { fields { type { ofType { ofType { name } } } } } } }`, nil, nil)
}

func TestDefaultDepthLimitIs12(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil || cfg.MaxDepth != 12 {
		t.Fatalf("default max depth %d %v", cfg.MaxDepth, err)
	}
}

func TestComplexityLimit(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.MaxComplexity = 5 })
	ts.ok("", `{ shop(id: "1") { name x } }`, nil, nil)
	e := ts.fails("", `{ shop(id: "1") { name x y address area sold comments } }`, nil, "COMPLEXITY_LIMIT_EXCEEDED")
	if !strings.Contains(e.Message, "exceeds the limit of 5") {
		t.Fatalf("message %q", e.Message)
	}
}

func TestGETRunsQueriesOnly(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	get := func(q string) gqlResponse {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/graphql?query="+url.QueryEscape(q), nil)
		return ts.send(req)
	}
	if r := get(`{ shopTypes { name } }`); len(r.Errors) > 0 || !strings.Contains(string(r.Data), "美食") {
		t.Fatalf("GET query: %s %+v", r.Data, r.Errors)
	}
	if r := get(`mutation { sendCode(phone: "13800000000") }`); len(r.Errors) == 0 {
		t.Fatalf("GET ran a mutation: %s", r.Data)
	}
	if len(ts.sms.codes) > 0 {
		t.Fatal("a GET mutation sent a code")
	}
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.MaxBodyBytes = 1024 })
	big := `{"query":"{ shopTypes { name } }","variables":{"pad":"` + strings.Repeat("x", 2048) + `"}}`
	res, err := httpPost(t.Context(), ts.URL+"/graphql", "application/json", bytes.NewReader([]byte(big)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode < 400 {
		t.Fatalf("oversized body answered %d: %s", res.StatusCode, raw)
	}
}

// Internal failures reach the client as INTERNAL_SERVER_ERROR with no Go error text.
func TestInternalErrorsAreHidden(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	ts.app.db.SQL.Close() // every query now fails inside database/sql
	e := ts.fails("", `{ shop(id: "1") { name } }`, nil, "INTERNAL_SERVER_ERROR")
	if e.Message != "internal server error" {
		t.Fatalf("internal error shown as %q", e.Message)
	}
}

func TestBadIDNamesTheArgument(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded")
	e := ts.fails("", `{ user(id: "12a") { id } }`, nil, "BAD_USER_INPUT")
	if e.Extensions["field"] != "id" {
		t.Fatalf("field %v", e.Extensions["field"])
	}
}

func TestIntrospectionSwitch(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.Introspection = false })
	if r := ts.do("", `{ __schema { queryType { name } } }`, nil); len(r.Errors) == 0 {
		t.Fatal("introspection answered while switched off")
	}
}

// A body without a declared length is cut at the limit while it is read.
func TestBodyLimitChunked(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "embedded", func(c *config.Config) { c.MaxBodyBytes = 1024 })
	big := `{"query":"{ shopTypes { name } }","variables":{"pad":"` + strings.Repeat("x", 4096) + `"}}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/graphql", io.MultiReader(strings.NewReader(big)))
	req.Header.Set("Content-Type", "application/json")
	r := ts.send(req)
	if r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "request body too large") {
		t.Fatalf("chunked oversized body: %d %+v", r.Status, r.Errors)
	}
}
