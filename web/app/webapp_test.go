package webapp

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func get(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var built = fstest.MapFS{
	"index.html":           {Data: []byte("<!doctype html><title>app</title>")},
	"favicon.svg":          {Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")},
	"assets/index-abc.js":  {Data: []byte("console.log(1)")},
	"assets/index-abc.css": {Data: []byte("body{}")},
	"README.md":            {Data: []byte("readme")},
	"assets/big-abc.js":    {Data: []byte(strings.Repeat("export const x = 'hello';\n", 200))},
	".vite/manifest.json":  {Data: []byte("{}")},
}

func TestGzipForClientsThatAcceptIt(t *testing.T) {
	h := newHandler(built)
	plain := get(t, h, "GET", "/app/assets/big-abc.js", nil)
	if plain.Header().Get("Content-Encoding") != "" || !strings.Contains(plain.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("plain: %v", plain.Header())
	}
	rec := get(t, h, "GET", "/app/assets/big-abc.js", map[string]string{"Accept-Encoding": "br, gzip"})
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("ETag") == plain.Header().Get("ETag") {
		t.Fatalf("gzip: %v", rec.Header())
	}
	zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(zr)
	if string(b) != plain.Body.String() {
		t.Errorf("gunzipped body differs")
	}
	if rec := get(t, h, "GET", "/app/assets/big-abc.js", map[string]string{"Accept-Encoding": "gzip;q=0"}); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("q=0 still gzipped")
	}
	if rec := get(t, h, "GET", "/app/.vite/manifest.json", nil); rec.Code != 404 {
		t.Errorf(".vite/manifest.json: %d", rec.Code)
	}
}

func TestServesAssetsWithLongCache(t *testing.T) {
	h := newHandler(built)
	rec := get(t, h, "GET", "/app/assets/index-abc.js", nil)
	if rec.Code != 200 || rec.Body.String() != "console.log(1)" {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
	if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("Cache-Control = %q", cc)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("Content-Type = %q", ct)
	}
	etag := rec.Header().Get("ETag")
	if rec := get(t, h, "GET", "/app/assets/index-abc.js", map[string]string{"If-None-Match": etag}); rec.Code != http.StatusNotModified {
		t.Errorf("conditional GET: %d", rec.Code)
	}
}

func TestHistoryRoutesGetIndexWithoutCache(t *testing.T) {
	h := newHandler(built)
	for _, p := range []string{"/app/", "/app/shops/1", "/app/login", "/app/index.html"} {
		rec := get(t, h, "GET", p, nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<title>app</title>") {
			t.Fatalf("%s: %d %q", p, rec.Code, rec.Body.String())
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control = %q", p, cc)
		}
		if rec.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no CSP", p)
		}
	}
}

func TestMissingAssetIs404(t *testing.T) {
	h := newHandler(built)
	for _, p := range []string{"/app/assets/old-123.js", "/app/README.md", "/app/nope.png", "/elsewhere"} {
		if rec := get(t, h, "GET", p, nil); rec.Code != 404 {
			t.Errorf("%s: %d", p, rec.Code)
		}
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	h := newHandler(built)
	if rec := get(t, h, "POST", "/app/", nil); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
	if rec := get(t, h, "HEAD", "/app/", nil); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d %d bytes", rec.Code, rec.Body.Len())
	}
}

func TestNotBuiltSaysHowToBuild(t *testing.T) {
	h := newHandler(fstest.MapFS{"README.md": {Data: []byte("readme")}})
	rec := get(t, h, "GET", "/app/shops/1", nil)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "make app-assets") {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
}

func TestEmbeddedCompiles(t *testing.T) {
	// Whatever dist holds (README only, or a build), Handler must not panic.
	rec := get(t, Handler(), "GET", "/app/", nil)
	if rec.Code != 200 && rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("GET /app/: %d", rec.Code)
	}
}
