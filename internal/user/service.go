// Package user reads users and their profiles and applies profile updates.
package user

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
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
	db     *ent.Client
	images ImageStore
	use    ImageUse // nil: none
}

// New returns the service.
func New(cfg Config) *Service { return &Service{db: cfg.DB, images: cfg.Images, use: cfg.ImageUse} }

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

// ownerChecker is the image store's uploader check (image.Store.CheckOwner):
// an icon must be the user's own upload.
type ownerChecker interface {
	CheckOwner(ctx context.Context, userID int64, field string, many bool, paths []string) error
}

// Profile is a profile update; nil fields are left as they are.
type Profile struct {
	NickName, Icon, Password *string
	City, Introduce          *string
	Gender                   *int
	Birthday                 *string // YYYY-MM-DD
	// CurrentPassword or Code authorize a password change; the caller
	// checks them (auth.Service.AuthorizePasswordChange).
	CurrentPassword, Code *string
}

// UpdateProfile validates p as a whole, then writes tb_user and tb_user_info in one transaction.
func (s *Service) UpdateProfile(ctx context.Context, id int64, p Profile) (*ent.User, error) {
	birthday, err := p.validate()
	if err != nil {
		return nil, err
	}
	// An icon is an image this server serves (uploadImage's path), or "" for none:
	// never a link to elsewhere, which every viewer's client would fetch.
	if p.Icon != nil && *p.Icon != "" && s.images != nil && !s.images.Owns(*p.Icon) {
		return nil, apperr.BadInput("input.icon", "must be a path uploadImage returned, or empty for none")
	}
	if o, ok := s.images.(ownerChecker); ok && p.Icon != nil && *p.Icon != "" {
		if err := o.CheckOwner(ctx, id, "input.icon", false, []string{*p.Icon}); err != nil {
			return nil, err
		}
	}
	var hash []byte
	if p.Password != nil {
		if hash, err = bcrypt.GenerateFromPassword([]byte(*p.Password), bcrypt.DefaultCost); err != nil {
			return nil, err
		}
	}
	var out *ent.User
	releaseIcon := func(context.Context) {}
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		if p.Icon != nil && s.use != nil {
			if releaseIcon, err = s.swapIcon(ctx, tx, id, *p.Icon); err != nil {
				return err
			}
		}
		upd := tx.User.UpdateOneID(id).
			SetNillableNickName(p.NickName).
			SetNillableIcon(p.Icon)
		if hash != nil {
			upd.SetPassword(string(hash))
		}
		if out, err = upd.Save(ctx); err != nil {
			return err
		}
		if p.City == nil && p.Introduce == nil && p.Gender == nil && birthday == nil {
			return nil
		}
		create := tx.UserInfo.Create().SetID(id).
			SetNillableCity(p.City).SetNillableIntroduce(p.Introduce).
			SetNillableGender(p.Gender).SetNillableBirthday(birthday)
		up := create.OnConflictColumns("user_id")
		if p.City != nil {
			up.UpdateCity()
		}
		if p.Introduce != nil {
			up.UpdateIntroduce()
		}
		if p.Gender != nil {
			up.UpdateGender()
		}
		if birthday != nil {
			up.UpdateBirthday()
		}
		up.UpdateUpdateTime()
		return up.Exec(ctx)
	})
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NotFound, "user %d not found", id)
	}
	if err == nil {
		releaseIcon(context.WithoutCancel(ctx))
	}
	return out, err
}

// swapIcon, in tx, claims icon for user id and releases the icon it
// replaces; run the returned function after commit.
func (s *Service) swapIcon(ctx context.Context, tx *ent.Tx, id int64, icon string) (after func(context.Context), err error) {
	old, err := tx.User.Query().Where(entuser.ID(id)).Where(database.ForUpdate).Select(entuser.FieldIcon).String(ctx)
	if err != nil || old == icon {
		return func(context.Context) {}, err
	}
	if icon != "" {
		if err := s.use.Claim(ctx, tx, id, "input.icon", false, []string{icon}); err != nil {
			return nil, err
		}
	}
	return s.use.Release(ctx, tx, []string{old})
}

// Validate checks p as UpdateProfile does, writing nothing.
func (p Profile) Validate() error {
	_, err := p.validate()
	return err
}

func (p Profile) validate() (*time.Time, error) {
	if p.NickName != nil && (*p.NickName == "" || utf8.RuneCountInString(*p.NickName) > maxlen.UserNickName) {
		return nil, apperr.BadInput("input.nickName", "must be 1 to %d characters", maxlen.UserNickName)
	}
	if p.NickName != nil && strings.ContainsFunc(*p.NickName, unicode.IsControl) {
		return nil, apperr.BadInput("input.nickName", "must not contain control characters (line breaks, tabs, escapes)")
	}
	if p.Icon != nil && utf8.RuneCountInString(*p.Icon) > maxlen.UserIcon {
		return nil, apperr.BadInput("input.icon", "must be at most %d characters", maxlen.UserIcon)
	}
	// bcrypt reads at most 72 bytes; longer passwords would be silently cut.
	if p.Password != nil && (len(*p.Password) < 8 || len(*p.Password) > 72) {
		return nil, apperr.BadInput("input.password", "must be 8 to 72 bytes")
	}
	if p.City != nil && utf8.RuneCountInString(*p.City) > maxlen.UserCity {
		return nil, apperr.BadInput("input.city", "must be at most %d characters", maxlen.UserCity)
	}
	if p.Introduce != nil && utf8.RuneCountInString(*p.Introduce) > maxlen.UserIntroduce {
		return nil, apperr.BadInput("input.introduce", "must be at most %d characters", maxlen.UserIntroduce)
	}
	if p.Gender != nil && *p.Gender != 0 && *p.Gender != 1 {
		return nil, apperr.BadInput("input.gender", "must be 0 (male) or 1 (female)")
	}
	if p.Birthday == nil {
		return nil, nil
	}
	b, err := time.Parse(time.DateOnly, *p.Birthday)
	if err != nil || b.After(time.Now()) || b.Year() < 1900 {
		return nil, apperr.BadInput("input.birthday", "must be a past date as YYYY-MM-DD")
	}
	return &b, nil
}

// Many returns the users with ids, in the order of ids; absent ones are left out.
func (s *Service) Many(ctx context.Context, ids []int64) ([]*ent.User, error) {
	us, err := s.db.User.Query().Where(entuser.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*ent.User, len(us))
	for _, u := range us {
		byID[u.ID] = u
	}
	out := make([]*ent.User, 0, len(ids))
	for _, id := range ids {
		if u := byID[id]; u != nil {
			out = append(out, u)
		}
	}
	return out, nil
}
