// Package webapp serves the single-page app (web/app, Vue + Vite) that the
// Go binary embeds, to be mounted at /app/:
//
//	mux.Handle("/app/", webapp.Handler())
//
// The built files come from web/app/dist, which `make app-assets` fills (npm
// ci and vite build); only dist/README.md is committed, so this package
// compiles without npm. A binary built without the app answers every /app/
// page with a short page saying how to build it.
package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// Prefix is the path the handler is mounted at; Vite builds with base "/app/".
const Prefix = "/app/"

//go:embed all:dist
var embedded embed.FS

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
		if ct == "" {
			ct = http.DetectContentType(b)
		}
		h.files[p] = file{data: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, contentType: ct, gz: compress(b, ct)}
		return nil
	})
	if f, ok := h.files["index.html"]; ok {
		h.index = &f
	}
	return h
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
		// Vite names everything under assets/ by its content hash.
		if strings.HasPrefix(rel, "assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		serve(w, r, f)
		return
	}
	// A missing asset is a 404 (a stale page asking for an old chunk must
	// not get HTML back); any other path is a route of the app.
	if strings.HasPrefix(rel, "assets/") || path.Ext(rel) != "" && path.Ext(rel) != ".html" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Referrer-Policy", "no-referrer")
	serve(w, r, *h.index)
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
