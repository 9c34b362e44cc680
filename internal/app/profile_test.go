package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hmdp/hmdp/internal/gqlclient"
)

func TestUpdateProfileAndPasswordLogin(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		const phone = "13500000009"
		token := ts.login(phone)
		user, anon := ts.gql(token), ts.gql("")
		icon := ts.uploadPath(token)
		got := must(gqlclient.UpdateProfile(ctx, user, gqlclient.UpdateProfileInput{
			NickName: new("小明"), Icon: new(icon), Password: new("correct horse"), Code: new(ts.freshCode(phone)),
			City: new("杭州"), Introduce: new("爱吃"), Gender: new(1), Birthday: new("1990-05-17"),
		}))(t).UpdateProfile
		want := gqlclient.Profile{
			Id: ts.userID(token), NickName: "小明", Icon: icon,
			Info: &gqlclient.ProfileInfoUserInfo{
				City: new("杭州"), Introduce: new("爱吃"), Gender: new(1), Birthday: new("1990-05-17"),
				Credits: 0, Level: 0,
			},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("updateProfile (-want +got):\n%s", diff)
		}
		// A partial update keeps the other fields.
		got = must(gqlclient.UpdateProfile(ctx, user, gqlclient.UpdateProfileInput{City: new("上海")}))(t).UpdateProfile
		want.Info.City = new("上海")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("partial update (-want +got):\n%s", diff)
		}
		// user(id) shows the same profile to its user; to anyone else
		// without its private fields (city, gender, birthday).
		if diff := cmp.Diff(&want, must(gqlclient.UserProfile(ctx, user, want.Id))(t).User); diff != "" {
			t.Fatalf("user(id) (-want +got):\n%s", diff)
		}
		public := want
		public.Info = &gqlclient.ProfileInfoUserInfo{Introduce: want.Info.Introduce}
		if diff := cmp.Diff(&public, must(gqlclient.UserProfile(ctx, anon, want.Id))(t).User); diff != "" {
			t.Fatalf("user(id), anonymous (-want +got):\n%s", diff)
		}

		// Password login.
		login := must(gqlclient.Login(ctx, anon, phone, nil, new("correct horse")))(t).Login
		me := must(gqlclient.Me(ctx, ts.gql(login.Token)))(t).Me
		wantMe := &gqlclient.UserBrief{Id: want.Id, NickName: "小明"}
		if diff := cmp.Diff(wantMe, me); diff != "" {
			t.Fatalf("me after a password login (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(*wantMe, login.User); diff != "" {
			t.Fatalf("user of a password login (-want +got):\n%s", diff)
		}
		for _, c := range []struct{ name, phone, password string }{
			{"wrong password", phone, "wrong horse"},
			{"unknown phone", "13500000008", "correct horse"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := gqlclient.Login(ctx, anon, c.phone, nil, &c.password)
				wantCode(t, err, "BAD_USER_INPUT")
			})
		}

		// Bad input names the field and writes nothing.
		for _, c := range []struct {
			field string
			in    gqlclient.UpdateProfileInput
		}{
			{"input.nickName", gqlclient.UpdateProfileInput{NickName: new(""), City: new("北京")}},
			{"input.password", gqlclient.UpdateProfileInput{Password: new("short"), City: new("北京")}},
			{"input.gender", gqlclient.UpdateProfileInput{Gender: new(7), City: new("北京")}},
			{"input.birthday", gqlclient.UpdateProfileInput{Birthday: new("1990-13-01"), City: new("北京")}},
			{"input.city", gqlclient.UpdateProfileInput{City: new(string(make([]rune, 65)))}},
			// An icon must be an image this server serves.
			{"input.icon", gqlclient.UpdateProfileInput{Icon: new("https://evil.example/a.png"), City: new("北京")}},
			{"input.icon", gqlclient.UpdateProfileInput{Icon: new("/imgs/icons/a.png"), City: new("北京")}},
			{"input.icon", gqlclient.UpdateProfileInput{Icon: new("/images/0123456789abcdef0123456789abcdef.png"), City: new("北京")}},
			{"input.icon", gqlclient.UpdateProfileInput{Icon: new("/images/../hmdp.db"), City: new("北京")}},
		} {
			t.Run(c.field, func(t *testing.T) {
				_, err := gqlclient.UpdateProfile(ctx, user, c.in)
				wantField(t, err, c.field)
			})
		}
		got = must(gqlclient.UpdateProfile(ctx, user, gqlclient.UpdateProfileInput{}))(t).UpdateProfile
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("after the refused updates (-want +got):\n%s", diff)
		}
		// An empty icon removes it.
		got = must(gqlclient.UpdateProfile(ctx, user, gqlclient.UpdateProfileInput{Icon: new("")}))(t).UpdateProfile
		if got.Icon != "" {
			t.Fatalf("icon after clearing it: %q", got.Icon)
		}
	})
}

// uploadPath uploads a small PNG as the token's user and returns its path.
func (ts *testServer) uploadPath(token string) string {
	ts.t.Helper()
	r := ts.upload(token, pngBytes(ts.t), true)
	var up struct{ UploadImage string }
	if len(r.Errors) > 0 || json.Unmarshal(r.Data, &up) != nil || up.UploadImage == "" {
		ts.t.Fatalf("upload: %+v %s", r.Errors, r.Data)
	}
	return up.UploadImage
}

// Each user may upload 30 images at once, then one every 2 minutes.
func TestUploadRateLimit(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		alice, bob := ts.login("13800000031"), ts.login("13800000032")
		for range uploadLimit.Events {
			ts.uploadPath(alice)
		}
		r := ts.upload(alice, pngBytes(t), true)
		if r.code() != "RATE_LIMITED" {
			t.Fatalf("upload past the limit: %+v", r.Errors)
		}
		if ms, _ := r.Errors[0].Extensions["retryAfterMs"].(float64); ms <= 0 || ms > 120000 {
			t.Fatalf("retryAfterMs %v", r.Errors[0].Extensions["retryAfterMs"])
		}
		ts.uploadPath(bob) // each user has their own allowance
		ts.advance(2 * time.Minute)
		ts.uploadPath(alice)
	})
}
