// Package responsecache answers repeated requests from memory, without running
// them through GraphQL again, when their answer cannot have changed: repeated
// anonymous queries of public data, and attempts at a flash sale this
// instance knows is sold out.
//
// A response is kept only when the operation is a query whose every root
// field is a registered Root, selecting only that root's pure fields (values
// computed from the object alone, like a shop's name), with no directives.
// Such an answer is a function of the request bytes and of the objects the
// roots read. Each kept answer remembers those objects, taken from Root.Current
// before the query ran; a later request with the same bytes is answered from
// memory only while Current still returns the very same objects (pointer
// identity). The objects come from the near cache, which shares one value per
// id among readers until it is invalidated (a write on any instance) or
// expires, so a kept answer is never staler than a query run at that moment
// would be. A root's side effects on read (a shop's visitor count) run again
// on every answer from memory, through Root.Served.
//
// A root may instead be a mutation answered to logged-in viewers (any of
// them): it is kept only when Root.Keep says the answer depends on none of
// them, as the OUT_OF_STOCK of a sale known sold out does.
//
// HTTP caches are told the same: an anonymous GET answer that can be kept is
// "public, no-cache" with an ETag (a conditional request is answered 304, its
// side effects still run), anything else "no-store", and anything answered to
// a logged-in viewer "private, no-store".
package responsecache

import (
	"bytes"
	"context"
	"hash/fnv"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/hmdp/hmdp/internal/promreg"
)

// Root is a root field whose answers can be kept.
type Root struct {
	// Mutation: a Mutation field, alone in its operation (else a Query field).
	Mutation bool
	// LoggedIn: answers to logged-in viewers are kept, whoever they are
	// (else answers to anonymous ones).
	LoggedIn bool
	// Fields are the fields of the returned object that are pure functions
	// of the value Current returns ("__typename" is always allowed). Nil
	// allows any selection: for roots whose kept answers (see Keep) show none.
	Fields map[string]bool
	// Current returns the value the field's resolver would read now, for its
	// arguments; a kept answer holds while it returns the same value. The
	// value must be comparable: a pointer the resolvers share, or nil.
	Current func(ctx context.Context, args map[string]any) (any, error)
	// Served repeats the field's side effects for an answer from memory
	// (value is Current's); nil when it has none.
	Served func(ctx context.Context, args map[string]any, value any)
	// Keep tells whether resp, made while Current returned value, can be
	// kept; nil keeps answers without errors.
	Keep func(resp *graphql.Response, value any) bool
}

// Config sets up a Cache.
type Config struct {
	// Disabled keeps no answers; the Cache-Control headers are still set.
	Disabled bool
	Roots    map[string]Root
	// Anonymous tells whether a request is nobody's in particular: only
	// those are answered from, or kept in, the cache.
	Anonymous func(context.Context) bool
	// MaxEntries bounds the answers kept (default 10 000).
	MaxEntries int
	// MaxBytes bounds the memory the kept answers take, keys included
	// (default 32 MiB): whichever of the two is reached first starts the
	// cache over.
	MaxBytes int
	// Counter is the server's per-operation counter of an operation name,
	// which answers from memory still count; may be nil.
	Counter    func(operation string) prometheus.Counter
	Registerer prometheus.Registerer
}

const (
	maxKey      = 4 << 10  // longest request (body or query string) considered
	maxResponse = 64 << 10 // longest answer kept
	// entryOverhead is what an entry costs besides its key and body: the
	// entry, its map slot, the ETag, the content type and the roots'
	// arguments (a few small maps), rounded up.
	entryOverhead = 512
)

// Cache keeps answers by request.
type Cache struct {
	cfg                  Config
	hits, stored, passed prometheus.Counter

	mu    sync.RWMutex
	m     map[string]*entry
	bytes int // cost of the entries in m, as entryCost counts it
}

// entry is a kept answer and what it was made from.
type entry struct {
	body        []byte
	etag        string
	loggedIn    bool
	contentType string
	counted     prometheus.Counter // nil when Config.Counter is
	deps        []dep
}

// dep is one root field of a kept answer: its arguments and the value it read.
type dep struct {
	root  *Root
	args  map[string]any
	value any
}

