package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
)

// docLimitCode is the code of a document refused before validation.
const docLimitCode = string(apperr.DocumentTooLarge)

// processCPU is the CPU time (user + system) this process has used.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hostileDocuments are the most expensive documents an anonymous client could
// send, each with the refusal it must get. Before the
// document limits, the first took 10 s of CPU and the 60 000-field one more
// than two minutes.
func hostileDocuments() []struct{ name, query, code, message string } {
	rep := strings.Repeat
	var ops, frags, spreads strings.Builder
	for i := range 1100 {
		fmt.Fprintf(&ops, "query q%d { __typename } ", i)
	}
	for i := range 15 { // each fragment spreads the next twice: 2^15 fields
		fmt.Fprintf(&frags, "fragment f%d on Query { ...f%d ...f%d } ", i, i+1, i+1)
	}
	frags.WriteString("fragment f15 on Query { __typename } query { ...f0 }")
	for i := range 300 {
		fmt.Fprintf(&spreads, "fragment g%d on Query { __typename } ", i)
	}
	return []struct{ name, query, code, message string }{
		{"10 000 fields (110 KB)", "{" + rep(" __typename", 10000) + "}", "BAD_USER_INPUT", "request body is larger than"},
		{"60 000 fields (660 KB)", "{" + rep(" __typename", 60000) + "}", "BAD_USER_INPUT", "request body is larger than"},
		{"2 900 fields sharing a name (32 KB)", "{" + rep(" __typename", 2900) + "}", docLimitCode, "field comparisons"},
		{"3 300 fields, over the query bytes", "{" + rep(" __typename", 3300) + "}", docLimitCode, "bytes"},
		{"1 600 aliases of one name", "{" + rep(" a: __typename", 1600) + "}", docLimitCode, "field comparisons"},
		{"a fragment spread 500 times", "query {" + rep(" ...F", 500) + " } fragment F on Query {" + rep(" __typename", 20) + " }", docLimitCode, "field comparisons"},
		{"fragments doubling 15 times", frags.String(), docLimitCode, "field comparisons"},
		{"300 fragments spread together", "query {" + func() string {
			var b strings.Builder
			for i := range 300 {
				fmt.Fprintf(&b, " ...g%d", i)
			}
			return b.String()
		}() + " } " + spreads.String(), docLimitCode, "field comparisons"},
		{"200 copies of one nested field", "{" + rep(` shops(first: 1) { edges { node { id name shopType { id name } } } }`, 200) + "}", docLimitCode, "field comparisons"},
		{"selections nested 1 200 deep", rep("{ x ", 1200) + rep("}", 1200), "GRAPHQL_PARSE_FAILED", "nesting depth"},
		{"1 100 operations", ops.String(), docLimitCode, "tokens"},
		{"a field with 3 000 directives", "{ __typename" + rep(" @skip(if: false)", 3000) + " }", docLimitCode, "bytes"},
		{"1 900 directives", "{ __typename" + rep(" @skip(if:false)", 1900) + " }", docLimitCode, "tokens"},
	}
}

