package graph

import (
	"context"

	"github.com/hmdp/hmdp/graph/model"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/user"
)

// authorizePasswordChange checks an updateProfile that sets a password:
// the input must be valid as a whole first (a too short new password costs
// no wrong-password attempt, nor the login code), then the current password
// or a login code must be right when the user already has a password.
// currentPassword and code go only with password.
func authorizePasswordChange(ctx context.Context, as *auth.Service, v *auth.Viewer, input model.UpdateProfileInput) error {
	if input.Password == nil {
		switch {
		case input.CurrentPassword != nil:
			return apperr.BadInput("input.currentPassword", "only with input.password")
		case input.Code != nil:
			return apperr.BadInput("input.code", "only with input.password")
		}
		return nil
	}
	if err := user.Profile(input).Validate(); err != nil {
		return err
	}
	return as.AuthorizePasswordChange(ctx, v, input.CurrentPassword, input.Code)
}
