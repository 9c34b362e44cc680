package app

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/hmdp/hmdp/ent"
	entuserinfo "github.com/hmdp/hmdp/ent/userinfo"
	"github.com/hmdp/hmdp/internal/gqlclient"
)

// updateProfile is all or nothing, and says which: a call that fails has
// changed nothing (a wrong login code, the last step of its transaction,
// rolls back the nickname and city written before it), and a call whose
// change was committed does not fail because of what follows the commit.
// The session's key going missing from Redis while this instance still
// trusts its copy of the session (an expiry within HMDP_SESSION_CACHE_TTL,
// or Redis losing the key) made the session's rewrite fail after the commit:
// the call answered INTERNAL_SERVER_ERROR although the nickname and the
// password had changed.
func TestUpdateProfileFailsOnlyWhenNothingChanged(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		const phone = "13500000051"
		token := ts.login(phone)
		ts.setFirstPassword(token, phone, "first horse")
		id, err := strconv.ParseInt(ts.userID(token), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		stored := func() (*ent.User, bool) {
			u := ts.app.db.Client.User.GetX(ctx, id)
			return u, ts.app.db.Client.UserInfo.Query().Where(entuserinfo.ID(id)).ExistX(ctx)
		}
		before, _ := stored()

		// A wrong code with a valid nickname and city.
		code := ts.freshCode(phone)
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		c := ts.gql(token)
		_, err = gqlclient.UpdateProfile(ctx, c, gqlclient.UpdateProfileInput{
			NickName: ptrTo("renamed"), City: ptrTo("杭州"), Password: ptrTo("second horse"), Code: &wrong,
		})
		wantField(t, err, "input.code")
		if u, info := stored(); u.NickName != before.NickName || u.Password != before.Password || info {
			t.Fatalf("a refused change wrote: nickname %q, password changed %v, info row %v",
				u.NickName, u.Password != before.Password, info)
		}

		// The session's key is gone; this instance still holds its copy.
		must(gqlclient.Me(ctx, c))(t)
		sum := sha256.Sum256([]byte(token))
		if err := ts.redis().Del(ctx, ts.app.cfg.RedisPrefix+"login:session:"+hex.EncodeToString(sum[:])).Err(); err != nil {
			t.Fatal(err)
		}
		_, err = gqlclient.UpdateProfile(ctx, c, gqlclient.UpdateProfileInput{
			NickName: ptrTo("renamed"), Password: ptrTo("second horse"), CurrentPassword: ptrTo("first horse"),
		})
		u, _ := stored()
		changed := u.NickName != before.NickName || u.Password != before.Password
		if err != nil {
			t.Fatalf("updateProfile failed (%s: %v); the profile changed all the same: %v",
				kindOf(err).Code, err, changed)
		}
		if u.NickName != "renamed" || u.Password == before.Password {
			t.Fatalf("updateProfile succeeded but stored nickname %q, password changed %v", u.NickName, u.Password != before.Password)
		}
		must(gqlclient.Login(ctx, ts.gql(""), phone, nil, ptrTo("second horse")))(t)
	})
}
