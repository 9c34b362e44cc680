package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

// The GraphQL fuzz targets send arbitrary requests to the real handler, in
// process, on embedded back ends (one server per fuzzing process). Whatever
// comes in, the server must not panic, must answer JSON with data or errors,
// never a 5xx, and must stay ready.

// fuzzApp starts a server for a fuzz target; rate limits are off so that
// every input gets as far as it can.
func fuzzApp(f *testing.F) *App {
	f.Helper()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		f.Fatal(err)
	}
	cfg.DataDir = f.TempDir()
	cfg.Seed = true
	cfg.RateLimits = false
	app, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(app.Close)
	return app
}

// serveFuzz serves req in process and checks the answer.
func serveFuzz(t *testing.T, a *App, req *http.Request) {
	t.Helper()
	req.RemoteAddr = "127.0.0.1:40000"
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 500 {
		t.Fatalf("status %d: %.500s", res.StatusCode, body)
	}
	if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
		t.Fatalf("status %d, Content-Type %q: %.500s", res.StatusCode, ct, body)
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("status %d, not a JSON object: %.500s", res.StatusCode, body)
	}
	if _, ok := out["data"]; !ok {
		if _, ok := out["errors"]; !ok {
			t.Fatalf("status %d, neither data nor errors: %.500s", res.StatusCode, body)
		}
	}
	if res.StatusCode >= 400 {
		var e struct {
			Errors []gqlError `json:"errors"`
		}
		_ = json.Unmarshal(body, &e)
		for _, ge := range e.Errors {
			if ge.Extensions["code"] == nil {
				t.Fatalf("status %d, an error without a code: %.500s", res.StatusCode, body)
			}
		}
	}
	if r := a.ready(t.Context()); r.Status != "ready" {
		t.Fatalf("not ready after the request: %+v", r)
	}
}

// FuzzGraphQLPost posts arbitrary bodies with arbitrary content types.
func FuzzGraphQLPost(f *testing.F) {
	for _, s := range []struct{ ct, body string }{
		{"application/json", `{"query":"{ shopTypes { name } }"}`},
		{"application/json", `{"query":"query($id: ID!) { shop(id: $id) { name } }","variables":{"id":"1"}}`},
		{"application/json; charset=utf-8", `{"query":"mutation { sendCode(phone: \"13800000000\") }"}`},
		{"application/json", `{"query":"{ searchShops(name: \"%_\") { edges { cursor node { id } } } }"}`},
		{"application/json", `{"query":"{ hotBlogs(first: 2, after: \"gaFpAQ\") { edges { node { id } } } }"}`},
		{"application/json", `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}`},
		{"application/json", `{"query":"subscription { feedItems { id } }"}`},
		{"application/json", `{"query":`},
		{"application/json", `[{"query":"{ me { id } }"}]`},
		{"text/plain", `{"query":"{ me { id } }"}`},
		{"", ``},
		{"multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n{}\r\n--b--\r\n"},
	} {
		f.Add(s.ct, []byte(s.body))
	}
	a := fuzzApp(f)
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("GraphQL-Require-Preflight", "1")
		serveFuzz(t, a, req)
	})
}

// FuzzGraphQLGet sends arbitrary query strings.
func FuzzGraphQLGet(f *testing.F) {
	for _, q := range []string{
		"query=%7B%20shopTypes%20%7B%20name%20%7D%20%7D",
		"query={shop(id:\"1\"){name}}",
		"query=query($id:ID!){shop(id:$id){name}}&variables={\"id\":\"x\"}",
		"query=mutation{logout}",
		"query={me{id}}&operationName=nope",
		"query=%",
		"variables=%7B",
		"extensions={\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"00\"}}",
		"",
	} {
		f.Add(q)
	}
	a := fuzzApp(f)
	f.Fuzz(func(t *testing.T, rawQuery string) {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/graphql", http.NoBody)
		req.URL.RawQuery = rawQuery
		serveFuzz(t, a, req)
	})
}

// FuzzGraphQLMultipart sends upload requests with arbitrary operations, map
// and file parts.
func FuzzGraphQLMultipart(f *testing.F) {
	const upload = `{"query":"mutation($f: Upload!) { uploadImage(file: $f) }","variables":{"f":null}}`
	for _, s := range []struct{ ops, fileMap, file string }{
		{upload, `{"0":["variables.f"]}`, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
		{upload, `{"0":["variables.g"]}`, "GIF89a"},
		{upload, `{"1":["variables.f"]}`, ""},
		{upload, `{"0":["variables.f","variables.f"]}`, "x"},
		{`{"query":"{ me { id } }"}`, `{}`, ""},
		{`[` + upload + `]`, `{"0":["0.variables.f"]}`, "x"},
		{`{`, `{`, ""},
	} {
		f.Add(s.ops, s.fileMap, []byte(s.file))
	}
	a := fuzzApp(f)
	f.Fuzz(func(t *testing.T, ops, fileMap string, file []byte) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("operations", ops)
		_ = mw.WriteField("map", fileMap)
		fw, _ := mw.CreateFormFile("0", "a.png")
		_, _ = fw.Write(file)
		_ = mw.Close()
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/graphql", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("GraphQL-Require-Preflight", "1")
		serveFuzz(t, a, req)
	})
}
