// Package webapp serves the single-page app (web/app, Vue + Vite) that the
// Go binary embeds, to be mounted at /app/:
//
//	mux.Handle("/app/", webapp.Handler())
//
// The built files come from web/app/dist, which `make app-assets` fills (npm
// ci and vite build); only dist/README.md is committed, so this package
// compiles without npm. A binary built without the app answers every /app/
// page with a short page saying how to build it.
//
// The app's routes are declared once, in src/routes.json (name → path
// pattern), which src/router.ts imports: a path under /app/ that is neither
// a file of the build nor one of those routes is answered with HTTP 404 (and
// the app, which shows its not-found page).
package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Prefix is the path the handler is mounted at; Vite builds with base "/app/".
const Prefix = "/app/"

//go:embed all:dist
var embedded embed.FS

//go:embed src/routes.json
var routesJSON []byte

// routes are the app's route patterns (src/routes.json), parsed once.
var routes = mustParseRoutes(routesJSON)

// A route pattern in vue-router's syntax, the part of it the app uses: literal
// segments (matched ignoring case, as vue-router does), ":name" (any one
// segment) and ":name(\\d+)" (digits). Anything else is refused at start-up
// (and by the tests), so the server never guesses what the router would do.
type route struct {
	name     string
	segments []segment
}

type segment struct {
	literal string // when neither param nor digits
	param   bool   // any one non-empty segment
	digits  bool   // one segment of digits
}

var paramRE = regexp.MustCompile(`^:[A-Za-z_][A-Za-z0-9_]*(\(\\d\+\))?$`)

func mustParseRoutes(b []byte) []route {
	var byName map[string]string
	if err := json.Unmarshal(b, &byName); err != nil {
		panic(fmt.Sprintf("webapp: src/routes.json: %v", err))
	}
	out := make([]route, 0, len(byName))
	for name, pattern := range byName {
		r, err := parseRoute(name, pattern)
		if err != nil {
			panic(fmt.Sprintf("webapp: src/routes.json: %v", err))
		}
		out = append(out, r)
	}
	return out
}

func parseRoute(name, pattern string) (route, error) {
	if !strings.HasPrefix(pattern, "/") {
		return route{}, fmt.Errorf("route %q: path %q does not start with /", name, pattern)
	}
	r := route{name: name}
	for _, s := range splitPath(pattern) {
		switch {
		case strings.HasPrefix(s, ":"):
			m := paramRE.FindStringSubmatch(s)
			if m == nil {
				return route{}, fmt.Errorf("route %q: parameter %q is not :name or :name(\\d+)", name, s)
			}
			r.segments = append(r.segments, segment{param: m[1] == "", digits: m[1] != ""})
		case strings.ContainsAny(s, "()*+?:"):
			return route{}, fmt.Errorf("route %q: segment %q uses syntax the server does not know", name, s)
		default:
			r.segments = append(r.segments, segment{literal: s})
		}
	}
	return r, nil
}

// splitPath splits "/a/b/" into ["a", "b"]; "/" is no segment at all.
func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// routeOf returns the name of the app's route rel (the path after /app/)
// is, and false when it is none. A trailing slash is allowed, as vue-router
// allows it.
func routeOf(rel string) (string, bool) {
	segs := splitPath(rel)
	if strings.Contains(rel, "//") {
		return "", false
	}
next:
	for _, r := range routes {
		if len(r.segments) != len(segs) {
			continue
		}
		for i, s := range r.segments {
			switch {
			case s.digits && !isDigits(segs[i]), s.param && segs[i] == "",
				!s.param && !s.digits && !strings.EqualFold(s.literal, segs[i]):
				continue next
			}
		}
		return r.name, true
	}
	return "", false
}

// Handler serves the embedded build under Prefix (it handles the prefix
// itself, so mount it as is). It answers GET and HEAD only.
func Handler() http.Handler {
	dist, err := fs.Sub(embedded, "dist")
	if err != nil { // only for a malformed literal path
		panic(err)
	}
	return newHandler(dist)
}

type file struct {
	data        []byte
	etag        string
	contentType string
	// gz is data gzipped once at start-up, nil when that does not pay
	// (images, tiny files); sent to clients that accept gzip.
	gz []byte
}

type handler struct {
	files map[string]file // by path relative to dist, e.g. "assets/index-abc.js"
	index *file           // nil when the app is not built
	// pages are the index page as sent for each route whose page has files
	// of its own to preload (by route name), see withPreloads.
	pages map[string]file
}

// newHandler reads every file of the build once (a few hundred kilobytes);
// tests pass their own fs.FS.
func newHandler(dist fs.FS) http.Handler {
	h := &handler{files: map[string]file{}}
	_ = fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "README.md" {
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir // e.g. Vite's .vite/manifest.json
			}
			return nil
		}
		b, err := fs.ReadFile(dist, p)
		if err != nil {
			return nil
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(p))
		if path.Ext(p) == ".webmanifest" { // not in every system's MIME table
			ct = "application/manifest+json"
		}
		if ct == "" {
			ct = http.DetectContentType(b)
		}
		h.files[p] = file{data: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, contentType: ct, gz: compress(b, ct)}
		return nil
	})
	if f, ok := h.files["index.html"]; ok {
		h.index = &f
		h.pages = withPreloads(dist, f, h.files)
	}
	return h
}

