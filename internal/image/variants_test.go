package image

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	xwebp "golang.org/x/image/webp"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// served is one answer of the image handler.
type served struct {
	status int
	header http.Header
	body   []byte
}

func serve(t *testing.T, s *Store, path, accept string) served {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET /images/{name}", s.Handler())
	req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return served{rec.Code, rec.Result().Header, body}
}

// dims decodes the dimensions of a served JPEG, PNG or WebP.
func dims(t *testing.T, a served) (string, int, int) {
	t.Helper()
	var cfg image.Config
	var err error
	ct := a.header.Get("Content-Type")
	switch ct {
	case "image/jpeg":
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(a.body))
	case "image/png":
		cfg, err = png.DecodeConfig(bytes.NewReader(a.body))
	case "image/webp":
		cfg, err = xwebp.DecodeConfig(bytes.NewReader(a.body))
	default:
		t.Fatalf("served %q (status %d)", ct, a.status)
	}
	if err != nil {
		t.Fatalf("served %s does not decode: %v", ct, err)
	}
	return ct, cfg.Width, cfg.Height
}

const browserAccept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

// An upload is stored with a JPEG and a WebP variant for each of Widths
// (never enlarged), made once; ?w= serves the variant for the width, WebP
// to a request that accepts it and JPEG otherwise, with Vary: Accept and
// the caching headers of the image; deleting the image removes them all.
func TestUploadServesSizedVariants(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s, err := New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s.DB = db.Client
		orig := testPNG(t, 1200, 900, false)
		path, err := s.SaveFor(ctx, 7, bytes.NewReader(orig))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(s.blobsOf(ctx, path)); got != 1+2*len(Widths) {
			t.Fatalf("%d files stored, want the image and %d variants", got, 2*len(Widths))
		}
		var total int64
		for _, n := range s.blobsOf(ctx, path) {
			st, _ := s.blobs.Stat(ctx, n)
			total += st.Size
		}
		if rec := db.Client.Image.GetX(ctx, path); rec.Size != total {
			t.Fatalf("recorded size %d, the image and its variants take %d", rec.Size, total)
		}

		plain := serve(t, s, path, browserAccept)
		if plain.status != http.StatusOK || !bytes.Equal(plain.body, orig) || plain.header.Get("Vary") != "" {
			t.Fatalf("the image as uploaded: %d, %d bytes, Vary %q", plain.status, len(plain.body), plain.header.Get("Vary"))
		}
		for _, c := range []struct {
			w, accept string
			ct        string
			width     int
		}{
			{"240", browserAccept, "image/webp", 240},
			{"480", browserAccept, "image/webp", 480},
			{"960", browserAccept, "image/webp", 960},
			{"480", "image/jpeg,image/*;q=0.8", "image/jpeg", 480},
			{"480", "", "image/jpeg", 480},
			{"480", "image/webp;q=0", "image/jpeg", 480},
			{"300", browserAccept, "image/webp", 480},  // rounded up to a variant
			{"5000", browserAccept, "image/webp", 960}, // the widest
			{"1", "*/*", "image/jpeg", 240},
		} {
			a := serve(t, s, path+"?w="+c.w, c.accept)
			ct, w, h := dims(t, a)
			if a.status != http.StatusOK || ct != c.ct || w != c.width || h != c.width*3/4 {
				t.Fatalf("w=%s Accept %q: %d %s %d×%d, want %s %d wide", c.w, c.accept, a.status, ct, w, h, c.ct, c.width)
			}
			if a.header.Get("Vary") != "Accept" || a.header.Get("Cache-Control") != plain.header.Get("Cache-Control") ||
				a.header.Get("ETag") == "" || a.header.Get("ETag") == plain.header.Get("ETag") || a.header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("w=%s headers %v (the image's: %v)", c.w, a.header, plain.header)
			}
		}
		webp480 := serve(t, s, path+"?w=480", browserAccept)
		jpeg480 := serve(t, s, path+"?w=480", "")
		if webp480.header.Get("ETag") == jpeg480.header.Get("ETag") || len(webp480.body) >= len(jpeg480.body) {
			t.Fatalf("WebP 480: ETag %s, %d bytes; JPEG: ETag %s, %d bytes", webp480.header.Get("ETag"), len(webp480.body), jpeg480.header.Get("ETag"), len(jpeg480.body))
		}
		if a := serve(t, s, path+"?w=abc", browserAccept); a.status != http.StatusBadRequest || !strings.Contains(string(a.body), "w: must be a width") {
			t.Fatalf("w=abc: %d %s", a.status, a.body)
		}

		if err := s.Delete(ctx, 7, path); err != nil {
			t.Fatal(err)
		}
		if left := s.blobsOf(ctx, path); len(left) != 0 {
			t.Fatalf("after delete: %v left", left)
		}
		for _, q := range []string{"", "?w=480"} {
			if a := serve(t, s, path+q, browserAccept); a.status != http.StatusNotFound || a.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("deleted %s: %d, Cache-Control %q", q, a.status, a.header.Get("Cache-Control"))
			}
		}
	})
}