// New returns a cache for cfg.
func New(cfg Config) *Cache {
	if cfg.MaxEntries <= 0 {
		cfg.MaxEntries = 10_000
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 32 << 20
	}
	c := &Cache{cfg: cfg, m: map[string]*entry{}}
	results := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hmdp_response_cache_total",
		Help: "GraphQL requests over HTTP (websockets aside) by what the response cache did: hit (answered from memory), stored (run and kept), pass (run, not kept).",
	}, []string{"result"})
	if cfg.Registerer != nil {
		results = promreg.Register(cfg.Registerer, results)
	}
	c.hits, c.stored, c.passed = results.WithLabelValues("hit"), results.WithLabelValues("stored"), results.WithLabelValues("pass")
	return c
}

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Handler answers what it can from memory and keeps what next answers that
// can be kept. It belongs inside the middleware that identifies the viewer
// and limits bodies, and outside gqlgen.
func (c *Cache) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r)
			return
		}
		loggedIn := !c.cfg.Anonymous(r.Context())
		cacheControl := "no-store"
		if loggedIn {
			cacheControl = "private, no-store"
		}
		buf := buffers.Get().(*bytes.Buffer)
		buf.Reset()
		defer buffers.Put(buf)
		if c.cfg.Disabled || !c.requestKey(buf, r, loggedIn) {
			w.Header().Set("Cache-Control", cacheControl)
			next.ServeHTTP(w, r)
			return
		}
		c.mu.RLock()
		e := c.m[string(buf.Bytes())] // no allocation for the lookup
		c.mu.RUnlock()
		if e != nil && c.serve(w, r, e) {
			return
		}
		rec := &recording{loggedIn: loggedIn}
		cw := &capturingWriter{ResponseWriter: w, rec: rec, public: r.Method == http.MethodGet && !loggedIn, cacheControl: cacheControl}
		next.ServeHTTP(cw, r.WithContext(context.WithValue(r.Context(), recordingKey{}, rec)))
		if !rec.keep() || cw.status != http.StatusOK || cw.overflow {
			c.passed.Inc()
			return
		}
		body := bytes.Clone(cw.body.Bytes())
		e = &entry{body: body, etag: etag(body), contentType: cw.Header().Get("Content-Type"), deps: rec.deps, loggedIn: loggedIn}
		if c.cfg.Counter != nil {
			e.counted = c.cfg.Counter(rec.operation)
		}
		c.store(buf.String(), e)
		c.stored.Inc()
	})
}

// requestKey writes r's key into buf: whether a viewer is logged in, the
// method, the content type the Accept header picks (one of two, see
// responseType: the header itself is the client's to fill, and would let
// one answer be kept once per spelling) and the request itself (the JSON
// body of a POST, the query string of a GET). POST bodies are read and put
// back for next. It reports false for requests that are not candidates.
func (c *Cache) requestKey(buf *bytes.Buffer, r *http.Request, loggedIn bool) bool {
	if loggedIn {
		buf.WriteString("L")
	} else {
		buf.WriteString("A")
	}
	switch r.Method {
	case http.MethodGet:
		if len(r.URL.RawQuery) > maxKey {
			return false
		}
		buf.WriteString("GET\x00")
		buf.WriteString(responseType(r.Header.Get("Accept")))
		buf.WriteByte(0)
		buf.WriteString(r.URL.RawQuery)
		return true
	case http.MethodPost:
		if !isJSON(r.Header.Get("Content-Type")) || r.Body == nil {
			return false
		}
		buf.WriteString("POST\x00")
		buf.WriteString(responseType(r.Header.Get("Accept")))
		buf.WriteByte(0)
		start := buf.Len()
		_, err := io.Copy(buf, io.LimitReader(r.Body, maxKey+1))
		if err != nil || buf.Len()-start > maxKey {
			// Not a candidate: next reads what was read, then the rest.
			read := bytes.Clone(buf.Bytes()[start:])
			r.Body = readCloser{io.MultiReader(bytes.NewReader(read), r.Body), r.Body}
			return false
		}
		// next reads the body from buf, which outlives it (Handler).
		r.Body = readCloser{bytes.NewReader(buf.Bytes()[start:]), r.Body}
		return true
	}
	return false
}

