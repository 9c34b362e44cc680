package auth

import (
	"context"

	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// A session token alone never sets a password: setting the first one needs
// a fresh login code sent to the user's phone (sendCode), and changing an
// existing one the current password or such a code, so a stolen token can
// neither take the account over nor log its owner out (a new password ends
// every other session). Wrong current passwords count against the same
// budget as wrong passwords at login.

// AuthorizePasswordChange checks that u's user may set a new password: when
// u has none yet, code must be right (there is no current password to give);
// otherwise currentPassword (checked first when both are given) or code
// must be. u is the user's row as the change's transaction read it, locked
// (user.Service.UpdateProfile), so the check and the change see one
// password. Errors are BAD_USER_INPUT on input.currentPassword or
// input.code, or RATE_LIMITED once too many wrong passwords were tried. A
// right code is used up.
func (s *Service) AuthorizePasswordChange(ctx context.Context, u *ent.User, currentPassword, code *string) error {
	if u.Password == "" {
		if code == nil {
			return apperr.BadInput("input.code", "setting the first password needs a login code sent to the user's phone with sendCode")
		}
		return s.checkPasswordChangeCode(ctx, u.Phone, *code)
	}
	switch {
	case currentPassword != nil:
		phoneKey, ipKey := passwordFailureKeys(u.Phone, ClientIP(ctx))
		if err := s.checkPasswordFailures(ctx, phoneKey, ipKey); err != nil {
			return err
		}
		if bcrypt.CompareHashAndPassword([]byte(u.Password), []byte(*currentPassword)) != nil {
			if err := s.recordPasswordFailure(ctx, phoneKey, ipKey); err != nil {
				return err
			}
			return apperr.BadInput("input.currentPassword", "wrong password")
		}
		return nil
	case code != nil:
		return s.checkPasswordChangeCode(ctx, u.Phone, *code)
	}
	return apperr.BadInput("input.currentPassword", "changing a password needs the current one (or input.code, a login code sent with sendCode)")
}

// checkPasswordChangeCode uses up the login code of phone if code is it.
func (s *Service) checkPasswordChangeCode(ctx context.Context, phone, code string) error {
	if !ValidCode(code) {
		return apperr.BadInput("input.code", "must be the 6 digits sent to the phone")
	}
	return s.verifyCode(ctx, phone, code, "input.code")
}

// passwordFailureKeys are the failure budgets' keys of a phone and a client
// address ("" when the address is unknown).
func passwordFailureKeys(phone, clientIP string) (phoneKey, ipKey string) {
	phoneKey = "password:phone:" + phone
	if clientIP != "" {
		ipKey = "password:ip:" + clientIP
	}
	return phoneKey, ipKey
}

// checkPasswordFailures refuses (RATE_LIMITED) once either budget is spent.
func (s *Service) checkPasswordFailures(ctx context.Context, phoneKey, ipKey string) error {
	for _, c := range []struct {
		key  string
		lim  ratelimit.Limit
		what string
	}{{phoneKey, s.cfg.PasswordFailuresPerPhone, "wrong passwords for this phone"}, {ipKey, s.cfg.PasswordFailuresPerIP, "wrong passwords from this address"}} {
		if c.key == "" {
			continue
		}
		res, err := s.limiter.CheckFailures(ctx, c.lim, c.key)
		if err != nil {
			return err
		}
		if !res.Allowed {
			return apperr.RateLimit(c.what, res.RetryAfter.Milliseconds())
		}
	}
	return nil
}

// recordPasswordFailure spends one wrong password of both budgets.
func (s *Service) recordPasswordFailure(ctx context.Context, phoneKey, ipKey string) error {
	if err := s.limiter.RecordFailure(ctx, s.cfg.PasswordFailuresPerPhone, phoneKey); err != nil {
		return err
	}
	if ipKey != "" {
		return s.limiter.RecordFailure(ctx, s.cfg.PasswordFailuresPerIP, ipKey)
	}
	return nil
}
