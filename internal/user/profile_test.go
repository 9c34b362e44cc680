package user

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

// fakeSessions stands in for auth.Service: its password check fails with
// refuse, its end of the other sessions is an outbox row in the change's
// transaction, and it records what ran after the commit.
type fakeSessions struct {
	refuse     error
	refreshErr error
	ended      int // after functions run
	refreshed  int
}

func (f *fakeSessions) AuthorizePasswordChange(context.Context, *ent.User, *string, *string) error {
	return f.refuse
}

func (f *fakeSessions) EndOtherSessions(ctx context.Context, tx *ent.Tx, v *auth.Viewer) (func(context.Context), error) {
	if err := tx.Outbox.Create().SetKind("auth.end_sessions").SetArg("x").Exec(ctx); err != nil {
		return nil, err
	}
	return func(context.Context) { f.ended++ }, nil
}

func (f *fakeSessions) RefreshSession(context.Context, *auth.Viewer, *ent.User) error {
	f.refreshed++
	return f.refreshErr
}

// An update is all or nothing: when its last step, the password change's
// authorization, fails, the nickname, icon, password and tb_user_info
// written before it in the same transaction are rolled back with the outbox
// row, and nothing runs after; when it succeeds, everything is written and
// the sessions are told after the commit, a failure there not failing it.
func TestUpdateProfileIsOneTransaction(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx, c := t.Context(), db.Client
		hash, err := bcrypt.GenerateFromPassword([]byte("first horse"), bcrypt.MinCost)
		if err != nil {
			t.Fatal(err)
		}
		u := c.User.Create().SetPhone("13500000001").SetNickName("before").SetIcon("/images/old.png").
			SetPassword(string(hash)).SaveX(ctx)
		v := &auth.Viewer{UserID: u.ID, Token: "t"}
		sessions := &fakeSessions{refuse: apperr.BadInput("input.currentPassword", "wrong password")}
		s := New(Config{DB: c, Sessions: sessions, Log: slog.New(slog.DiscardHandler)})
		change := Profile{
			NickName: new("after"), Icon: new("/images/new.png"), City: new("杭州"), Gender: new(1),
			Password: new("second horse"), CurrentPassword: new("wrong horse"),
		}

		_, err = s.UpdateProfile(ctx, v, change)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Code != apperr.BadUserInput || ae.Field != "input.currentPassword" {
			t.Fatalf("refused change: %v", err)
		}
		got := c.User.GetX(ctx, u.ID)
		if got.NickName != "before" || got.Icon != "/images/old.png" || got.Password != string(hash) {
			t.Fatalf("a refused change wrote the user: %+v", got)
		}
		if n := c.UserInfo.Query().CountX(ctx); n != 0 {
			t.Fatalf("a refused change wrote %d tb_user_info rows", n)
		}
		if n := c.Outbox.Query().CountX(ctx); n != 0 {
			t.Fatalf("a refused change left %d outbox rows", n)
		}
		if sessions.ended != 0 || sessions.refreshed != 0 {
			t.Fatalf("a refused change told the sessions: %+v", sessions)
		}

		sessions.refuse, sessions.refreshErr = nil, errors.New("redis down")
		out, err := s.UpdateProfile(ctx, v, change)
		if err != nil {
			t.Fatalf("accepted change: %v", err)
		}
		got = c.User.GetX(ctx, u.ID)
		if out.NickName != "after" || got.NickName != "after" || got.Icon != "/images/new.png" ||
			bcrypt.CompareHashAndPassword([]byte(got.Password), []byte("second horse")) != nil {
			t.Fatalf("accepted change: answered %+v, stored %+v", out, got)
		}
		if info := c.UserInfo.GetX(ctx, u.ID); info.City != "杭州" || info.Gender != 1 {
			t.Fatalf("accepted change: info %+v", info)
		}
		if n := c.Outbox.Query().CountX(ctx); n != 1 || sessions.ended != 1 || sessions.refreshed != 1 {
			t.Fatalf("accepted change: %d outbox rows, sessions %+v", n, sessions)
		}

		// No password: no authorization, no sessions ended; currentPassword
		// and code go only with a password.
		if _, err := s.UpdateProfile(ctx, v, Profile{NickName: new("again")}); err != nil || sessions.ended != 1 {
			t.Fatalf("nickname alone: %v, sessions %+v", err, sessions)
		}
		for field, p := range map[string]Profile{
			"input.currentPassword": {NickName: new("x"), CurrentPassword: new("second horse")},
			"input.code":            {NickName: new("x"), Code: new("123456")},
		} {
			if _, err := s.UpdateProfile(ctx, v, p); !errors.As(err, &ae) || ae.Field != field {
				t.Fatalf("%s without a password: %v", field, err)
			}
		}
		if got := c.User.GetX(ctx, u.ID); got.NickName != "again" {
			t.Fatalf("nickname %q", got.NickName)
		}
	})
}
