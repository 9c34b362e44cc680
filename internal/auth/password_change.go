package auth

import (
	"context"
	"fmt"

	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// A session token alone may set a user's first password, but changing an
// existing one also needs the current password or a fresh login code sent to
// the user's phone (sendCode), so a stolen token cannot take the account
// over. Wrong current passwords count against the same budget as wrong
// passwords at login.

// AuthorizePasswordChange checks that v may set a new password: always when
// the user has none yet; otherwise currentPassword (checked first when both
// are given) or code must be right. Errors are BAD_USER_INPUT on
// input.currentPassword or input.code, or RATE_LIMITED once too many wrong
// passwords were tried.
func (s *Service) AuthorizePasswordChange(ctx context.Context, v *Viewer, currentPassword, code *string) error {
	u, err := s.db.User.Get(ctx, v.UserID)
	if err != nil {
		return err
	}
	if u.Password == "" {
		return nil
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
		if !ValidCode(*code) {
			return apperr.BadInput("input.code", "must be the 6 digits sent to the phone")
		}
		res, err := verifyCode.Run(ctx, s.rdb, []string{s.codeKey(u.Phone)}, *code, s.cfg.MaxWrong).Int()
		if err != nil {
			return fmt.Errorf("verify login code: %w", err)
		}
		switch res {
		case -1:
			return apperr.BadInput("input.code", "no valid code for this phone: it expired, was used or was voided; send a new one")
		case 0:
			return apperr.BadInput("input.code", "wrong code")
		}
		return nil
	}
	return apperr.BadInput("input.currentPassword", "changing a password needs the current one (or input.code, a login code sent with sendCode)")
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
