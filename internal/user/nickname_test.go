package user

import (
	"testing"

	"github.com/hmdp/hmdp/internal/apperr"
)

// Nicknames refuse control characters and invisible format characters (the
// bidirectional overrides, isolates and marks, zero-width characters) with
// an error naming input.nickName and the character; emoji joined with a
// zero-width joiner and ordinary text of any script pass.
func TestNickNameRefusesInvisibleCharacters(t *testing.T) {
	for _, nick := range []string{
		"小明", "Zoë", "محمد", "👩‍💻", "👨‍👩‍👧", "🏳️‍🌈", "🧑🏽‍🍳", "a b",
	} {
		if err := (Profile{NickName: &nick}).Validate(); err != nil {
			t.Errorf("%q (%+q) refused: %v", nick, nick, err)
		}
	}
	for _, nick := range []string{
		"evil\u202Egnp.exe", // RIGHT-TO-LEFT OVERRIDE
		"\u202Aa", "\u202Ba", "\u202Ca", "\u202Da",
		"a\u2066b", "a\u2067b", "a\u2068b", "a\u2069b", // isolates
		"a\u200Eb", "a\u200Fb", "a\u061Cb", // marks (LRM, RLM, ALM)
		"ad\u200Bmin", "ad\u200Cmin", "ad\u200Dmin", "\u200D👩", "👩\u200D", // zero-width space, non-joiner, joiner not between emoji
		"\uFEFFadmin", "ad\u00ADmin", "a\u2060b", "a\U000E0041b", // BOM, soft hyphen, word joiner, tag
		"a\nb", "a\tb", "a\x1bb", "a\u0085b", // Cc
	} {
		err := (Profile{NickName: &nick}).Validate()
		e, ok := apperr.As(err)
		if !ok || e.Code != apperr.BadUserInput || e.Field != "input.nickName" {
			t.Errorf("%+q: want BAD_USER_INPUT on input.nickName, got %v", nick, err)
		}
	}
}
