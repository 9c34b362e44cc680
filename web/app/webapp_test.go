package webapp

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func get(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, target, nil)
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
	"sw.js":                {Data: []byte("self.addEventListener('fetch', () => {})")},
	"manifest.webmanifest": {Data: []byte(`{"name":"hmdp"}`)},
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
	for _, p := range []string{"/app/", "/app/shops/1", "/app/login", "/app/login?redirect=/me", "/app/SHOPS/1/", "/app/types/2"} {
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

// Unknown /app/ paths are not pages: 404, with the app as the body (it
// shows its not-found page), never cached, HEAD and gzip alike.
func TestUnknownAppPathsAre404(t *testing.T) {
	h := newHandler(built)
	for _, p := range []string{"/app/nope", "/app/shops/abc", "/app/shops/1/more", "/app/shops/", "/app/index.html", "/app/me/x"} {
		rec := get(t, h, "GET", p, nil)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "<title>app</title>") {
			t.Errorf("%s: %d %q", p, rec.Code, rec.Body.String())
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control = %q", p, cc)
		}
		if rec.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no CSP", p)
		}
	}
	if rec := get(t, h, "HEAD", "/app/nope", nil); rec.Code != http.StatusNotFound || rec.Body.Len() != 0 {
		t.Errorf("HEAD /app/nope: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	big := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>app</title>" + strings.Repeat("<p>padding</p>", 200))}}
	rec := get(t, newHandler(big), "GET", "/app/nope", map[string]string{"Accept-Encoding": "gzip"})
	zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
	if rec.Code != http.StatusNotFound || err != nil {
		t.Fatalf("gzip: %d %v", rec.Code, err)
	}
	if b, _ := io.ReadAll(zr); !strings.Contains(string(b), "<title>app</title>") {
		t.Errorf("gzip body %q", b)
	}
}

// The service worker and the manifest are revalidated at every use, so a new
// build reaches installed apps; the manifest has its own type.
func TestServiceWorkerAndManifestNotCached(t *testing.T) {
	h := newHandler(built)
	for p, ct := range map[string]string{"/app/sw.js": "text/javascript", "/app/manifest.webmanifest": "application/manifest+json"} {
		rec := get(t, h, "GET", p, nil)
		if rec.Code != 200 || rec.Header().Get("Cache-Control") != "no-cache" || !strings.HasPrefix(rec.Header().Get("Content-Type"), ct) {
			t.Errorf("%s: %d %v", p, rec.Code, rec.Header())
		}
	}
}

// Every route of src/router.ts takes its path from src/routes.json (the file
// the server reads), under its own name, and the server answers 200 for it;
// the one other route is the router's catch-all (the not-found page).
func TestEveryRouterRouteIsKnownToTheServer(t *testing.T) {
	src, err := os.ReadFile("src/router.ts")
	if err != nil {
		t.Fatal(err)
	}
	var byName map[string]string
	if err := json.Unmarshal(routesJSON, &byName); err != nil {
		t.Fatal(err)
	}
	h := newHandler(built)
	pathRE := regexp.MustCompile(`\{ path: ([^,]+), name: '([^']+)'`)
	found := pathRE.FindAllStringSubmatch(string(src), -1)
	if n := strings.Count(string(src), "path:"); n != len(found) || n < len(byName)+1 {
		t.Fatalf("router.ts has %d routes (path:), %d read as { path: …, name: '…' }; routes.json has %d", n, len(found), len(byName))
	}
	seen := map[string]bool{}
	for _, m := range found {
		expr, name := m[1], m[2]
		if name == "notfound" {
			if expr != "'/:rest(.*)*'" {
				t.Errorf("the catch-all route is %s", expr)
			}
			continue
		}
		if expr != "paths."+name {
			t.Errorf("route %q: path %s, want paths.%s (src/routes.json, which the server reads)", name, expr, name)
			continue
		}
		pattern, ok := byName[name]
		if !ok {
			t.Errorf("route %q is not in src/routes.json", name)
			continue
		}
		seen[name] = true
		example := "/app" + strings.NewReplacer(`:id(\d+)`, "42").Replace(pattern)
		if rec := get(t, h, "GET", example, nil); rec.Code != 200 {
			t.Errorf("route %q: GET %s = %d", name, example, rec.Code)
		}
	}
	for name := range byName {
		if !seen[name] {
			t.Errorf("src/routes.json has %q, which router.ts does not use", name)
		}
	}
	if rec := get(t, h, "GET", "/app/nope", nil); rec.Code != http.StatusNotFound {
		t.Errorf("/app/nope: %d", rec.Code)
	}
	if rec := get(t, h, "GET", "/app/shops/1", nil); rec.Code != 200 {
		t.Errorf("/app/shops/1: %d", rec.Code)
	}
}

