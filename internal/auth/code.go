package auth

// ValidCode reports whether code has the shape of a login code: exactly 6
// ASCII digits (no spaces, signs or other scripts' digits).
func ValidCode(code string) bool {
	if len(code) != 6 {
		return false
	}
	for i := range len(code) {
		if code[i] < '0' || code[i] > '9' {
			return false
		}
	}
	return true
}
