// Package image stores uploaded images and serves them at /images/, each
// in a few widths (Widths) as JPEG (PNG with transparency) and WebP. Only
// JPEG, PNG and WebP are accepted, decided by the bytes themselves (never
// by the client's file name or content type), and only images that decode
// within MaxPixels and MaxSide.
package image

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
)

// MaxBytes is the largest image accepted.
const MaxBytes = 5 << 20

// URLPrefix is where images are served.
const URLPrefix = "/images/"

var (
	extByType = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp"}
	ownName   = regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png|webp)$`)
)

// Store holds uploaded images and their variants in its Blobs.
type Store struct {
	blobs Blobs
	// Admit, when set, is asked before each upload is read and may refuse it
	// (the server's per-user upload rate limit): its error is Save's.
	Admit func(ctx context.Context) error
	// DB, when set, records each upload's uploader (SaveFor, CheckOwner, Delete).
	DB *ent.Client
	// Quota, when positive, bounds the bytes of each user's live uploads
	// (SaveFor, with DB): an upload past it is UPLOAD_QUOTA_EXCEEDED.
	Quota int64
	// Log, when set, gets the failures of the Blobs behind a 503 of Handler
	// (an object store that does not answer), which the client is not told.
	Log *slog.Logger
}

// CacheMaxAge is how long clients and shared caches may reuse an image
// without asking again. Names are never reused, but an image can be deleted:
// after at most this long a cache revalidates (ETag, Last-Modified) and a
// deleted image is then answered 404 with no-store, so it leaves every cache.
const CacheMaxAge = time.Hour

// New uses (creating) the directory dataDir/images.
func New(dataDir string) (*Store, error) {
	d, err := NewDir(filepath.Join(dataDir, "images"))
	if err != nil {
		return nil, fmt.Errorf("HMDP_DATA_DIR: %w", err)
	}
	return NewWithBlobs(d), nil
}

// NewWithBlobs keeps the images in b.
func NewWithBlobs(b Blobs) *Store { return &Store{blobs: b} }

// Close releases what the Blobs hold open (an object store's idle
// connections); the Store is not used after.
func (s *Store) Close() {
	if c, ok := s.blobs.(interface{ Close() }); ok {
		c.Close()
	}
}

// Save stores r under a random name, with its variants, and returns its URL
// path. Anything that is not a JPEG, PNG or WebP that decodes, is larger
// than MaxBytes, or has more pixels than MaxPixels or MaxSide allow, is
// BAD_USER_INPUT on field "file".
func (s *Store) Save(ctx context.Context, r io.Reader) (string, error) {
	path, _, err := s.save(ctx, r)
	return path, err
}

// save is Save, also returning the bytes stored (the image and its variants).
func (s *Store) save(ctx context.Context, r io.Reader) (string, int64, error) {
	if s.Admit != nil {
		if err := s.Admit(ctx); err != nil {
			return "", 0, err
		}
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(r, MaxBytes+1)); err != nil {
		return "", 0, err
	}
	if buf.Len() > MaxBytes {
		return "", 0, apperr.BadInput("file", "must be at most %d bytes", MaxBytes)
	}
	data := buf.Bytes()
	ext, ok := extByType[http.DetectContentType(data)]
	if !ok {
		return "", 0, apperr.BadInput("file", "must be a JPEG, PNG or WebP image")
	}
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	base := hex.EncodeToString(rnd[:])
	vs, err := makeVariants(ctx, base, ext, data)
	if err != nil {
		return "", 0, err
	}
	// The original goes last: its presence (Owns) means the variants are
	// all there.
	vs = append(vs, variant{base + ext, data})
	var total int64
	for i, v := range vs {
		if err := s.blobs.Put(ctx, v.name, v.data); err != nil {
			for _, done := range vs[:i] {
				err = errors.Join(err, s.blobs.Remove(context.WithoutCancel(ctx), done.name))
			}
			return "", 0, err
		}
		total += int64(len(v.data))
	}
	return URLPrefix + base + ext, total, nil
}

// Owns reports whether path is an image this server stored.
func (s *Store) Owns(path string) bool { return s.owns(context.Background(), path) }

func (s *Store) owns(ctx context.Context, path string) bool {
	if !isUploadPath(path) {
		return false
	}
	_, err := s.blobs.Stat(ctx, blobOf(path))
	return err == nil
}

// isUploadPath reports whether path has the form of an upload's path.
func isUploadPath(path string) bool {
	name, ok := strings.CutPrefix(path, URLPrefix)
	return ok && ownName.MatchString(name)
}

// blobOf is the blob name of an upload path.
func blobOf(path string) string { return path[len(URLPrefix):] }

// remove removes the image path and its variants, the variants first: the
// image stays while any variant might, so a failed removal is retried
// (Owns, the collector) until nothing is left.
func (s *Store) remove(ctx context.Context, path string) error {
	name := blobOf(path)
	for _, v := range variantNames(strings.TrimSuffix(name, filepath.Ext(name))) {
		if err := s.blobs.Remove(ctx, v); err != nil {
			return err
		}
	}
	return s.blobs.Remove(ctx, name)
}

// fillVariants makes and stores the variants of the upload path when it
// has none, and reports whether it did. An upload that is missing, does not
// decode or is past the limits is left alone (false, no error).
func (s *Store) fillVariants(ctx context.Context, path string) (bool, error) {
	if !isUploadPath(path) {
		return false, nil
	}
	name := blobOf(path)
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	if _, err := s.blobs.Stat(ctx, variantName(base, Widths[0], "webp")); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	f, _, err := s.blobs.Open(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	_ = f.Close()
	if err != nil {
		return false, err
	}
	vs, err := makeVariants(ctx, base, ext, data)
	if _, refused := apperr.As(err); refused {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	// Widest first, as Save puts them: the 240 px WebP comes last, so its
	// presence means all are there.
	for _, v := range vs {
		if err := s.blobs.Put(ctx, v.name, v.data); err != nil {
			return false, err
		}
	}
	// Removed meanwhile (the collector does not wait for this): take the
	// variants back out.
	if _, err := s.blobs.Stat(ctx, name); errors.Is(err, fs.ErrNotExist) {
		return false, s.remove(ctx, path)
	}
	return true, nil
}

// storedBytes sums the bytes stored for path: the image and its variants.
func (s *Store) storedBytes(ctx context.Context, path string) (int64, error) {
	name := blobOf(path)
	var total int64
	for _, n := range append(variantNames(strings.TrimSuffix(name, filepath.Ext(name))), name) {
		st, err := s.blobs.Stat(ctx, n)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return 0, err
		}
		total += st.Size
	}
	return total, nil
}

// Handler serves GET /images/<name>: stored names and the demo pictures
// (demo.go) only, no listings. With
// ?w=<pixels> it serves the variant for that width (the first of Widths at
// least as wide, or the widest; an image never enlarged has none wider
// than itself and gets the widest it has), WebP when the request's Accept
// names image/webp and JPEG (PNG) otherwise, with Vary: Accept; an image
// stored before variants were made is served as uploaded.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		switch {
		case ownName.MatchString(name):
			serveImage(w, r, s.blobs, name, s.Log)
		case demoName.MatchString(name):
			serveImage(w, r, demoBlobs{}, name, s.Log)
		default:
			http.NotFound(w, r)
		}
	})
}

// serveImage answers r with the image name of blobs or its variant for ?w=.
func serveImage(w http.ResponseWriter, r *http.Request, blobs Blobs, name string, log *slog.Logger) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	candidates := []string{name}
	if q := r.URL.Query(); q.Has("w") {
		width, err := strconv.Atoi(q.Get("w"))
		if err != nil || width < 1 {
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "w: must be a width in pixels, a whole number of at least 1 (the variants are "+widthList()+" wide)", http.StatusBadRequest)
			return
		}
		w.Header().Set("Vary", "Accept")
		candidates = append(variantCandidates(strings.TrimSuffix(name, filepath.Ext(name)), width, acceptsWebP(r.Header.Get("Accept"))), name)
	}
	for _, c := range candidates {
		f, info, err := blobs.Open(r.Context(), c)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			if log != nil && r.Context().Err() == nil {
				log.Warn("image store unavailable", "image", c, "err", err)
			}
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "image store unavailable", http.StatusServiceUnavailable)
			return
		}
		defer f.Close()
		etag := c
		if c == name {
			etag = strings.TrimSuffix(name, filepath.Ext(name)) // as before variants: the content of a name never changes
		}
		// Not immutable: a deleted image must leave caches (CacheMaxAge).
		w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(CacheMaxAge.Seconds()))+", must-revalidate")
		w.Header().Set("ETag", `"`+etag+`"`)
		w.Header().Set("Content-Type", contentTypes[filepath.Ext(c)])
		http.ServeContent(w, r, c, info.ModTime, f)
		return
	}
	// Deleted (or never stored): no cache may keep this answer, nor,
	// after CacheMaxAge, the image it replaces.
	w.Header().Set("Cache-Control", "no-store")
	http.NotFound(w, r)
}

var contentTypes = map[string]string{".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp"}

// variantCandidates are the names to try, in order, for a request of width
// w: the variant of the first of Widths at least w wide (or the widest),
// then narrower ones; in each width WebP first when webp.
func variantCandidates(base string, w int, webp bool) []string {
	i := 0
	for i < len(Widths)-1 && Widths[i] < w {
		i++
	}
	var out []string
	for ; i >= 0; i-- {
		if webp {
			out = append(out, variantName(base, Widths[i], "webp"))
		}
		out = append(out, variantName(base, Widths[i], "jpg"), variantName(base, Widths[i], "png"))
	}
	return out
}

func widthList() string {
	s := make([]string, len(Widths))
	for i, w := range Widths {
		s[i] = strconv.Itoa(w)
	}
	return strings.Join(s, ", ")
}

// acceptsWebP reports whether an Accept header names image/webp with a
// quality above 0. Wildcards do not count: a client that names no WebP
// gets the format every client reads.
func acceptsWebP(accept string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		media, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(media), "image/webp") {
			continue
		}
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.TrimSpace(k) == "q" {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q <= 0 {
					return false
				}
			}
		}
		return true
	}
	return false
}
