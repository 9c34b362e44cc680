package image

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/hmdp/hmdp/ent"
	entimage "github.com/hmdp/hmdp/ent/image"
	"github.com/hmdp/hmdp/internal/apperr"
)

// SaveFor stores r (see Save) and records userID as its uploader in
// hmdp_image (Store.DB). If the record cannot be written the file is removed:
// an image nobody owns could never be used or deleted.
func (s *Store) SaveFor(ctx context.Context, userID int64, r io.Reader) (string, error) {
	path, err := s.Save(ctx, r)
	if err != nil || s.DB == nil {
		return path, err
	}
	if err := s.DB.Image.Create().SetID(path).SetUserID(userID).Exec(ctx); err != nil {
		return "", errors.Join(err, os.Remove(s.file(path)))
	}
	return path, nil
}

// CheckOwner fails with BAD_USER_INPUT on field (on field.i, the first
// offending index, when many) unless every path was uploaded by userID.
// Without Store.DB nothing is recorded and every stored image passes.
func (s *Store) CheckOwner(ctx context.Context, userID int64, field string, many bool, paths []string) error {
	if s.DB == nil || len(paths) == 0 {
		return nil
	}
	return checkOwner(ctx, s.DB.Image.Query(), userID, field, many, paths)
}

func checkOwner(ctx context.Context, q *ent.ImageQuery, userID int64, field string, many bool, paths []string) error {
	mine, err := q.Where(entimage.IDIn(paths...), entimage.UserID(userID)).IDs(ctx)
	if err != nil {
		return err
	}
	for i, p := range paths {
		if !slices.Contains(mine, p) {
			name := field
			if many {
				name = fmt.Sprintf("%s.%d", field, i)
			}
			return apperr.BadInput(name, "must be an image you uploaded")
		}
	}
	return nil
}

// Delete removes userID's image path: its record, then its file. Someone
// else's image and an unknown path are NOT_FOUND alike, so uploads cannot be
// probed.
func (s *Store) Delete(ctx context.Context, userID int64, path string) error {
	if s.DB == nil {
		return apperr.New(apperr.NotFound, "no image %q of yours", path)
	}
	n, err := s.DB.Image.Delete().Where(entimage.ID(path), entimage.UserID(userID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 || !s.Owns(path) {
		return apperr.New(apperr.NotFound, "no image %q of yours", path)
	}
	// The record is gone, so nothing can reference the image any more; a
	// file left behind by a failed remove is only wasted space.
	if err := os.Remove(s.file(path)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// file is the file of a path Owns accepted.
func (s *Store) file(path string) string { return filepath.Join(s.dir, path[len(URLPrefix):]) }
