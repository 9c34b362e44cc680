package app

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

func (ts *testServer) signInStatus(token string) gqlclient.SignInMakeUpFields {
	ts.t.Helper()
	return must(gqlclient.SignInStatusWithMakeUps(ts.t.Context(), ts.gql(token), nil))(ts.t).SignInStatus
}

// now is the time in the server's HMDP_TIME_ZONE, whose day is "today".
func (ts *testServer) now() time.Time {
	ts.t.Helper()
	if ts.app != nil {
		if ts.app.cfg.TimeZone == nil { // a configuration not from config.Load: the services use time.Local
			return time.Now()
		}
		return time.Now().In(ts.app.cfg.TimeZone)
	}
	loc, err := time.LoadLocation("Asia/Shanghai") // a server process runs with the default
	if err != nil {
		ts.t.Fatal(err)
	}
	return time.Now().In(loc)
}

// signInAndMakeUp signs today in and, unless today is the 1st, makes up
// yesterday; it returns the status it expects.
func (ts *testServer) signInAndMakeUp(token string) gqlclient.SignInMakeUpFields {
	ts.t.Helper()
	ctx, c := ts.t.Context(), ts.gql(token)
	must(gqlclient.SignIn(ctx, c))(ts.t)
	now := ts.now()
	want := gqlclient.SignInMakeUpFields{SignedToday: true, Streak: 1, Days: []int{now.Day()}, MadeUpDays: []int{}, MakeUpsLeft: 3}
	if now.Day() > 1 {
		yesterday := now.AddDate(0, 0, -1)
		got := must(gqlclient.MakeUpSignIn(ctx, c, yesterday.Format(time.DateOnly)))(ts.t).MakeUpSignIn
		want = gqlclient.SignInMakeUpFields{SignedToday: true, Streak: 2, Days: []int{yesterday.Day(), now.Day()}, MadeUpDays: []int{yesterday.Day()}, MakeUpsLeft: 2}
		if !sameStatus(got, want) {
			ts.t.Fatalf("makeUpSignIn: %+v, want %+v", got, want)
		}
		_, err := gqlclient.MakeUpSignIn(ctx, c, now.Format(time.DateOnly))
		wantField(ts.t, err, "date") // making up today
	}
	_, err := gqlclient.MakeUpSignIn(ctx, ts.gql(""), "2026-01-01")
	wantCode(ts.t, err, "UNAUTHENTICATED")
	if got := ts.signInStatus(token); !sameStatus(got, want) {
		ts.t.Fatalf("status: %+v, want %+v", got, want)
	}
	return want
}

func sameStatus(a, b gqlclient.SignInMakeUpFields) bool {
	return a.SignedToday == b.SignedToday && a.Streak == b.Streak && slices.Equal(a.Days, b.Days) &&
		slices.Equal(a.MadeUpDays, b.MadeUpDays) && a.MakeUpsLeft == b.MakeUpsLeft
}

// Sign-ins are in MySQL: Redis losing every key of the prefix changes no
// status (the month bitmaps are rebuilt from tb_sign).
func TestSignInsSurviveRedisLoss(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		tok := ts.login("13800000001")
		want := ts.signInAndMakeUp(tok)
		if m := ts.app.miniRedis; m != nil {
			m.FlushAll()
		} else {
			testenv.DeleteKeys(context.Background(), ts.redis(), ts.app.cfg.RedisPrefix)
		}
		tok = ts.login("13800000001") // the session went too
		if got := ts.signInStatus(tok); !sameStatus(got, want) {
			t.Fatalf("after Redis lost its keys: %+v, want %+v", got, want)
		}
		// Signing in again the same day changes nothing.
		must(gqlclient.SignIn(t.Context(), ts.gql(tok)))(t)
		if got := ts.signInStatus(tok); !sameStatus(got, want) {
			t.Fatalf("after signing in again: %+v, want %+v", got, want)
		}
	})
}

// The embedded server keeps sign-ins across a restart on the same data
// directory, although its in-process Redis starts empty.
func TestSignInsSurviveEmbeddedRestart(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, "embedded")
	first := startUnmanaged(t, cfg)
	want := first.signInAndMakeUp(first.login("13800000001"))
	first.stop()

	second := startServerWith(t, "embedded", cfg)
	if got := second.signInStatus(second.login("13800000001")); !sameStatus(got, want) {
		t.Fatalf("after a restart: %+v, want %+v", got, want)
	}
}

// unmanagedServer is a test server the test stops itself.
type unmanagedServer struct {
	*testServer
	stop func()
}

func startUnmanaged(t *testing.T, cfg config.Config) unmanagedServer {
	t.Helper()
	sms := &smsBox{codes: map[string]string{}}
	clock := &fakeClock{}
	app, err := New(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), Options{Sender: sms, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(app.Handler())
	ts := &testServer{t: t, URL: hs.URL, app: app, sms: sms, clock: clock, backend: "embedded"}
	return unmanagedServer{ts, func() {
		app.Stop()
		hs.Close()
		app.Close()
	}}
}
