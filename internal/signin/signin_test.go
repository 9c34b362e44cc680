package signin

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	entsign "github.com/hmdp/hmdp/ent/sign"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

func newService(b testenv.Backends, makeUps int) *Service {
	return New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, MakeUpsPerMonth: makeUps})
}

// loseRedis deletes every key of the test's prefix.
func loseRedis(b testenv.Backends) {
	if b.Redis.Mini != nil {
		b.Redis.Mini.FlushAll()
		return
	}
	testenv.DeleteKeys(context.Background(), b.Redis.Client, b.Redis.Prefix)
}

func TestSignInStreakAcrossMonths(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s := newService(b, -1)
		loc := time.FixedZone("CST", 8*3600)
		var now time.Time
		s.now = func() time.Time { return now }
		signOn := func(day time.Time) {
			t.Helper()
			now = day
			if _, err := s.SignIn(ctx, 7); err != nil {
				t.Fatal(err)
			}
		}
		// Jan 31, all of February 2026 (28 days), March 1 and 2; a gap on Jan 30.
		signOn(time.Date(2026, 1, 29, 9, 0, 0, 0, loc))
		for d := time.Date(2026, 1, 31, 23, 0, 0, 0, loc); d.Before(time.Date(2026, 3, 3, 0, 0, 0, 0, loc)); d = d.AddDate(0, 0, 1) {
			signOn(d)
		}
		signOn(now) // twice the same day: no change
		check := func(when string) {
			t.Helper()
			st, err := s.Status(ctx, 7, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !st.SignedToday || st.Today != "2026-03-02" || st.Streak != 1+28+2 || !slices.Equal(st.Days, []int{1, 2}) || st.MakeUpsLeft != 3 || len(st.MadeUpDays) != 0 {
				t.Fatalf("March 2 %s: %+v", when, st)
			}
			jan := "2026-01"
			st, _ = s.Status(ctx, 7, &jan)
			if !slices.Equal(st.Days, []int{29, 31}) || st.Streak != 31 {
				t.Fatalf("January %s: %+v", when, st)
			}
		}
		check("")
		// Redis loses everything: the bitmaps come back from tb_sign.
		loseRedis(b)
		check("after Redis lost its keys")
		if n := b.DB.Client.Sign.Query().Where(entsign.UserID(7)).CountX(ctx); n != 2+28+2 {
			t.Fatalf("%d rows in tb_sign, want 32 (one per day)", n)
		}
		// The next day, before signing: the streak ending today is 0.
		now = time.Date(2026, 3, 3, 8, 0, 0, 0, loc)
		st, _ := s.Status(ctx, 7, nil)
		if st.SignedToday || st.Streak != 0 {
			t.Fatalf("March 3 unsigned: %+v", st)
		}
		// Another user sees nothing.
		st, _ = s.Status(ctx, 8, nil)
		if st.SignedToday || st.Streak != 0 || len(st.Days) != 0 {
			t.Fatalf("user 8: %+v", st)
		}
		for _, bad := range []string{"2026-13", "2026/03", "march", ""} {
			if _, err := s.Status(ctx, 7, &bad); !errors.Is(err, apperr.New(apperr.BadUserInput, "")) {
				t.Fatalf("month %q: %v", bad, err)
			}
		}
	})
}

// A month read once is cached complete, empty months included: reading it
// again costs no SQL. A key found without its marker (a sign-in mirrored
// into a lost bitmap) is merged with MySQL, not trusted.
func TestMonthBitmapIsACache(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s := newService(b, -1)
		now := time.Date(2026, 5, 20, 12, 0, 0, 0, time.Local)
		s.now = func() time.Time { return now }
		if _, err := s.SignIn(ctx, 9); err != nil {
			t.Fatal(err)
		}
		k := s.key(9, now)
		loseRedis(b)
		// Another instance mirrors the next day into the missing key: the
		// key exists, without its marker.
		now = now.AddDate(0, 0, 1)
		if _, err := s.db.Sign.Create().SetUserID(9).SetYear(2026).SetMonth(5).SetDate(dateOf(now)).SetIsBackup(0).Save(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.rdb.SetBit(ctx, k, int64(now.Day()-1), 1).Err(); err != nil {
			t.Fatal(err)
		}
		st, err := s.Status(ctx, 9, nil)
		if err != nil || !slices.Equal(st.Days, []int{20, 21}) || st.Streak != 2 {
			t.Fatalf("after the merge: %+v %v", st, err)
		}
		// Every month read is now complete, the empty previous month too.
		for _, m := range []time.Time{now, now.AddDate(0, -1, 0)} {
			if v, err := s.rdb.GetBit(ctx, s.key(9, m), markerBit).Result(); err != nil || v != 1 {
				t.Fatalf("%s: marker %d %v", m.Format("2006-01"), v, err)
			}
		}
		// Rows MySQL gains behind the cache's back are not read again: the
		// complete bitmap answers alone.
		if _, err := s.db.Sign.Create().SetUserID(9).SetYear(2026).SetMonth(4).SetDate(dateOf(now.AddDate(0, -1, 0))).SetIsBackup(0).Save(ctx); err != nil {
			t.Fatal(err)
		}
		apr := "2026-04"
		if st, _ := s.Status(ctx, 9, &apr); len(st.Days) != 0 {
			t.Fatalf("April was cached empty: %+v", st)
		}
	})
}

