package user

import (
	"time"

	"github.com/hmdp/hmdp/ent"
)

// The private fields of a profile (city, gender, birthday) are shown to its
// user alone, wherever the user appears (me, user(id), authors, followers),
// and are nil for everyone else, anonymous or logged in, admins included.
// viewer is the id of the user asking, 0 when anonymous.

// City is info's city as viewer may see it.
func City(viewer int64, info *ent.UserInfo) *string {
	if viewer == 0 || viewer != info.ID {
		return nil
	}
	return &info.City
}

// Gender is info's gender as viewer may see it.
func Gender(viewer int64, info *ent.UserInfo) *int {
	if viewer == 0 || viewer != info.ID {
		return nil
	}
	return &info.Gender
}

// Birthday is info's birthday (YYYY-MM-DD) as viewer may see it; nil too
// when none is set.
func Birthday(viewer int64, info *ent.UserInfo) *string {
	if viewer == 0 || viewer != info.ID || info.Birthday == nil {
		return nil
	}
	return new(info.Birthday.Format(time.DateOnly))
}
