package app

import (
	"strings"
	"testing"

	"github.com/hmdp/hmdp/ent/schema/maxlen"
)

// Text limits count characters, as MySQL's varchar does: a Chinese name as
// long as its column is stored, one character more is refused naming the field.
func TestTextLimitsCountCharacters(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		token := ts.login("13500000019")
		const update = `mutation($in: UpdateProfileInput!) { updateProfile(input: $in) { nickName info { introduce } } }`
		nick := strings.Repeat("茶", maxlen.UserNickName)   // 96 bytes in a 32-character column
		intro := strings.Repeat("好", maxlen.UserIntroduce) // 384 bytes in a 128-character column
		var out struct {
			UpdateProfile struct {
				NickName string
				Info     struct{ Introduce string }
			}
		}
		ts.ok(token, update, map[string]any{"in": map[string]any{"nickName": nick, "introduce": intro}}, &out)
		if out.UpdateProfile.NickName != nick || out.UpdateProfile.Info.Introduce != intro {
			t.Fatalf("stored %q / %q", out.UpdateProfile.NickName, out.UpdateProfile.Info.Introduce)
		}
		e := ts.fails(token, update, map[string]any{"in": map[string]any{"nickName": nick + "茶"}}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "input.nickName" {
			t.Fatalf("field = %v", e.Extensions["field"])
		}
	})
}
