// Package user reads users and their profiles and applies profile updates.
package user

import (
	"context"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/ent"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/store"
)

// Service is the user service.
type Service struct{ db *ent.Client }

// New returns the service.
func New(db *ent.Client) *Service { return &Service{db: db} }

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

// Profile is a profile update; nil fields are left as they are.
type Profile struct {
	NickName, Icon, Password *string
	City, Introduce          *string
	Gender                   *int
	Birthday                 *string // YYYY-MM-DD
}

// UpdateProfile validates p as a whole, then writes tb_user and tb_user_info in one transaction.
func (s *Service) UpdateProfile(ctx context.Context, id int64, p Profile) (*ent.User, error) {
	birthday, err := p.validate()
	if err != nil {
		return nil, err
	}
	var hash []byte
	if p.Password != nil {
		if hash, err = bcrypt.GenerateFromPassword([]byte(*p.Password), bcrypt.DefaultCost); err != nil {
			return nil, err
		}
	}
	var out *ent.User
	err = store.WithTx(ctx, s.db, func(tx *ent.Tx) error {
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
	return out, err
}

func (p Profile) validate() (*time.Time, error) {
	if p.NickName != nil && (*p.NickName == "" || utf8.RuneCountInString(*p.NickName) > 32) {
		return nil, apperr.BadInput("input.nickName", "must be 1 to 32 characters")
	}
	if p.Icon != nil && len(*p.Icon) > 255 {
		return nil, apperr.BadInput("input.icon", "must be at most 255 bytes")
	}
	// bcrypt reads at most 72 bytes; longer passwords would be silently cut.
	if p.Password != nil && (len(*p.Password) < 8 || len(*p.Password) > 72) {
		return nil, apperr.BadInput("input.password", "must be 8 to 72 bytes")
	}
	if p.City != nil && utf8.RuneCountInString(*p.City) > 64 {
		return nil, apperr.BadInput("input.city", "must be at most 64 characters")
	}
	if p.Introduce != nil && utf8.RuneCountInString(*p.Introduce) > 128 {
		return nil, apperr.BadInput("input.introduce", "must be at most 128 characters")
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