// An image narrower than a width gets one variant at its own width, not an
// enlarged one; an image with transparency gets PNG variants, not JPEG; a
// JPEG turned by its EXIF orientation gets variants turned the same way.
func TestVariantsNeverEnlargedKeepAlphaAndTurn(t *testing.T) {
	ctx := context.Background()
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path, err := s.Save(ctx, bytes.NewReader(testPNG(t, 300, 200, true)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.blobsOf(ctx, path)); n != 5 {
		t.Fatalf("%d files, want the image and 240 and 300 wide PNG and WebP variants", n)
	}
	for _, c := range []struct {
		w, accept, ct string
		width         int
	}{{"240", "", "image/png", 240}, {"480", "", "image/png", 300}, {"960", browserAccept, "image/webp", 300}} {
		ct, w, _ := dims(t, serve(t, s, path+"?w="+c.w, c.accept))
		if ct != c.ct || w != c.width {
			t.Fatalf("w=%s: %s %d wide, want %s %d", c.w, ct, w, c.ct, c.width)
		}
	}
	a := serve(t, s, path+"?w=240", "")
	m, err := png.Decode(bytes.NewReader(a.body))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, alpha := m.At(10, 10).RGBA(); alpha != 0 {
		t.Fatalf("the transparent pixel has alpha %d", alpha)
	}

	// Orientation 6: stored 50×40 with its left fifth red, shown turned
	// clockwise: 40×50 with the red band at the top.
	turned, err := s.Save(ctx, bytes.NewReader(testJPEG(t, 50, 40, 6)))
	if err != nil {
		t.Fatal(err)
	}
	b := serve(t, s, turned+"?w=240", "")
	m, err = jpeg.Decode(bytes.NewReader(b.body))
	if err != nil {
		t.Fatal(err)
	}
	if m.Bounds().Dx() != 40 || m.Bounds().Dy() != 50 {
		t.Fatalf("turned variant %v, want 40×50", m.Bounds())
	}
	if r, g, _, _ := m.At(20, 3).RGBA(); r>>8 < 200 || g>>8 > 80 {
		t.Fatalf("top middle pixel r %d g %d, want red", r>>8, g>>8)
	}
}

// hugePNG is a small PNG file whose header declares w×h pixels.
func hugePNG(t *testing.T, w, h uint32) []byte {
	t.Helper()
	b := testPNG(t, 1, 1, false)
	ihdr := b[8+8 : 8+8+13] // after the signature and the chunk's length and type
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	binary.BigEndian.PutUint32(b[8+8+13:], crc32.ChecksumIEEE(b[8+4:8+8+13]))
	return b
}

// A decompression bomb (a small file declaring 30000×30000 pixels, 3.6 GB
// decoded) is refused on its header with the limits named, and nothing is
// stored; so is an image past MaxSide within MaxPixels.
func TestHugeDimensionsRefusedBeforeDecoding(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s, err := New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s.DB = db.Client
		for _, c := range []struct {
			w, h uint32
			msg  string
		}{{30000, 30000, "is 30000×30000 pixels: at most 12000 pixels a side and 24 megapixels"}, {20000, 100, "is 20000×100 pixels"}, {6000, 4001, "is 6000×4001 pixels"}} {
			_, err = s.SaveFor(ctx, 7, bytes.NewReader(hugePNG(t, c.w, c.h)))
			if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != "file" || !strings.Contains(e.Message, c.msg) {
				t.Fatalf("%d×%d: %v, want BAD_USER_INPUT on file: %q", c.w, c.h, err, c.msg)
			}
		}
		if n := db.Client.Image.Query().CountX(ctx); n != 0 {
			t.Fatalf("%d images recorded", n)
		}
		entries, _ := s.blobs.(*Dir).list()
		if len(entries) != 0 {
			t.Fatalf("files left: %v", entries)
		}
		// A file that sniffs as a PNG but does not decode is refused too.
		if _, err := s.Save(ctx, strings.NewReader("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")); err == nil || !strings.Contains(err.Error(), "readable") {
			t.Fatalf("an unreadable PNG: %v", err)
		}
	})
}