// A pattern the server cannot match exactly as vue-router does is refused.
func TestRouteSyntaxTheServerDoesNotKnowIsRefused(t *testing.T) {
	for _, p := range []string{"shops", "/shops/:id(\\w+)", "/shops/:id?", "/files/:rest(.*)*", "/a*"} {
		if _, err := parseRoute("x", p); err == nil {
			t.Errorf("%q accepted", p)
		}
	}
	for _, p := range []string{"/", "/me", "/shops/:id", `/shops/:id(\d+)`} {
		if _, err := parseRoute("x", p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}

// The index page sent for a route names its page's files (the build's
// .vite/preload.json) as preload links, so that the browser fetches them
// with the entry; other routes, and 404s, get the index page as built.
func TestRoutePagesPreloadTheirFiles(t *testing.T) {
	dist := fstest.MapFS{
		"index.html":              {Data: []byte("<!doctype html><html><head><title>app</title><script type=\"module\" src=\"/app/assets/index-abc.js\"></script></head><body></body></html>")},
		"assets/index-abc.js":     {Data: []byte("console.log(1)")},
		"assets/ShopPage-abc.js":  {Data: []byte("export default 1")},
		"assets/ShopPage-abc.css": {Data: []byte(".shop{}")},
		"assets/api-abc.js":       {Data: []byte("export const api = 1")},
		"assets/HomePage-abc.js":  {Data: []byte("export default 2")},
		".vite/manifest.json":     {Data: []byte("{}")},
		".vite/preload.json": {Data: []byte(`{
			"shop": ["assets/ShopPage-abc.js", "assets/ShopPage-abc.css", "assets/api-abc.js"],
			"home": ["assets/HomePage-abc.js", "assets/gone-abc.js", "assets/x\"><script>alert(1)</script>.js"],
			"me": ["assets/gone-abc.js"]
		}`)},
	}
	h := newHandler(dist)
	body := func(target string) (int, string, string) {
		rec := get(t, h, "GET", target, nil)
		return rec.Code, rec.Body.String(), rec.Header().Get("ETag")
	}
	code, shop, shopTag := body("/app/shops/7")
	if code != 200 {
		t.Fatalf("/app/shops/7: %d", code)
	}
	for _, want := range []string{
		`<link rel="modulepreload" crossorigin href="/app/assets/ShopPage-abc.js">`,
		`<link rel="preload" as="style" crossorigin href="/app/assets/ShopPage-abc.css">`,
		`<link rel="modulepreload" crossorigin href="/app/assets/api-abc.js">`,
	} {
		if !strings.Contains(shop, want) {
			t.Errorf("/app/shops/7 lacks %s:\n%s", want, shop)
		}
	}
	if i, j := strings.Index(shop, "ShopPage-abc.js"), strings.Index(shop, "</head>"); i < 0 || i > j {
		t.Errorf("the links are not in the head:\n%s", shop)
	}
	_, home, homeTag := body("/app/")
	if !strings.Contains(home, `href="/app/assets/HomePage-abc.js"`) || strings.Contains(home, "ShopPage") {
		t.Errorf("/app/:\n%s", home)
	}
	// Only files of the build, named as the build names them.
	if strings.Contains(home, "gone-abc") || strings.Contains(home, "alert") {
		t.Errorf("/app/ links a file that is not in the build:\n%s", home)
	}
	if shopTag == homeTag || shopTag == "" {
		t.Errorf("ETags: shop %s, home %s", shopTag, homeTag)
	}
	// A route with nothing to preload, and a path that is no route, get the index as built.
	for _, target := range []string{"/app/me", "/app/nope"} {
		_, b, _ := body(target)
		if b != string(dist["index.html"].Data) {
			t.Errorf("%s: %s", target, b)
		}
	}
	// gzip and conditional requests work on a route's page as on the index.
	rec := get(t, h, "GET", "/app/shops/7", map[string]string{"If-None-Match": shopTag})
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", rec.Code)
	}
	// Without the file (a build before it existed), every route gets the index as built.
	delete(dist, ".vite/preload.json")
	if rec := get(t, newHandler(dist), "GET", "/app/shops/7", nil); rec.Body.String() != string(dist["index.html"].Data) {
		t.Errorf("without preload.json: %s", rec.Body.String())
	}
}
