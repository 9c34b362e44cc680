package image

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// Blobs holds the files of images (originals and their variants) by name.
// Dir keeps them in a local directory; an object store (S3 and the like)
// implements the same four methods, so that originals and variants alike
// go wherever the store puts them. Names are flat (blobName).
type Blobs interface {
	// Put stores data under name. Readers never see a partial blob.
	Put(ctx context.Context, name string, data []byte) error
	// Open returns the blob for reading; a missing one is an error
	// wrapping fs.ErrNotExist.
	Open(ctx context.Context, name string) (io.ReadSeekCloser, BlobInfo, error)
	// Stat describes a blob; a missing one is an error wrapping fs.ErrNotExist.
	Stat(ctx context.Context, name string) (BlobInfo, error)
	// Remove deletes a blob; a missing one is not an error.
	Remove(ctx context.Context, name string) error
}

// BlobInfo describes a stored blob.
type BlobInfo struct {
	Size    int64
	ModTime time.Time
}

// blobName is the form of every name a Blobs is given.
var blobName = regexp.MustCompile(`^[0-9a-z][0-9a-z.-]{0,99}$`)

// Dir is Blobs in a local directory.
type Dir struct{ path string }

// NewDir uses (creating) the directory path.
func NewDir(path string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o750); err != nil {
		return nil, err
	}
	return &Dir{path: path}, nil
}

func (d *Dir) file(name string) (string, error) {
	if !blobName.MatchString(name) {
		return "", fmt.Errorf("image: bad blob name %q", name)
	}
	return filepath.Join(d.path, name), nil
}

// Put writes a temporary file and renames it, so readers never see half.
func (d *Dir) Put(_ context.Context, name string, data []byte) error {
	path, err := d.file(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.path, ".upload-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Open opens a regular file; anything else (a directory) is not found.
func (d *Dir) Open(_ context.Context, name string) (io.ReadSeekCloser, BlobInfo, error) {
	path, err := d.file(name)
	if err != nil {
		return nil, BlobInfo{}, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	f, err := os.Open(path) //nolint:gosec // G304: name matched blobName, so it stays in d.path
	if err != nil {
		return nil, BlobInfo{}, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", name, fs.ErrNotExist)
	}
	if err != nil {
		_ = f.Close()
		return nil, BlobInfo{}, err
	}
	return f, BlobInfo{Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Stat describes a regular file.
func (d *Dir) Stat(_ context.Context, name string) (BlobInfo, error) {
	path, err := d.file(name)
	if err != nil {
		return BlobInfo{}, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return BlobInfo{}, err
	}
	if !st.Mode().IsRegular() {
		return BlobInfo{}, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
	}
	return BlobInfo{Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Remove deletes a file.
func (d *Dir) Remove(_ context.Context, name string) error {
	path, err := d.file(name)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