// At most encoderSlots uploads decode and encode at once: with every slot
// taken an upload waits (and gives up with its context); many concurrent
// uploads all get their variants.
func TestEncodingConcurrencyBounded(t *testing.T) {
	ctx := context.Background()
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for range cap(encoderSlots) {
		encoderSlots <- struct{}{}
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err = s.Save(short, bytes.NewReader(testPNG(t, 64, 48, false)))
	cancel()
	for range cap(encoderSlots) {
		<-encoderSlots
	}
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("an upload with every encoder busy: %v, want it to wait until its deadline", err)
	}
	var wg sync.WaitGroup
	paths := make([]string, 12)
	for i := range paths {
		wg.Go(func() {
			p, err := s.Save(ctx, bytes.NewReader(testPNG(t, 500, 300, false)))
			if err != nil {
				t.Error(err)
			}
			paths[i] = p
		})
	}
	wg.Wait()
	for _, p := range paths {
		if n := len(s.blobsOf(ctx, p)); n != 7 { // 240, 480 and 500 wide
			t.Fatalf("%s: %d files, want 7", p, n)
		}
	}
}

// BenchmarkSave is the cost of one upload with its variants: a 12-megapixel
// camera-sized JPEG and a 1200×900 PNG.
func BenchmarkSave(b *testing.B) {
	for _, c := range []struct {
		name string
		w, h int
	}{{"jpeg-4000x3000", 4000, 3000}, {"png-1200x900", 1200, 900}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := New(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			data := testPNG(b, c.w, c.h, false)
			if strings.HasPrefix(c.name, "jpeg") {
				m, _ := png.Decode(bytes.NewReader(data))
				var jb bytes.Buffer
				_ = jpeg.Encode(&jb, m, &jpeg.Options{Quality: 90})
				data = jb.Bytes()
			}
			if _, err := s.Save(b.Context(), bytes.NewReader(data)); err != nil { // the WebP encoder's start-up
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := s.Save(b.Context(), bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Uploads stored before variants were made get theirs when the collector
// starts (FillVariants), with their sizes recorded anew; an old upload that
// does not decode, and a record without its file, are left alone; a second
// pass makes nothing.
func TestFillVariantsOfOlderUploads(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s, err := New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s.DB = db.Client
		old := func(name string, data []byte) string {
			if data != nil {
				if err := s.blobs.Put(ctx, name, data); err != nil {
					t.Fatal(err)
				}
			}
			p := URLPrefix + name
			if err := db.Client.Image.Create().SetID(p).SetUserID(7).SetSize(int64(len(data))).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			return p
		}
		photo := testPNG(t, 1200, 900, false)
		good := old("0123456789abcdef0123456789abcdef.png", photo)
		bad := old("1123456789abcdef0123456789abcdef.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
		old("2123456789abcdef0123456789abcdef.png", nil)
		if a := serve(t, s, good+"?w=480", browserAccept); !bytes.Equal(a.body, photo) {
			t.Fatal("before: an old upload is not served as uploaded")
		}
		c := NewCollector(s, CollectorConfig{})
		if n, err := c.FillVariants(ctx); err != nil || n != 1 {
			t.Fatalf("FillVariants made %d (%v), want 1", n, err)
		}
		if got := len(s.blobsOf(ctx, good)); got != 7 {
			t.Fatalf("%d files, want the image and 6 variants", got)
		}
		stored, _ := s.storedBytes(ctx, good)
		if rec := db.Client.Image.GetX(ctx, good); rec.Size != stored || stored <= int64(len(photo)) {
			t.Fatalf("recorded size %d, stored %d", rec.Size, stored)
		}
		ct, w, _ := dims(t, serve(t, s, good+"?w=480", browserAccept))
		if ct != "image/webp" || w != 480 {
			t.Fatalf("after: %s %d wide", ct, w)
		}
		if got := len(s.blobsOf(ctx, bad)); got != 1 {
			t.Fatalf("the undecodable upload has %d files", got)
		}
		if n, err := c.FillVariants(ctx); err != nil || n != 0 {
			t.Fatalf("second pass made %d (%v)", n, err)
		}
	})
}
