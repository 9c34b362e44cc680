package user

import (
	"context"
	"errors"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/database"
)

// Sessions is what a profile change needs of the login service
// (auth.Service): the password change's authorization, and the sessions
// told of the change after it commits.
type Sessions interface {
	// AuthorizePasswordChange checks currentPassword or code for a new
	// password of u, the user's row read (locked) in the change's transaction.
	AuthorizePasswordChange(ctx context.Context, u *ent.User, currentPassword, code *string) error
	// EndOtherSessions records in tx that v's user's other sessions end;
	// after, run once tx has committed, ends them.
	EndOtherSessions(ctx context.Context, tx *ent.Tx, v *auth.Viewer) (after func(context.Context), err error)
	// RefreshSession rewrites v's session after a committed change to u.
	RefreshSession(ctx context.Context, v *auth.Viewer, u *ent.User) error
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
	// CurrentPassword or Code authorize a password change (only with
	// Password; Sessions.AuthorizePasswordChange checks them).
	CurrentPassword, Code *string
}

// UpdateProfile applies p to the profile of v's user, all of it or nothing
// (the GraphQL updateProfile):
//
//  1. p is checked as a whole, and a new icon must be one of the user's own
//     uploads, before anything is read or spent: a bad input costs no
//     wrong-password attempt and no login code.
//  2. One transaction holds the user's row, claims the new icon (releasing
//     the old one), writes tb_user and tb_user_info, records that the user's
//     other sessions end (a new password), and last authorizes a new
//     password against the row it holds (the current password, or a login
//     code, which is then used up): any failure rolls every write back.
//  3. After the commit, and only then, the old icon is released, the other
//     sessions end (both retried by the outbox should they fail) and v's
//     session is rewritten; none of these fails the call, the change being
//     made.
func (s *Service) UpdateProfile(ctx context.Context, v *auth.Viewer, p Profile) (*ent.User, error) {
	id := v.UserID
	birthday, err := p.validate()
	if err != nil {
		return nil, err
	}
	if err := s.checkIcon(ctx, id, p.Icon); err != nil {
		return nil, err
	}
	hash, err := s.hashPassword(p.Password)
	if err != nil {
		return nil, err
	}
	var out *ent.User
	var after []func(context.Context) // run after commit, in order
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		var err error
		out, after, err = s.writeProfile(ctx, tx, v, p, birthday, hash)
		return err
	})
	if ent.IsNotFound(err) {
		return nil, apperr.New(apperr.NotFound, "user %d not found", id)
	}
	if err != nil {
		return nil, err
	}
	ctx = context.WithoutCancel(ctx) // committed: what follows is not the caller's to cancel
	for _, f := range after {
		f(ctx)
	}
	if (p.NickName != nil || p.Icon != nil) && s.briefChanged != nil {
		s.briefChanged(ctx, id)
	}
	if s.sessions != nil {
		if err := s.sessions.RefreshSession(ctx, v, out); err != nil {
			// The summary is stale until the session's next change; nothing
			// reads its nickname or icon as the truth (me reads MySQL).
			s.log.WarnContext(ctx, "session not rewritten after a profile change", "user", id, "err", err)
		}
	}
	return out, nil
}

// checkIcon checks a new icon, if given and not "" (none): an image this
// server serves (uploadImage's path), never a link to elsewhere, which every
// viewer's client would fetch; and the user's own upload.
func (s *Service) checkIcon(ctx context.Context, id int64, icon *string) error {
	if icon == nil || *icon == "" {
		return nil
	}
	if s.images != nil && !s.images.Owns(*icon) {
		return apperr.BadInput("input.icon", "must be a path uploadImage returned, or empty for none")
	}
	if o, ok := s.images.(ownerChecker); ok {
		return o.CheckOwner(ctx, id, "input.icon", false, []string{*icon})
	}
	return nil
}

// hashPassword is the bcrypt hash of a new password (nil: none given).
func (s *Service) hashPassword(password *string) ([]byte, error) {
	if password == nil {
		return nil, nil
	}
	if s.sessions == nil {
		return nil, errors.New("user: password changes need Config.Sessions")
	}
	return auth.HashPassword([]byte(*password))
}