// responseType is the content type gqlgen's HTTP transports answer a request
// with, from its Accept header (transport.determineResponseContentType, for
// transports without ResponseHeaders or UseGrapQLResponseJsonByDefault, as
// the server's are): the first of its media types that names JSON or any
// type, else application/graphql-response+json.
func responseType(accept string) string {
	const (
		jsonType    = "application/json"
		graphqlType = "application/graphql-response+json"
	)
	switch accept {
	case "", "*/*", jsonType: // the common ones, without allocations
		return jsonType
	case graphqlType:
		return graphqlType
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", jsonType:
			return jsonType
		case graphqlType:
			return graphqlType
		}
	}
	return graphqlType
}

// isJSON is the media type check of gqlgen's POST transport without the
// allocations of mime.ParseMediaType, for the common spellings.
func isJSON(ct string) bool {
	const mt = "application/json"
	return len(ct) >= len(mt) && strings.EqualFold(ct[:len(mt)], mt) && (len(ct) == len(mt) || ct[len(mt)] == ';')
}

type readCloser struct {
	io.Reader
	io.Closer
}

// serve answers from e if every value it was made from is still current.
func (c *Cache) serve(w http.ResponseWriter, r *http.Request, e *entry) bool {
	ctx := r.Context()
	for _, d := range e.deps {
		v, err := d.root.Current(ctx, d.args)
		if err != nil || v != d.value {
			return false
		}
	}
	for _, d := range e.deps {
		if d.root.Served != nil {
			d.root.Served(ctx, d.args, d.value)
		}
	}
	if e.counted != nil {
		e.counted.Inc()
	}
	c.hits.Inc()
	h := w.Header()
	h.Set("Content-Type", e.contentType)
	if r.Method != http.MethodGet || e.loggedIn {
		h.Set("Cache-Control", "no-store")
		if e.loggedIn {
			h.Set("Cache-Control", "private, no-store")
		}
		_, _ = w.Write(e.body)
		return true
	}
	h.Set("Cache-Control", "public, no-cache")
	varyAccept(h)
	h.Set("ETag", e.etag)
	if matches(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	_, _ = w.Write(e.body)
	return true
}

// etag is a strong validator of body.
func etag(body []byte) string {
	h := fnv.New64a()
	_, _ = h.Write(body)
	return `"` + strconv.FormatUint(h.Sum64(), 36) + `"`
}

// matches tells whether an If-None-Match header names tag (or is "*").
func matches(header, tag string) bool {
	for f := range strings.SplitSeq(header, ",") {
		f = strings.TrimSpace(f)
		if f == "*" || strings.TrimPrefix(f, "W/") == tag {
			return true
		}
	}
	return false
}

// varyAccept adds Accept to h's Vary header (the answer depends on the
// content type Accept picks) unless it is there already: the middleware
// outside (CORS) may have put its own, which must stay.
func varyAccept(h http.Header) {
	for _, v := range h.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept") {
				return
			}
		}
	}
	h.Add("Vary", "Accept")
}

// entryCost is what keeping e under key takes, roughly, in bytes.
func entryCost(key string, e *entry) int {
	return len(key) + len(e.body) + entryOverhead + 128*len(e.deps)
}

func (c *Cache) store(key string, e *entry) {
	cost := entryCost(key, e)
	if cost > c.cfg.MaxBytes {
		return // never: Handler keeps only short requests and answers
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok {
		c.bytes -= entryCost(key, old)
		delete(c.m, key)
	}
	if len(c.m) >= c.cfg.MaxEntries || c.bytes+cost > c.cfg.MaxBytes {
		// Entries do not expire (they are checked on use): start over rather
		// than grow, as the near cache does.
		clear(c.m)
		c.bytes = 0
	}
	c.m[key] = e
	c.bytes += cost
}

// Len is the number of answers kept.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// Bytes is the memory the kept answers take, as the MaxBytes bound counts it.
func (c *Cache) Bytes() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.bytes
}

// recording is what gqlgen's hooks tell Handler about one request.
type recording struct {
	loggedIn  bool
	planned   bool // the operation can be kept if its answer is; deps hold its values
	resp      *graphql.Response
	operation string // as the document names it
	deps      []dep
}

type recordingKey struct{}

// keep tells whether the answer can be kept: planned, and each root's Keep
// (or, without one, no errors) accepts it.
func (rec *recording) keep() bool {
	if !rec.planned || rec.resp == nil {
		return false
	}
	for _, d := range rec.deps {
		if d.root.Keep != nil {
			if !d.root.Keep(rec.resp, d.value) {
				return false
			}
		} else if len(rec.resp.Errors) > 0 {
			return false
		}
	}
	return true
}

