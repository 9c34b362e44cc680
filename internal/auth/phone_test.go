package auth

import (
	"testing"
	"unicode/utf8"
)

func TestValidPhone(t *testing.T) {
	for p, want := range map[string]bool{
		"13800000000": true, "19912345678": true, "15012345678": true,
		"15,12345678": false, "+8613800000000": false, "1380000000": false, "138000000000": false,
		"12800000000": false, "10800000000": false, "23800000000": false, "": false,
		" 13800000000": false, "13800000000\n": false, "1380000000a": false, "１３８００００００００": false, //nolint:gocritic // mapKey: the leading space of " 13800000000" is the case under test
	} {
		if got := ValidPhone(p); got != want {
			t.Errorf("ValidPhone(%q) = %v, want %v", p, got, want)
		}
	}
}

// FuzzValidPhone checks the validator against an independent definition.
func FuzzValidPhone(f *testing.F) {
	for _, s := range []string{"13800000000", "15,12345678", "+8613800000000", "1380000000", "138000000000", "１３８"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := len(s) == 11 && s[0] == '1' && s[1] >= '3' && s[1] <= '9'
		for i := 0; want && i < len(s); i++ {
			want = s[i] >= '0' && s[i] <= '9'
		}
		if got := ValidPhone(s); got != want {
			t.Fatalf("ValidPhone(%q) = %v, want %v (valid UTF-8: %v)", s, got, want, utf8.ValidString(s))
		}
		// A valid phone is a number that a byte more or less, or a login
		// code, never is.
		if want && (ValidPhone(s+"0") || ValidPhone(s[:10]) || ValidCode(s) || ValidPhone(" "+s)) {
			t.Fatalf("a phone one byte off %q was valid", s)
		}
	})
}
