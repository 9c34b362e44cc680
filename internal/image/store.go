// Package image stores uploaded images under the data directory and serves
// them at /images/. Only JPEG, PNG and WebP are accepted, decided by the
// bytes themselves (never by the client's file name or content type).
package image

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

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

// Store is a directory of uploaded images.
type Store struct {
	dir string
	// Admit, when set, is asked before each upload is read and may refuse it
	// (the server's per-user upload rate limit): its error is Save's.
	Admit func(ctx context.Context) error
	// DB, when set, records each upload's uploader (SaveFor, CheckOwner, Delete).
	DB *ent.Client
}

// New uses (creating) dataDir/images.
func New(dataDir string) (*Store, error) {
	dir := filepath.Join(dataDir, "images")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("HMDP_DATA_DIR: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Save stores r under a random name and returns its URL path. Anything that
// is not a JPEG, PNG or WebP, or is larger than MaxBytes, is BAD_USER_INPUT
// on field "file".
func (s *Store) Save(ctx context.Context, r io.Reader) (string, error) {
	if s.Admit != nil {
		if err := s.Admit(ctx); err != nil {
			return "", err
		}
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	head = head[:n]
	ext, ok := extByType[http.DetectContentType(head)]
	if !ok {
		return "", apperr.BadInput("file", "must be a JPEG, PNG or WebP image")
	}
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	name := hex.EncodeToString(rnd[:]) + ext
	tmp, err := os.CreateTemp(s.dir, ".upload-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	written, err := io.Copy(tmp, io.LimitReader(io.MultiReader(bytes.NewReader(head), r), MaxBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if written > MaxBytes {
		return "", apperr.BadInput("file", "must be at most %d bytes", MaxBytes)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.dir, name)); err != nil {
		return "", err
	}
	return URLPrefix + name, nil
}

// Owns reports whether path is an image this server stored.
func (s *Store) Owns(path string) bool {
	if !isUploadPath(path) {
		return false
	}
	st, err := os.Stat(s.file(path))
	return err == nil && st.Mode().IsRegular()
}

// isUploadPath reports whether path has the form of an upload's path.
func isUploadPath(path string) bool {
	name, ok := strings.CutPrefix(path, URLPrefix)
	return ok && ownName.MatchString(name)
}

// Handler serves GET /images/<name>: stored names only, no listings.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if !ownName.MatchString(name) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable") // names are never reused
		//nolint:gosec // G703: name matched ownName above (hex and an extension), so it stays in s.dir
		http.ServeFile(w, r, filepath.Join(s.dir, name))
	})
}
