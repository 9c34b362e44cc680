package image

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// newTestS3 is the S3 store of HMDP_TEST_S3_* (scripts/s3-server.sh) under
// a prefix of the test's own; it skips the test when none is configured.
func newTestS3(t *testing.T, transport http.RoundTripper) *S3 {
	t.Helper()
	e := testenv.RealS3(t)
	s, err := NewS3(t.Context(), S3Config{Endpoint: e.Endpoint, Region: e.Region, Bucket: e.Bucket, Prefix: e.Prefix,
		AccessKey: e.AccessKey, SecretKey: e.SecretKey, Transport: transport})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// objects lists the keys under the store's prefix.
func (s *S3) objects(t *testing.T) []string {
	t.Helper()
	var keys []string
	for o := range s.core.Client.ListObjects(t.Context(), s.bucket, minio.ListObjectsOptions{Prefix: s.prefix, Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		keys = append(keys, strings.TrimPrefix(o.Key, s.prefix))
	}
	return keys
}

// requestCounter counts the requests of each method that pass through it.
type requestCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *requestCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[r.Method]++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (c *requestCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

// An upload in the object store: its variants are made once and stored
// there beside it, every variant is served with one GET of the store (a
// Range request with one more), a conditional request too, and a removal
// leaves nothing under the prefix.
func TestS3StoresAndServesVariants(t *testing.T) {
	t.Parallel()
	counter := &requestCounter{n: map[string]int{}}
	s3 := newTestS3(t, counter)
	store := NewWithBlobs(s3)
	ctx := t.Context()
	path, err := store.Save(ctx, bytes.NewReader(testPNG(t, 600, 400, false)))
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(blobOf(path), ".png")
	want := []string{base + ".png", base + ".w240.jpg", base + ".w240.webp", base + ".w480.jpg", base + ".w480.webp",
		base + ".w960.jpg", base + ".w960.webp"}
	if got := s3.objects(t); !sameSet(got, want) {
		t.Fatalf("objects %v, want %v", got, want)
	}
	if n := counter.take(); n[http.MethodPut] != len(want) {
		t.Fatalf("requests of the upload %v, want %d PUTs", n, len(want))
	}

	h := store.Handler()
	serve := func(target string, header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		r.SetPathValue("name", strings.TrimPrefix(r.URL.Path, URLPrefix))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, c := range []struct{ query, accept, typ, blob string }{
		{"?w=200", "image/webp", "image/webp", base + ".w240.webp"},
		{"?w=400", "", "image/jpeg", base + ".w480.jpg"},
		{"?w=2000", "image/avif,image/webp", "image/webp", base + ".w960.webp"},
		{"", "", "image/png", base + ".png"},
	} {
		w := serve(path+c.query, "Accept", c.accept)
		stored, _ := readAll(t, s3, c.blob)
		if w.Code != 200 || w.Header().Get("Content-Type") != c.typ || !bytes.Equal(w.Body.Bytes(), stored) {
			t.Fatalf("%s (Accept %q): %d %s, %d bytes; want %s, the %d of %s", c.query, c.accept, w.Code,
				w.Header().Get("Content-Type"), w.Body.Len(), c.typ, len(stored), c.blob)
		}
	}
	counter.take()
	w := serve(path+"?w=240", "Accept", "image/webp")
	if n := counter.take(); w.Code != 200 || n[http.MethodGet] != 1 || len(n) != 1 {
		t.Fatalf("a variant served with requests %v (status %d), want one GET", n, w.Code)
	}
	etag := w.Header().Get("ETag")
	if w := serve(path+"?w=240", "Accept", "image/webp", "If-None-Match", etag); w.Code != http.StatusNotModified {
		t.Fatalf("revalidation: %d, want 304", w.Code)
	}
	if n := counter.take(); n[http.MethodGet] != 1 || len(n) != 1 {
		t.Fatalf("a revalidation made requests %v, want one GET", n)
	}
	whole, _ := readAll(t, s3, base+".png")
	counter.take()
	w = serve(path, "Range", "bytes=100-199")
	if w.Code != http.StatusPartialContent || !bytes.Equal(w.Body.Bytes(), whole[100:200]) {
		t.Fatalf("range: %d, %d bytes", w.Code, w.Body.Len())
	}
	if n := counter.take(); n[http.MethodGet] > 2 {
		t.Fatalf("a range made requests %v, want at most two GETs", n)
	}

	if err := store.remove(ctx, path); err != nil {
		t.Fatal(err)
	}
	if got := s3.objects(t); len(got) != 0 {
		t.Fatalf("objects left after the removal: %v", got)
	}
	if w := serve(path + "?w=240"); w.Code != http.StatusNotFound || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("removed image: %d %q", w.Code, w.Header().Get("Cache-Control"))
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		if seen[x]--; seen[x] < 0 {
			return false
		}
	}
	return true
}

// The sweep and the released images remove what they remove from the
// object store: the image and every variant.
func TestS3CollectorRemovesFromTheStore(t *testing.T) {
	t.Parallel()
	s3 := newTestS3(t, nil)
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := t.Context()
		f := newCollectorFixtureOn(t, db, s3)
		before := len(s3.objects(t))
		unused, used := f.upload(7), f.upload(7)
		b := f.blog(used)
		if got := len(s3.objects(t)) - before; got != 6 { // two 4×3 images: each, a JPEG and a WebP
			t.Fatalf("%d objects stored, want 6", got)
		}
		f.c.now = func() time.Time { return time.Now().Add(DefaultSweepAge + time.Minute) }
		if n, err := f.c.Sweep(ctx); err != nil || n != 1 {
			t.Fatalf("sweep removed %d (%v), want 1", n, err)
		}
		f.wantGone(unused)
		f.wantKept(used)
		if err := f.deleteBlog(b); err != nil {
			t.Fatal(err)
		}
		f.wantGone(used)
		if got := len(s3.objects(t)); got != before {
			t.Fatalf("%d objects under the prefix, want the %d before the uploads", got, before)
		}
	})
}

// silentStore is a TCP server that accepts connections and never answers.
func silentStore(t *testing.T) string {
	t.Helper()
	ln, err := new(net.ListenConfig).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// A store that does not answer fails every call within the timeout, as an
// error that is not "missing" (the handler then answers 503, an upload
// fails).
func TestS3CallsTimeOut(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	s, err := newS3(S3Config{Endpoint: silentStore(t), Region: "us-east-1", Bucket: "bkt", AccessKey: "k", SecretKey: "s", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for name, call := range map[string]func() error{
		"put":    func() error { return s.Put(ctx, "a.jpg", []byte("x")) },
		"stat":   func() error { _, err := s.Stat(ctx, "a.jpg"); return err },
		"remove": func() error { return s.Remove(ctx, "a.jpg") },
		"open": func() error {
			f, _, err := s.Open(ctx, "a.jpg")
			if f != nil {
				f.Close()
			}
			return err
		},
	} {
		start := time.Now()
		err := call()
		took := time.Since(start)
		if err == nil || errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no answer within") || took > 5*timeout {
			t.Errorf("%s on a silent store: %v after %v; want a timeout after about %v", name, err, took, timeout)
		}
	}
	if _, err := NewS3(ctx, S3Config{Endpoint: silentStore(t), Region: "us-east-1", Bucket: "bkt", AccessKey: "k", SecretKey: "s", Timeout: timeout}); err == nil ||
		!strings.Contains(err.Error(), "HMDP_IMAGE_STORE") {
		t.Errorf("NewS3 on a silent store: %v", err)
	}
}

// A read that stalls in the middle of a body fails after the timeout; a
// client slow to take what was read is not the store's stall and is not
// cut.
func TestS3ReadTimesOutWhenTheBodyStalls(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2000")
		w.Header().Set("Last-Modified", time.Now().UTC().Format(http.TimeFormat))
		w.Header().Set("ETag", `"e"`)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(bytes.Repeat([]byte("x"), 1000))
		w.(http.Flusher).Flush()
		select { // the second half only when the test says so
		case <-release:
			_, _ = w.Write(bytes.Repeat([]byte("y"), 1000))
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	s, err := newS3(S3Config{Endpoint: srv.URL, Region: "us-east-1", Bucket: "bkt", AccessKey: "k", SecretKey: "s", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	open := func() io.ReadSeekCloser {
		f, info, err := s.Open(t.Context(), "a.jpg")
		if err != nil || info.Size != 2000 {
			t.Fatalf("open: %+v %v", info, err)
		}
		return f
	}

	f := open()
	got, err := io.ReadFull(f, make([]byte, 1000))
	if err != nil || got != 1000 {
		t.Fatalf("first half: %d %v", got, err)
	}
	start := time.Now()
	_, err = f.Read(make([]byte, 1000))
	if took := time.Since(start); err == nil || !strings.Contains(err.Error(), "no answer within") || took > 5*timeout {
		t.Fatalf("stalled read: %v after %v; want a timeout after about %v", err, took, timeout)
	}
	f.Close()

	// Twice the timeout between reads, then the rest arrives: the read after
	// the pause is served.
	f = open()
	defer f.Close()
	if _, err := io.ReadFull(f, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * timeout)
	close(release)
	rest, err := io.ReadAll(f)
	if err != nil || string(rest) != strings.Repeat("y", 1000) {
		t.Fatalf("after a slow client's pause: %d bytes, %v", len(rest), err)
	}
}

// The store's name for logs names no key.
func TestS3DescribeHidesTheKeys(t *testing.T) {
	t.Parallel()
	s, err := newS3(S3Config{Endpoint: "https://s3.example.com:9000", Bucket: "pics", Prefix: "prod/", AccessKey: "AKIDEXAMPLE", SecretKey: "wJalrXUtnFEMI"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "s3 https://s3.example.com:9000/pics/prod/"; s.Describe != want || strings.Contains(s.Describe, "AKID") {
		t.Fatalf("Describe %q, want %q", s.Describe, want)
	}
	for _, bad := range []string{"s3.example.com", "ftp://x", "http://x/path", "http://"} {
		if _, err := newS3(S3Config{Endpoint: bad, Bucket: "b"}); err == nil {
			t.Errorf("endpoint %q accepted", bad)
		}
	}
}

// Start-up refuses a bucket that is not there and keys the store does not
// take, naming HMDP_IMAGE_STORE.
func TestS3StartUpChecksTheBucket(t *testing.T) {
	t.Parallel()
	e := testenv.RealS3(t)
	for name, c := range map[string]struct {
		cfg  S3Config
		want string
	}{
		"missing bucket": {S3Config{Endpoint: e.Endpoint, Region: e.Region, Bucket: "hmdp-no-such-bucket", AccessKey: e.AccessKey, SecretKey: e.SecretKey}, "no bucket"},
		"wrong secret":   {S3Config{Endpoint: e.Endpoint, Region: e.Region, Bucket: e.Bucket, AccessKey: e.AccessKey, SecretKey: e.SecretKey + "x"}, "cannot reach bucket"},
	} {
		s, err := NewS3(t.Context(), c.cfg)
		t.Logf("%s: %v", name, err)
		if err == nil || !strings.Contains(err.Error(), "HMDP_IMAGE_STORE: "+c.want) {
			if s != nil {
				s.Close()
			}
			t.Errorf("%s: %v, want HMDP_IMAGE_STORE: %s…", name, err, c.want)
		}
	}
}