func TestMakeUp(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		s := newService(b, 3)
		now := time.Date(2026, 6, 10, 9, 0, 0, 0, time.Local)
		s.now = func() time.Time { return now }
		for _, bad := range []string{"2026-06-10", "2026-06-11", "2026-05-31", "2025-06-01", "2026-6-1", "yesterday"} {
			_, err := s.MakeUp(ctx, 5, bad)
			if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != "date" {
				t.Fatalf("make-up %q: %v", bad, err)
			}
		}
		if _, err := s.SignIn(ctx, 5); err != nil {
			t.Fatal(err)
		}
		st, err := s.MakeUp(ctx, 5, "2026-06-09")
		if err != nil || st.Streak != 2 || !slices.Equal(st.MadeUpDays, []int{9}) || st.MakeUpsLeft != 2 {
			t.Fatalf("first make-up: %+v %v", st, err)
		}
		st, err = s.MakeUp(ctx, 5, "2026-06-09") // again: nothing changes
		if err != nil || st.MakeUpsLeft != 2 {
			t.Fatalf("same make-up again: %+v %v", st, err)
		}
		// Concurrent make-ups of 8 days: exactly the 2 left succeed.
		var wg sync.WaitGroup
		var mu sync.Mutex
		var ok, refused int
		for d := 1; d <= 8; d++ {
			wg.Go(func() {
				_, err := s.MakeUp(ctx, 5, time.Date(2026, 6, d, 0, 0, 0, 0, time.Local).Format(time.DateOnly))
				mu.Lock()
				defer mu.Unlock()
				switch apperr.CodeOf(err) {
				case "":
				case apperr.Conflict:
					refused++
					return
				default:
					if err != nil {
						t.Error(err)
						return
					}
				}
				ok++
			})
		}
		wg.Wait()
		if ok != 2 || refused != 6 {
			t.Fatalf("concurrent make-ups: %d succeeded, %d refused; want 2 and 6", ok, refused)
		}
		st, _ = s.Status(ctx, 5, nil)
		if len(st.MadeUpDays) != 3 || st.MakeUpsLeft != 0 || len(st.Days) != 4 {
			t.Fatalf("after the make-ups: %+v", st)
		}
		n := s.db.Sign.Query().Where(entsign.UserID(5), entsign.IsBackup(1)).CountX(ctx)
		if n != 3 {
			t.Fatalf("%d make-up rows, want 3", n)
		}
		// The made-up days survive a Redis loss, and a new month has its own allowance.
		loseRedis(b)
		again, _ := s.Status(ctx, 5, nil)
		if !slices.Equal(again.Days, st.Days) || !slices.Equal(again.MadeUpDays, st.MadeUpDays) || again.MakeUpsLeft != 0 || again.Streak != st.Streak {
			t.Fatalf("after Redis lost its keys: %+v, before %+v", again, st)
		}
		now = time.Date(2026, 7, 3, 9, 0, 0, 0, time.Local)
		if st, err := s.MakeUp(ctx, 5, "2026-07-02"); err != nil || st.MakeUpsLeft != 2 {
			t.Fatalf("July: %+v %v", st, err)
		}
	})
}

// Today is the server's date in its zone, not UTC's: 20:00 UTC on March 1 is
// already March 2 in Shanghai, and signIn signs March 2.
func TestTodayIsTheServersDay(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		shanghai := time.FixedZone("CST", 8*3600)
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, MakeUpsPerMonth: -1,
			Now: func() time.Time { return time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC) }, Location: shanghai})
		st, err := s.SignIn(ctx, 9)
		if err != nil {
			t.Fatal(err)
		}
		if st.Today != "2026-03-02" || !slices.Equal(st.Days, []int{2}) {
			t.Fatalf("signed in at 2026-03-01T20:00Z in Shanghai: %+v", st)
		}
	})
}
