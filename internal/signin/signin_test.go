package signin

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/testenv"
)

func TestSignInStreakAcrossMonths(t *testing.T) {
	testenv.ForEachRedis(t, func(t *testing.T, b testenv.RedisBackend) {
		ctx := context.Background()
		s := New(b.Client, b.Prefix)
		loc := time.FixedZone("CST", 8*3600)
		var now time.Time
		s.Now = func() time.Time { return now }
		sign := func(day time.Time) {
			t.Helper()
			now = day
			if _, err := s.SignIn(ctx, 7); err != nil {
				t.Fatal(err)
			}
		}
		// Jan 31, all of February 2026 (28 days), March 1 and 2; a gap on Jan 30.
		sign(time.Date(2026, 1, 29, 9, 0, 0, 0, loc))
		for d := time.Date(2026, 1, 31, 23, 0, 0, 0, loc); d.Before(time.Date(2026, 3, 3, 0, 0, 0, 0, loc)); d = d.AddDate(0, 0, 1) {
			sign(d)
		}
		sign(now) // twice the same day: no change
		st, err := s.Status(ctx, 7, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !st.SignedToday || st.Streak != 1+28+2 || !slices.Equal(st.Days, []int{1, 2}) {
			t.Fatalf("March 2: %+v", st)
		}
		jan := "2026-01"
		st, _ = s.Status(ctx, 7, &jan)
		if !slices.Equal(st.Days, []int{29, 31}) || st.Streak != 31 {
			t.Fatalf("January: %+v", st)
		}
		// The next day, before signing: the streak ending today is 0.
		now = time.Date(2026, 3, 3, 8, 0, 0, 0, loc)
		st, _ = s.Status(ctx, 7, nil)
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
