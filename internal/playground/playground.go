// Package playground serves the GraphiQL page at "/" of the API server.
//
// The GraphiQL and React browser bundles are embedded from assets/, which
// `make playground-assets` (web/assets.mk) fills from the npm registry at the
// versions pinned in web/package.json, so the page works offline. A binary
// built without them still serves a working page that loads the same pinned
// versions, integrity-checked, from a CDN, and logs that once at start-up.
package playground

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Versions of the npm packages the page loads. They must equal the exact
// versions in web/package.json (TestVersionsMatchPackageJSON) because the CDN
// fallback names them, and the integrity hashes below belong to them.
const (
	GraphiQLVersion = "3.8.3"
	ReactVersion    = "18.3.1"
	ReactDOMVersion = "18.3.1"
)

// cdnBase serves files straight out of npm tarballs, so a CDN copy has the
// same bytes (and integrity hash) as the embedded one.
const (
	cdnOrigin = "https://cdn.jsdelivr.net"
	cdnBase   = cdnOrigin + "/npm/"
)

// assetFiles are the third-party files the page needs, in load order. name is
// the file in assets/ (see web/assets.mk) and under static/ in URLs; pkg, ver
// and path locate it on the CDN; integrity is its Subresource Integrity hash,
// checked by TestIntegrityMatchesEmbeddedAssets whenever assets are embedded.
var assetFiles = []struct {
	name, pkg, ver, path, integrity string
}{
	{"graphiql.min.css", "graphiql", GraphiQLVersion, "graphiql.min.css", "sha384-Mq3vbRBY71jfjQAt/DcjxUIYY33ksal4cgdRt9U/hNPvHBCaT2JfJ/PTRiPKf0aM"},
	{"react.production.min.js", "react", ReactVersion, "umd/react.production.min.js", "sha384-DGyLxAyjq0f9SPpVevD6IgztCFlnMF6oW/XQGmfe+IsZ8TqEiDrcHkMLKI6fiB/Z"},
	{"react-dom.production.min.js", "react-dom", ReactDOMVersion, "umd/react-dom.production.min.js", "sha384-gTGxhz21lVGYNMcdJOyq01Edg0jhn/c22nsx0kyqP0TxaV5WVdsSH1fSDUf5YJj1"},
	{"graphiql.min.js", "graphiql", GraphiQLVersion, "graphiql.min.js", "sha384-HbRVEFG0JGJZeAHCJ9Xm2+tpknBQ7QZmNlO/DgZtkZ0aJSypT96YYGRNod99l9Ie"},
}

// all: so the directory embeds even when it holds nothing but README.md.
//
//go:embed all:assets
var embedded embed.FS

// boot.js is ours and always local: keeping it out of the HTML lets the
// Content-Security-Policy forbid inline scripts.
//
//go:embed boot.js
var bootJS []byte

//go:embed index.html
var indexSrc string

var indexTmpl = template.Must(template.New("index").Parse(indexSrc))

// CDNMessage is logged (Warn) once by New when the bundles are not embedded.
const CDNMessage = "playground assets not embedded; loading GraphiQL from CDN"

// New returns the playground handler, to be mounted at "/" (or, through
// http.StripPrefix, at any path ending in "/": the page uses relative URLs).
// endpoint is the GraphQL endpoint's path on the same origin, e.g. "/graphql";
// queries POST to it and subscriptions use graphql-transport-ws on the same
// path. A nil log means slog.Default().
func New(endpoint string, log *slog.Logger) http.Handler {
	files, err := fs.Sub(embedded, "assets")
	if err != nil { // only for a malformed literal path
		panic(err)
	}
	return newHandler(endpoint, files, log)
}

type staticFile struct {
	data []byte
	etag string
}

type pageHandler struct {
	index  []byte
	csp    string
	static map[string]staticFile
}

// newHandler takes the assets as an fs.FS so tests can pass an empty one.
func newHandler(endpoint string, files fs.FS, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	h := &pageHandler{static: map[string]staticFile{"boot.js": newStaticFile(bootJS)}}
	embeddedAll := true
	for _, a := range assetFiles {
		b, err := fs.ReadFile(files, a.name)
		if err != nil {
			embeddedAll = false
			break
		}
		h.static[a.name] = newStaticFile(b)
	}

	// A half-filled directory is treated as empty: the page then loads one
	// consistent set of versions from the CDN rather than a mix.
	var styles, scripts []ref
	extraOrigin := ""
	if !embeddedAll {
		h.static = map[string]staticFile{"boot.js": h.static["boot.js"]}
		extraOrigin = cdnOrigin
		log.Warn(CDNMessage, "hint", "run `make playground-assets` (needs npm) before go build")
	}
	for _, a := range assetFiles {
		r := ref{URL: cdnBase + a.pkg + "@" + a.ver + "/" + a.path, Integrity: a.integrity}
		if embeddedAll {
			r = ref{URL: h.url(a.name)}
		}
		if strings.HasSuffix(a.name, ".css") {
			styles = append(styles, r)
		} else {
			scripts = append(scripts, r)
		}
	}
	scripts = append(scripts, ref{URL: h.url("boot.js")})

	var buf bytes.Buffer
	if err := indexTmpl.Execute(&buf, page{
		Endpoint: endpoint, Styles: styles, Scripts: scripts,
		GraphiQLVersion: GraphiQLVersion,
	}); err != nil {
		panic(err) // the template and its data are fixed; tests execute it
	}
	h.index = buf.Bytes()
	h.csp = contentSecurityPolicy(endpoint, extraOrigin)
	return h
}

type ref struct{ URL, Integrity string }

type page struct {
	Endpoint        string
	Styles, Scripts []ref
	GraphiQLVersion string
}

func newStaticFile(b []byte) staticFile {
	sum := sha256.Sum256(b)
	return staticFile{data: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// url is relative so the page also works under a prefix; the content hash in
// the query changes the URL whenever the bytes change, which makes the
// year-long immutable caching below safe.
func (h *pageHandler) url(name string) string {
	return "static/" + name + "?v=" + strings.Trim(h.static[name].etag, `"`)
}

// contentSecurityPolicy allows scripts only from this origin (and the CDN in
// fallback mode). GraphiQL sets inline styles and embeds its fonts and icons
// as data: URLs, so those are allowed for styles, fonts and images.
func contentSecurityPolicy(endpoint, scriptOrigin string) string {
	// ws:/wss: because older browsers do not count a same-host websocket as 'self'.
	connect := "'self' ws: wss:"
	if u, err := url.Parse(endpoint); err == nil && u.Scheme != "" && u.Host != "" {
		connect += " " + u.Scheme + "://" + u.Host
	}
	src := "'self'"
	if scriptOrigin != "" {
		src += " " + scriptOrigin
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + src,
		"style-src " + src + " 'unsafe-inline'",
		"font-src 'self' data:",
		"img-src 'self' data:",
		"connect-src " + connect,
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'none'",
	}, "; ")
}

func (h *pageHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.URL.Path == "/" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", h.csp)
		// Revalidate the page so a new build's asset URLs are picked up.
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(h.index))
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, "/static/")
	f, found := h.static[name]
	if !ok || !found {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", f.etag)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	// ServeContent sets Content-Type from the extension and answers
	// If-None-Match with 304.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.data))
}
