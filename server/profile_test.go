package main

import (
	"testing"
)

func TestUpdateProfileAndPasswordLogin(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		const phone = "13500000009"
		token := ts.login(phone)
		const update = `mutation($in: UpdateProfileInput!) { updateProfile(input: $in) {
			id nickName icon info { city introduce gender birthday credits level } } }`
		var out struct {
			UpdateProfile struct {
				ID, NickName, Icon string
				Info               *struct {
					City, Introduce, Birthday string
					Gender, Credits, Level    int
				}
			}
		}
		ts.ok(token, update, map[string]any{"in": map[string]any{
			"nickName": "小明", "icon": "/imgs/icons/a.png", "password": "correct horse",
			"city": "杭州", "introduce": "爱吃", "gender": 1, "birthday": "1990-05-17",
		}}, &out)
		u := out.UpdateProfile
		if u.NickName != "小明" || u.Icon != "/imgs/icons/a.png" || u.Info == nil ||
			u.Info.City != "杭州" || u.Info.Introduce != "爱吃" || u.Info.Gender != 1 || u.Info.Birthday != "1990-05-17" {
			t.Fatalf("profile = %+v %+v", u, u.Info)
		}
		// A partial update keeps the other fields.
		ts.ok(token, update, map[string]any{"in": map[string]any{"city": "上海"}}, &out)
		if out.UpdateProfile.Info.City != "上海" || out.UpdateProfile.Info.Introduce != "爱吃" || out.UpdateProfile.NickName != "小明" {
			t.Fatalf("partial update = %+v %+v", out.UpdateProfile, out.UpdateProfile.Info)
		}
		// user(id) shows the same profile to anyone.
		var pub struct{ User struct{ NickName string } }
		ts.ok("", `query($id: ID!) { user(id: $id) { nickName } }`, map[string]any{"id": u.ID}, &pub)
		if pub.User.NickName != "小明" {
			t.Fatalf("user(id) = %+v", pub.User)
		}

		// Password login.
		const pw = `mutation($p: String!, $pw: String) { login(phone: $p, password: $pw) { token user { id } } }`
		var lg struct{ Login struct{ Token string } }
		ts.ok("", pw, map[string]any{"p": phone, "pw": "correct horse"}, &lg)
		var me struct{ Me struct{ NickName string } }
		ts.ok(lg.Login.Token, meQuery, nil, &me)
		if me.Me.NickName != "小明" {
			t.Fatalf("password login is %+v", me.Me)
		}
		ts.fails("", pw, map[string]any{"p": phone, "pw": "wrong horse"}, "BAD_USER_INPUT")
		ts.fails("", pw, map[string]any{"p": "13500000008", "pw": "correct horse"}, "BAD_USER_INPUT")

		// Bad input names the field and writes nothing.
		for field, in := range map[string]map[string]any{
			"input.nickName": {"nickName": "", "city": "北京"},
			"input.password": {"password": "short", "city": "北京"},
			"input.gender":   {"gender": 7, "city": "北京"},
			"input.birthday": {"birthday": "1990-13-01", "city": "北京"},
			"input.city":     {"city": string(make([]rune, 65))},
		} {
			e := ts.fails(token, update, map[string]any{"in": in}, "BAD_USER_INPUT")
			if e.Extensions["field"] != field {
				t.Errorf("%v: error names %v, want %s", in, e.Extensions["field"], field)
			}
		}
		ts.ok(token, update, map[string]any{"in": map[string]any{}}, &out)
		if out.UpdateProfile.Info.City != "上海" {
			t.Fatalf("a refused update wrote city %q", out.UpdateProfile.Info.City)
		}
	})
}
