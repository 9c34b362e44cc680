package auth

import "regexp"

// A mainland China mobile number: 11 digits starting 13..19.
var phonePattern = regexp.MustCompile(`^1[3-9][0-9]{9}$`)

// ValidPhone reports whether phone is a mobile number as the app accepts it:
// exactly 11 ASCII digits, no country code, separators or spaces.
func ValidPhone(phone string) bool { return phonePattern.MatchString(phone) }
