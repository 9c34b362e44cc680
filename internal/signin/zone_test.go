package signin

import (
	"context"
	"slices"
	"testing"
	"time"

	entsign "github.com/hmdp/hmdp/ent/sign"
	"github.com/hmdp/hmdp/internal/testenv"
)

// "Today" is the configured zone's day, whatever the clock's (or the
// process's) zone: at 00:30 in Shanghai (16:30 UTC the day before) a sign-in
// is for the Shanghai day, and at the end of a month it lands in the next
// month. The clock here reports UTC, as a server in UTC would.
func TestTodayIsTheConfiguredZonesDay(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		sh, err := time.LoadLocation("Asia/Shanghai")
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 6, 10, 16, 30, 0, 0, time.UTC) // 2026-06-11 00:30 in Shanghai
		s := New(Config{DB: b.DB.Client, Redis: b.Redis.Client, Prefix: b.Redis.Prefix, MakeUpsPerMonth: -1,
			Now: func() time.Time { return now }, Location: sh})
		st, err := s.SignIn(ctx, 4)
		if err != nil || !st.SignedToday || !slices.Equal(st.Days, []int{11}) {
			t.Fatalf("%+v %v", st, err)
		}
		row, err := s.db.Sign.Query().Where(entsign.UserID(4)).Only(ctx)
		if err != nil || row.Year != 2026 || row.Month != 6 || dayOf(row) != 11 {
			t.Fatalf("row %+v %v", row, err)
		}
		// 23:59 in Shanghai is still the 11th: signed already.
		now = time.Date(2026, 6, 11, 15, 59, 0, 0, time.UTC)
		if st, err := s.Status(ctx, 4, nil); err != nil || !st.SignedToday || st.Streak != 1 {
			t.Fatalf("23:59: %+v %v", st, err)
		}
		// 00:10 on July 1 in Shanghai is June 30 in UTC: a new month.
		now = time.Date(2026, 6, 30, 16, 10, 0, 0, time.UTC)
		st, err = s.SignIn(ctx, 4)
		if err != nil || !slices.Equal(st.Days, []int{1}) || st.Streak != 1 {
			t.Fatalf("July 1: %+v %v", st, err)
		}
	})
}