// writeProfile is UpdateProfile's transaction (step 2): it returns the
// updated user and what to run after the commit, in order.
func (s *Service) writeProfile(ctx context.Context, tx *ent.Tx, v *auth.Viewer, p Profile, birthday *time.Time, hash []byte) (*ent.User, []func(context.Context), error) {
	id := v.UserID
	var after []func(context.Context)
	// The row stays locked to the commit: the password check below and
	// the writes see one version of it, and concurrent changes of the
	// user's profile run one after the other.
	cur, err := tx.User.Query().Where(entuser.ID(id)).Where(database.ForUpdate).Only(ctx)
	if err != nil {
		return nil, nil, err
	}
	if p.Icon != nil && *p.Icon != cur.Icon && s.use != nil {
		release, err := s.swapIcon(ctx, tx, id, cur.Icon, *p.Icon)
		if err != nil {
			return nil, nil, err
		}
		after = append(after, release)
	}
	upd := tx.User.UpdateOneID(id).
		SetNillableNickName(p.NickName).
		SetNillableIcon(p.Icon)
	if hash != nil {
		upd.SetPassword(string(hash))
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := s.upsertInfo(ctx, tx, id, p, birthday); err != nil {
		return nil, nil, err
	}
	if p.Password == nil {
		return out, after, nil
	}
	end, err := s.sessions.EndOtherSessions(ctx, tx, v)
	if err != nil {
		return nil, nil, err
	}
	after = append(after, end)
	// Last: a login code is used up only by a change nothing else can
	// fail any more (but the commit).
	if err := s.sessions.AuthorizePasswordChange(ctx, cur, p.CurrentPassword, p.Code); err != nil {
		return nil, nil, err
	}
	return out, after, nil
}

// upsertInfo writes p's tb_user_info fields in tx, if it has any.
func (s *Service) upsertInfo(ctx context.Context, tx *ent.Tx, id int64, p Profile, birthday *time.Time) error {
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
}

// swapIcon, in tx, claims icon for user id and releases old, the icon it
// replaces; run the returned function after commit.
func (s *Service) swapIcon(ctx context.Context, tx *ent.Tx, id int64, old, icon string) (after func(context.Context), err error) {
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
	// currentPassword and code go only with password.
	if p.Password == nil {
		switch {
		case p.CurrentPassword != nil:
			return nil, apperr.BadInput("input.currentPassword", "only with input.password")
		case p.Code != nil:
			return nil, apperr.BadInput("input.code", "only with input.password")
		}
	}
	if p.NickName != nil && (*p.NickName == "" || utf8.RuneCountInString(*p.NickName) > maxlen.UserNickName) {
		return nil, apperr.BadInput("input.nickName", "must be 1 to %d characters", maxlen.UserNickName)
	}
	if p.NickName != nil {
		if r, bad := invisibleRune(*p.NickName); bad {
			return nil, apperr.BadInput("input.nickName", "must not contain control or invisible formatting characters (line breaks, tabs, escapes, direction overrides such as U+202E); found %U", r)
		}
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

// invisibleRune finds the first rune of s that a name must not hold: a
// control character (Cc: line breaks, tabs, escapes) or a format character
// (Cf), which renders as nothing but changes how the text around it shows:
// the bidirectional controls U+202A–U+202E, U+2066–U+2069 and U+200E/U+200F
// can make a name display reversed or pull the text after it into its
// direction, and zero-width characters make look-alikes of other names. The
// one exception is the zero-width joiner U+200D between two symbols, which
// joins emoji into one (👩‍💻), with the emoji variation selector or a skin
// tone before it.
func invisibleRune(s string) (rune, bool) {
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r) {
			continue
		}
		if r == '\u200d' && i > 0 && i+1 < len(rs) && joinsEmoji(rs[i-1]) && unicode.Is(unicode.So, rs[i+1]) {
			continue
		}
		return r, true
	}
	return 0, false
}

// joinsEmoji reports whether r may come before a zero-width joiner in an
// emoji sequence: a symbol, the emoji variation selector U+FE0F or a skin
// tone modifier U+1F3FB–U+1F3FF.
func joinsEmoji(r rune) bool {
	return unicode.Is(unicode.So, r) || r == '\ufe0f' || (r >= 0x1F3FB && r <= 0x1F3FF)
}