// AroundOperations is gqlgen's operation hook: for a request Handler may
// keep, it decides whether the operation qualifies and, if so, reads each
// root's current value before the resolvers run. A value that changes while
// they run then no longer matches, so the answer is never used stale.
func (c *Cache) AroundOperations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if rec, ok := ctx.Value(recordingKey{}).(*recording); ok {
		c.plan(ctx, rec, graphql.GetOperationContext(ctx))
	}
	return next(ctx)
}

// AroundResponses is gqlgen's response hook: it notes the answer, for Keep.
func (c *Cache) AroundResponses(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if rec, ok := ctx.Value(recordingKey{}).(*recording); ok {
		rec.resp = resp
	}
	return resp
}

func (c *Cache) plan(ctx context.Context, rec *recording, oc *graphql.OperationContext) {
	op := oc.Operation
	if op == nil || len(op.Directives) > 0 || (op.Operation != ast.Query && op.Operation != ast.Mutation) {
		return
	}
	mutation := op.Operation == ast.Mutation
	var deps []dep
	ok := walk(oc.Doc, op.SelectionSet, func(f *ast.Field) bool {
		if f.Name == "__typename" {
			return !mutation
		}
		root, known := c.cfg.Roots[f.Name]
		if !known || root.Mutation != mutation || root.LoggedIn != rec.loggedIn ||
			(root.Fields != nil && !pure(oc.Doc, f.SelectionSet, root.Fields)) {
			return false
		}
		args := f.ArgumentMap(oc.Variables)
		v, err := root.Current(ctx, args)
		if err != nil {
			return false
		}
		deps = append(deps, dep{root: &root, args: args, value: v})
		return true
	})
	if !ok || len(deps) == 0 || (mutation && len(deps) != 1) {
		return
	}
	rec.planned, rec.operation, rec.deps = true, op.Name, deps
}

// pure tells whether set selects only allowed scalar fields.
func pure(doc *ast.QueryDocument, set ast.SelectionSet, allowed map[string]bool) bool {
	return walk(doc, set, func(f *ast.Field) bool {
		return len(f.SelectionSet) == 0 && (f.Name == "__typename" || allowed[f.Name])
	})
}

// walk calls fn for each field of set, through fragments, and reports whether
// every call returned true. Any directive (@skip, @include, or another)
// makes the selection not cacheable.
func walk(doc *ast.QueryDocument, set ast.SelectionSet, fn func(*ast.Field) bool) bool {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if len(s.Directives) > 0 || !fn(s) {
				return false
			}
		case *ast.InlineFragment:
			if len(s.Directives) > 0 || !walk(doc, s.SelectionSet, fn) {
				return false
			}
		case *ast.FragmentSpread:
			frag := doc.Fragments.ForName(s.Name)
			if frag == nil || len(s.Directives) > 0 || len(frag.Directives) > 0 || !walk(doc, frag.SelectionSet, fn) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// capturingWriter passes an answer through and keeps a copy of it.
// It also sets the Cache-Control header, when the answer starts: by then
// gqlgen's hooks have told whether the answer can be kept.
type capturingWriter struct {
	http.ResponseWriter
	rec          *recording
	public       bool   // an anonymous GET: HTTP caches may keep what can be kept
	cacheControl string // for anything else
	status       int
	body         bytes.Buffer
	overflow     bool
}

func (cw *capturingWriter) WriteHeader(status int) {
	if cw.status == 0 {
		cw.status = status
		cc := cw.cacheControl
		if cw.public && status == http.StatusOK && cw.rec.keep() {
			cc = "public, no-cache" // the ETag comes with the next answer, from memory
			varyAccept(cw.Header())
		}
		cw.Header().Set("Cache-Control", cc)
	}
	cw.ResponseWriter.WriteHeader(status)
}

func (cw *capturingWriter) Write(b []byte) (int, error) {
	if cw.status == 0 {
		cw.WriteHeader(http.StatusOK)
	}
	if !cw.rec.planned {
		cw.overflow = true // nothing to keep: no copy
	}
	if !cw.overflow {
		if cw.body.Len()+len(b) > maxResponse {
			cw.overflow = true
			cw.body = bytes.Buffer{}
		} else {
			cw.body.Write(b)
		}
	}
	return cw.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (cw *capturingWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }
