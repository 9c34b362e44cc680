package playground

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// The CDN fallback names these constants and their integrity hashes, while the
// embedded files come from web/package.json: a bump there must bump them too.
func TestVersionsMatchPackageJSON(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "web", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Dependencies map[string]string }
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"graphiql": GraphiQLVersion, "react": ReactVersion, "react-dom": ReactDOMVersion}
	for name, v := range want {
		if got := pkg.Dependencies[name]; got != v {
			t.Errorf("web/package.json pins %s %q, Go constant says %q (pins must be exact and equal)", name, got, v)
		}
	}
	for _, a := range assetFiles {
		if a.ver != want[a.pkg] {
			t.Errorf("asset %s: version %q for package %q, want %q", a.name, a.ver, a.pkg, want[a.pkg])
		}
	}
}

// The integrity hashes guard the CDN fallback; they must describe the very
// files npm delivers, which are the embedded ones when present.
func TestIntegrityMatchesEmbeddedAssets(t *testing.T) {
	if !assetsEmbedded() {
		t.Skip("assets not embedded (run `make playground-assets`); nothing to compare the integrity hashes with")
	}
	for _, a := range assetFiles {
		b, err := fs.ReadFile(embedded, "assets/"+a.name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha512.Sum384(b)
		if got := "sha384-" + base64.StdEncoding.EncodeToString(sum[:]); got != a.integrity {
			t.Errorf("%s: integrity is %s, constant says %s", a.name, got, a.integrity)
		}
	}
}

// assetsEmbedded reports whether `make playground-assets` ran before this build.
func assetsEmbedded() bool {
	for _, a := range assetFiles {
		if _, err := fs.Stat(embedded, "assets/"+a.name); err != nil {
			return false
		}
	}
	return true
}

// get serves target from h into a recorder; the response body is in memory,
// so callers need not close it.
//
//bodyclose:handled
func get(t *testing.T, h http.Handler, target string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Without bundles (a machine without npm) the page must still work, from the
// CDN at the pinned versions, and the log must say so exactly once.
func TestFallsBackToCDNWhenAssetsAbsent(t *testing.T) {
	var logs bytes.Buffer
	h := newHandler("/graphql", fstest.MapFS{"README.md": {Data: []byte("x")}}, slog.New(slog.NewTextHandler(&logs, nil)))

	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], CDNMessage) {
		t.Fatalf("want one WARN line %q, got:\n%s", CDNMessage, logs.String())
	}

	res := get(t, h, "/")
	page := body(t, res)
	for _, want := range []string{
		`https://cdn.jsdelivr.net/npm/graphiql@` + GraphiQLVersion + `/graphiql.min.js`,
		`https://cdn.jsdelivr.net/npm/graphiql@` + GraphiQLVersion + `/graphiql.min.css`,
		`https://cdn.jsdelivr.net/npm/react@` + ReactVersion + `/umd/react.production.min.js`,
		`https://cdn.jsdelivr.net/npm/react-dom@` + ReactDOMVersion + `/umd/react-dom.production.min.js`,
		`crossorigin="anonymous"`,
		`data-endpoint="/graphql"`,
		`src="static/boot.js?v=`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s:\n%s", want, page)
		}
	}
	if n := strings.Count(page, `integrity="sha384-`); n != len(assetFiles) {
		t.Errorf("%d integrity attributes, want %d", n, len(assetFiles))
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' https://cdn.jsdelivr.net;") {
		t.Errorf("CSP does not allow the CDN: %s", csp)
	}
	// Nothing third-party is served locally in this mode, but our boot script is.
	if res := get(t, h, "/static/graphiql.min.js"); res.StatusCode != http.StatusNotFound {
		t.Errorf("static/graphiql.min.js: %d, want 404", res.StatusCode)
	}
	if res := get(t, h, "/static/boot.js"); res.StatusCode != http.StatusOK {
		t.Errorf("static/boot.js: %d, want 200", res.StatusCode)
	}
}

// With bundles present the page must reference only this origin, and the files
// must come with the right types and caching so browsers fetch them once.
func TestServesEmbeddedAssets(t *testing.T) {
	files := fstest.MapFS{}
	for _, a := range assetFiles {
		files[a.name] = &fstest.MapFile{Data: []byte("/* " + a.name + " */")}
	}
	var logs bytes.Buffer
	h := newHandler("/graphql", files, slog.New(slog.NewTextHandler(&logs, nil)))
	if logs.Len() != 0 {
		t.Errorf("unexpected log: %s", logs.String())
	}

	res := get(t, h, "/")
	page := body(t, res)
	if strings.Contains(page, "https://") || strings.Contains(page, "integrity=") {
		t.Errorf("page loads something from another origin:\n%s", page)
	}
	if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("index Content-Type %q", got)
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}

	for name, ctype := range map[string]string{
		"graphiql.min.js":             "text/javascript; charset=utf-8",
		"graphiql.min.css":            "text/css; charset=utf-8",
		"react.production.min.js":     "text/javascript; charset=utf-8",
		"react-dom.production.min.js": "text/javascript; charset=utf-8",
		"boot.js":                     "text/javascript; charset=utf-8",
	} {
		if !strings.Contains(page, `"static/`+name+`?v=`) {
			t.Errorf("page does not reference static/%s?v=...", name)
		}
		res := get(t, h, "/static/"+name+"?v=whatever")
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ctype ||
			!strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d %q %q", name, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
		}
		etag := res.Header.Get("ETag")
		if !strings.Contains(page, name+"?v="+strings.Trim(etag, `"`)) {
			t.Errorf("%s: URL version is not its ETag %s", name, etag)
		}
		if res := get(t, h, "/static/"+name, "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
			t.Errorf("%s with If-None-Match: %d, want 304", name, res.StatusCode)
		}
	}

	for _, path := range []string{"/static/README.md", "/static/", "/nope", "/static/../playground.go"} {
		if res := get(t, h, path); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, res.StatusCode)
		}
	}
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d, want 405", rec.Code)
	}
}

// html/template must keep a hostile endpoint inert.
func TestEndpointIsEscaped(t *testing.T) {
	h := newHandler(`/g"><script>alert(1)</script>`, fstest.MapFS{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if page := body(t, get(t, h, "/")); strings.Contains(page, "<script>alert") {
		t.Errorf("endpoint not escaped:\n%s", page)
	}
}