// Every document the limits admit is parsed and refused in milliseconds of
// the server's CPU, however it was built, while another client is served as
// usual. The CPU is the whole test process's: the server runs in it, and
// nothing else does meanwhile but the second client's requests.
func TestAdversarialDocuments(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		ts.URL = serveWithTimeouts(t, ts, ts.app.cfg) // as Run serves it: header limits too

		// A second client, served as usual throughout.
		stop := make(chan struct{})
		var slowest atomic.Int64
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
				start := time.Now()
				body, _ := json.Marshal(map[string]any{"query": `{ shopTypes { name } }`})
				res, err := httpPost(t.Context(), ts.URL+"/graphql", "application/json", bytes.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				_ = res.Body.Close()
				if res.StatusCode != http.StatusOK {
					t.Errorf("second client: %d", res.StatusCode)
				}
				slowest.Store(max(slowest.Load(), int64(time.Since(start))))
			}
		})

		for _, d := range hostileDocuments() {
			before := processCPU(t)
			r := ts.do("", d.query, nil)
			used := processCPU(t) - before
			if r.code() != d.code || !strings.Contains(r.Errors[0].Message, d.message) {
				t.Errorf("%s: want %s %q, got %d %+v", d.name, d.code, d.message, r.Status, r.Errors)
			}
			if used > 100*time.Millisecond {
				t.Errorf("%s: %v of CPU to refuse", d.name, used)
			}
			t.Logf("%s (%d bytes): %s in %v of CPU", d.name, len(d.query), r.code(), used)
		}

		// The same through GET, a persisted-query registration and an
		// upload's operations part.
		big := "{" + strings.Repeat(" __typename", 2900) + "}"
		get := func(q string, ext string) gqlResponse {
			u := "/graphql?query=" + url.QueryEscape(q)
			if ext != "" {
				u += "&extensions=" + url.QueryEscape(ext)
			}
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+u, http.NoBody)
			return ts.sendWith(ts.inProcess(), req)
		}
		if r := get(big, ""); r.code() != docLimitCode {
			t.Errorf("GET: %d %+v", r.Status, r.Errors)
		}
		sum := sha256.Sum256([]byte(big))
		if r := get(big, `{"persistedQuery":{"version":1,"sha256Hash":"`+hex.EncodeToString(sum[:])+`"}}`); r.code() != docLimitCode {
			t.Errorf("persisted-query registration: %d %+v", r.Status, r.Errors)
		}
		var mp bytes.Buffer
		w := multipart.NewWriter(&mp)
		ops, _ := json.Marshal(map[string]any{"query": "mutation($f: Upload!) { uploadImage(file: $f) }", "variables": map[string]any{"f": nil, "pad": strings.Repeat("x", 1<<20)}})
		_ = w.WriteField("operations", string(ops))
		_ = w.WriteField("map", `{"0":["variables.f"]}`)
		fw, _ := w.CreateFormFile("0", "a.png")
		_, _ = fw.Write([]byte("\x89PNG\r\n\x1a\n"))
		_ = w.Close()
		before := processCPU(t)
		if r := ts.raw(http.MethodPost, w.FormDataContentType(), "", mp.Bytes(), ""); r.Status != http.StatusRequestEntityTooLarge || r.code() == "" || r.Errors[0].Extensions["field"] != "operations" {
			t.Errorf("1 MB operations part: %d %+v", r.Status, r.Errors)
		}
		if used := processCPU(t) - before; used > 100*time.Millisecond {
			t.Errorf("1 MB operations part: %v of CPU to refuse", used)
		}
		// A query string longer than the header limit (net/http allows 4 KB
		// more) never reaches a handler.
		res, err := httpGet(t.Context(), ts.URL+"/graphql?query="+strings.Repeat("_", maxHeaderBytes+8<<10))
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("a 72 KB query string: %d", res.StatusCode)
		}

		// Two clients at once, each sending the worst admitted shapes.
		var attackers sync.WaitGroup
		for range 2 {
			attackers.Go(func() {
				for range 20 {
					_ = ts.do("", big, nil)
				}
			})
		}
		attackers.Wait()
		close(stop)
		wg.Wait()
		if s := time.Duration(slowest.Load()); s > time.Second {
			t.Errorf("the second client waited %v for an answer", s)
		}

		// What the web app and GraphiQL send is within the limits.
		ts.ok("", graphiqlSchemaQuery(t), nil, nil)
	})
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// With introspection off (production's default), probing the schema is the
// client's mistake: INTROSPECTION_DISABLED before anything runs, no ERROR log
// line per probe (before: "internal error" at ERROR, INTERNAL_SERVER_ERROR to
// the client), and no "Did you mean" naming fields one typo at a time.
func TestAdversarialIntrospectionOff(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		cfg.Introspection = false
		var logs syncBuffer
		a, err := New(t.Context(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)), Options{Sender: &smsBox{codes: map[string]string{}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Stop(); a.Close() })
		ts := &testServer{t: t, URL: "http://hmdp.test", client: &http.Client{Transport: handlerTransport{h: a.Handler(), remoteAddr: "127.0.0.1:40000"}}, app: a}
		for _, q := range []string{
			`{ __schema { queryType { name } } }`,
			`{ __type(name: "Shop") { fields { name } } }`,
			`query { ...Q } fragment Q on Query { ... on Query { __schema { types { name } } } }`,
		} {
			if r := ts.do("", q, nil); r.code() != "INTROSPECTION_DISABLED" || r.Data != nil && string(r.Data) != "null" {
				t.Errorf("%s: %d %s %+v", q, r.Status, r.Data, r.Errors)
			}
		}
		if r := ts.do("", `{ shopTypes { nam } }`, nil); len(r.Errors) == 0 || strings.Contains(r.Errors[0].Message, "Did you mean") {
			t.Errorf("a misspelt field: %+v", r.Errors)
		}
		ts.ok("", `{ __typename shopTypes { name } }`, nil, nil) // __typename is not introspection
		if strings.Contains(logs.String(), `"level":"ERROR"`) {
			t.Errorf("refused introspection logged at ERROR:\n%s", logs.String())
		}
	})
}

// graphiqlSchemaQuery is GraphiQL's schema query, the largest document a
// well-behaved client sends (kept with internal/graphapi's tests of the
// document limit).
func graphiqlSchemaQuery(t *testing.T) string {
	t.Helper()
	q, err := os.ReadFile("../graphapi/testdata/graphiql-schema-query.graphql")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(q), "\n")
}
