// Package user reads users and their profiles, shows a profile's private
// fields to its user alone, and applies profile updates (password changes
// included) in one transaction each.
package user

import (
	"context"
	"log/slog"

	"github.com/hmdp/hmdp/ent"
)

// Config holds the service's dependencies.
type Config struct {
	DB *ent.Client
	// Images tells the server's own uploads from other paths: a profile's
	// icon must be one (nil accepts any path, for tests of other things).
	Images ImageStore
	// ImageUse, when set, claims a new icon and releases the one it
	// replaces (nil: images are left as they are).
	ImageUse ImageUse
	// Sessions authorizes password changes and tells the user's sessions of
	// a profile change (auth.Service); nil refuses password changes.
	Sessions Sessions
	Log      *slog.Logger // default slog.Default()
	// BriefChanged, when set, hears of each committed change of a user's
	// nickname or icon (what other pages show of the user), after the
	// commit: pages kept elsewhere that show it are dropped (the hot blogs' authors).
	BriefChanged func(ctx context.Context, userID int64)
}

// ImageUse keeps uploads that profiles show (image.Collector): Claim in the
// transaction that makes a profile show an image, Release in the one that stops it.
type ImageUse interface {
	Claim(ctx context.Context, tx *ent.Tx, userID int64, field string, many bool, paths []string) error
	Release(ctx context.Context, tx *ent.Tx, paths []string) (after func(context.Context), err error)
}

// ImageStore tells our own uploads from other paths.
type ImageStore interface {
	Owns(path string) bool
}

// Service is the user service.
type Service struct {
	db       *ent.Client
	images   ImageStore
	use      ImageUse // nil: none
	sessions Sessions // nil: none
	log      *slog.Logger
	// briefChanged hears of nickname and icon changes (Config.BriefChanged); nil: no one.
	briefChanged func(ctx context.Context, userID int64)
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Service{db: cfg.DB, images: cfg.Images, use: cfg.ImageUse, sessions: cfg.Sessions, log: cfg.Log,
		briefChanged: cfg.BriefChanged}
}

// Get returns a user, nil when absent.
func (s *Service) Get(ctx context.Context, id int64) (*ent.User, error) {
	u, err := s.db.User.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return u, err
}

// Info returns a user's profile, nil when the user never filled one in.
func (s *Service) Info(ctx context.Context, id int64) (*ent.UserInfo, error) {
	i, err := s.db.UserInfo.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return i, err
}
