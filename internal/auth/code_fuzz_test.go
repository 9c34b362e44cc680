package auth

import (
	"strconv"
	"testing"
	"unicode/utf8"
)

// FuzzValidCode checks the login-code check against an independent
// definition: six bytes that strconv reads as a non-negative number and
// that print back the same (so no sign, space or non-ASCII digit).
func FuzzValidCode(f *testing.F) {
	for _, s := range []string{"123456", "000000", "12345", "1234567", "12345a", "+12345", " 12345", "１２３４５６", "-00000", "\x00\x00\x00\x00\x00\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := strconv.ParseUint(s, 10, 64)
		want := err == nil && len(s) == 6 && n < 1_000_000 && s[0] != '+'
		if want {
			want = strconv.FormatUint(n+1_000_000, 10)[1:] == s
		}
		if got := ValidCode(s); got != want {
			t.Fatalf("ValidCode(%q) = %v, want %v (valid UTF-8: %v)", s, got, want, utf8.ValidString(s))
		}
	})
}
