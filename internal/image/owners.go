package image

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/hmdp/hmdp/ent"
	entimage "github.com/hmdp/hmdp/ent/image"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
)

// SaveFor stores r (see Save) and records userID as its uploader, and its
// size (the image and its variants), in hmdp_image (Store.DB). If the record
// cannot be written the files are removed: an image nobody owns could never
// be used or deleted.
//
// With a Quota, the user's live uploads (their recorded sizes summed) may not
// exceed it: a user already at the quota is refused before the upload is
// stored, and one this upload would take past it after, the file removed. The
// final check and the record are one transaction holding the user's row
// (FOR UPDATE; SQLite serializes transactions), so racing uploads of one
// user are counted one after the other and never pass the quota together.
func (s *Store) SaveFor(ctx context.Context, userID int64, r io.Reader) (string, error) {
	if s.DB != nil && s.Quota > 0 {
		used, err := usedBytes(ctx, s.DB.Image.Query(), userID)
		if err != nil {
			return "", err
		}
		if used >= s.Quota {
			return "", s.quotaExceeded(used)
		}
	}
	path, size, err := s.save(ctx, r)
	if err != nil || s.DB == nil {
		return path, err
	}
	err = database.WithTx(ctx, s.DB, func(tx *ent.Tx) error {
		if s.Quota > 0 {
			if _, err := tx.User.Query().Where(entuser.ID(userID)).Where(database.ForUpdate).IDs(ctx); err != nil {
				return err
			}
			used, err := usedBytes(ctx, tx.Image.Query(), userID)
			if err != nil {
				return err
			}
			if used+size > s.Quota {
				return s.quotaExceeded(used)
			}
		}
		return tx.Image.Create().SetID(path).SetUserID(userID).SetSize(size).Exec(ctx)
	})
	if err != nil {
		return "", errors.Join(err, s.remove(context.WithoutCancel(ctx), path))
	}
	return path, nil
}

// usedBytes sums the recorded sizes of userID's uploads.
func usedBytes(ctx context.Context, q *ent.ImageQuery, userID int64) (int64, error) {
	var sums []struct {
		Sum sql.NullInt64 `json:"sum"`
	}
	if err := q.Where(entimage.UserID(userID)).Aggregate(ent.Sum(entimage.FieldSize)).Scan(ctx, &sums); err != nil {
		return 0, err
	}
	if len(sums) == 0 {
		return 0, nil
	}
	return sums[0].Sum.Int64, nil
}

// quotaExceeded is the refusal of an upload past the quota.
func (s *Store) quotaExceeded(used int64) error {
	return apperr.New(apperr.UploadQuotaExceeded,
		"your uploaded images may take at most %d MB (%d bytes, HMDP_IMAGE_QUOTA_BYTES) in all; they take %d bytes: delete some (deleteImage) before uploading more",
		s.Quota>>20, s.Quota, used)
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

// Delete removes userID's image path: its record, then its variants and file. Someone
// else's image and an unknown path are NOT_FOUND alike, so uploads cannot be
// probed.
func (s *Store) Delete(ctx context.Context, userID int64, path string) error {
	if s.DB == nil || !isUploadPath(path) {
		return apperr.New(apperr.NotFound, "no image %q of yours", path)
	}
	// Asked before anything is deleted: a store that cannot answer (an
	// object store down) fails the call with the record kept, to be retried,
	// rather than leave objects that no record names.
	_, err := s.blobs.Stat(ctx, blobOf(path))
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return err
	}
	n, err := s.DB.Image.Delete().Where(entimage.ID(path), entimage.UserID(userID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 || missing {
		return apperr.New(apperr.NotFound, "no image %q of yours", path)
	}
	// The record is gone, so nothing can reference the image any more; a
	// file left behind by a failed remove is only wasted space.
	return s.remove(ctx, path)
}