// preloadFile is written by the build (vite.config.ts, plugin
// "route-preloads"): for each route, by name, the files of the build its
// page needs beyond the entry's.
const preloadFile = ".vite/preload.json"

// withPreloads makes, for each route of preloadFile, the index page with
// a link for each of its page's files before </head>: modulepreload for
// JavaScript, preload for CSS. The browser then fetches the page's chunk
// with the entry, not after the entry has run and the router asked for
// it. Files not in the build, and a build without preloadFile, add nothing.
func withPreloads(dist fs.FS, index file, files map[string]file) map[string]file {
	b, err := fs.ReadFile(dist, preloadFile)
	if err != nil {
		return nil
	}
	var byRoute map[string][]string
	if json.Unmarshal(b, &byRoute) != nil {
		return nil
	}
	head := bytes.LastIndex(index.data, []byte("</head>"))
	if head < 0 {
		return nil
	}
	head = bytes.LastIndexByte(index.data[:head], '\n') + 1 // the links go on lines of their own
	pages := map[string]file{}
	for name, list := range byRoute {
		var links bytes.Buffer
		for _, p := range list {
			if _, ok := files[p]; !ok || !strings.HasPrefix(p, "assets/") || strings.ContainsAny(p, `"<>&' `) {
				continue
			}
			switch path.Ext(p) {
			case ".js":
				fmt.Fprintf(&links, "    <link rel=\"modulepreload\" crossorigin href=\"%s%s\">\n", Prefix, p)
			case ".css":
				fmt.Fprintf(&links, "    <link rel=\"preload\" as=\"style\" crossorigin href=\"%s%s\">\n", Prefix, p)
			}
		}
		if links.Len() == 0 {
			continue
		}
		data := make([]byte, 0, len(index.data)+links.Len())
		data = append(append(append(data, index.data[:head]...), links.Bytes()...), index.data[head:]...)
		sum := sha256.Sum256(data)
		pages[name] = file{data: data, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, contentType: index.contentType, gz: compress(data, index.contentType)}
	}
	return pages
}

// The index page may only load what the build put next to it; it talks to
// /graphql (fetch, XHR uploads, websockets) and shows /images/ from this
// origin. Images on other hosts are allowed because the user may turn them on.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob: https:; font-src 'self'; connect-src 'self' ws: wss:; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	rel, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok {
		if r.URL.Path+"/" == Prefix {
			http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if h.index == nil {
		notBuilt(w, r)
		return
	}
	if f, found := h.files[rel]; found && rel != "index.html" {
		// Vite names everything under assets/ by its content hash. The
		// service worker and the manifest are checked at every use, so a new
		// build reaches installed apps at once.
		switch {
		case strings.HasPrefix(rel, "assets/"):
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		case rel == "sw.js" || rel == "manifest.webmanifest":
			w.Header().Set("Cache-Control", "no-cache")
		default:
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		serve(w, r, f)
		return
	}
	// A missing asset is a 404 (a stale page asking for an old chunk must
	// not get HTML back).
	if strings.HasPrefix(rel, "assets/") || path.Ext(rel) != "" && path.Ext(rel) != ".html" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Referrer-Policy", "no-referrer")
	name, ok := routeOf(rel)
	if !ok {
		// Not a page of the app: 404 for crawlers, links checkers and
		// monitors, with the app itself as the body, which shows its
		// not-found page.
		serveStatus(w, r, *h.index, http.StatusNotFound)
		return
	}
	if page, ok := h.pages[name]; ok {
		serve(w, r, page)
		return
	}
	serve(w, r, *h.index)
}

// serveStatus sends f with status code (no ranges, no conditional answers).
func serveStatus(w http.ResponseWriter, r *http.Request, f file, code int) {
	w.Header().Set("Content-Type", f.contentType)
	body := f.data
	if f.gz != nil {
		w.Header().Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			body = f.gz
			w.Header().Set("Content-Encoding", "gzip")
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// compress gzips text files of 1 KB or more when that saves a tenth.
func compress(b []byte, contentType string) []byte {
	textual := strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "javascript") ||
		strings.Contains(contentType, "json") || strings.Contains(contentType, "svg")
	if !textual || len(b) < 1024 {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	if buf.Len() > len(b)*9/10 {
		return nil
	}
	return buf.Bytes()
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

func serve(w http.ResponseWriter, r *http.Request, f file) {
	w.Header().Set("Content-Type", f.contentType)
	body, etag := f.data, f.etag
	if f.gz != nil {
		w.Header().Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			body, etag = f.gz, strings.TrimSuffix(f.etag, `"`)+`-gz"`
			w.Header().Set("Content-Encoding", "gzip")
		}
	}
	w.Header().Set("ETag", etag)
	// ServeContent answers If-None-Match with 304 and handles HEAD and ranges.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>hmdp app not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 3em auto; padding: 0 1em; line-height: 1.5">
<h1>The web app is not built into this binary</h1>
<p>Build it (needs Node.js and npm) and rebuild the server:</p>
<pre>make app-assets
make build</pre>
<p>or, for development, <code>make web-dev</code> (Vite dev server in front of a running server).</p>
<p>The GraphQL API is at <a href="/graphql">/graphql</a>.</p>
</body></html>
`

func notBuilt(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(notBuiltPage))
	}
}
