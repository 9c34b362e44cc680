// Package signin records daily sign-ins. tb_sign is the truth (its unique
// key (user_id, year, month, date) makes a second sign-in of a day a no-op);
// one Redis bitmap per user per month is a cache of it, as the original
// project keeps sign-ins: bit d-1 = day d. The bitmap is rebuilt from MySQL
// whenever it is found without its completeness marker, so a lost key (a
// restart of the embedded Redis, an eviction, a flush) loses nothing.
//
// Layout of a month's bitmap (32 bits a line, most significant bit of byte 0
// first, as SETBIT numbers them):
//
//	bits 0..30   day d signed in (bit d-1)
//	bit  31      marker: the bitmap holds the whole month from MySQL
//	bits 32..62  day d was a make-up sign-in (补签, bit 32+d-1)
//
// Bits are only ever set, never cleared, so a rebuild merges into whatever a
// concurrent sign-in mirrored (SETBIT) and neither can undo the other: no
// version guard is needed. Reads fetch the bytes with GET and decode them
// here, so it works on servers without BITFIELD (the embedded Redis).
package signin

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/predicate"
	entsign "github.com/hmdp/hmdp/ent/sign"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
)

// Bit positions of the month bitmap.
const (
	markerBit  = 31
	madeUpBase = 32
)

// DefaultMakeUpsPerMonth is the service's own bound for a Config that leaves
// MakeUpsPerMonth negative; the app passes HMDP_SIGN_MAKEUPS_PER_MONTH's value.
const DefaultMakeUpsPerMonth = 3

// Status is a user's sign-in state.
type Status struct {
	// Today is the server's date (YYYY-MM-DD in its Location): the day
	// SignIn signs, so a client's calendar need not trust the device's clock.
	Today       string
	SignedToday bool
	// Streak is the number of consecutive signed days ending today (0 when
	// today is not signed), across month boundaries; made-up days count.
	Streak int
	// Days are the signed days of the month asked for, made-up ones included.
	Days []int
	// MadeUpDays are the days of Days that were made up (补签).
	MadeUpDays []int
	// MakeUpsLeft is how many make-up sign-ins this month still allows.
	MakeUpsLeft int
}

// Config holds the service's dependencies and settings.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string
	// MakeUpsPerMonth bounds make-up sign-ins per user per month; negative
	// means DefaultMakeUpsPerMonth, 0 allows none.
	MakeUpsPerMonth int
	// Now gives the current time (default time.Now).
	Now func() time.Time
	// Location is the zone whose days are "today" and whose months are months
	// (the app passes HMDP_TIME_ZONE); default time.Local.
	Location *time.Location
}

// Service is the sign-in service.
type Service struct {
	db      *ent.Client
	rdb     redis.UniversalClient
	prefix  string
	makeUps int
	// now gives the current time; days are those of its location.
	now func() time.Time
}

// New returns the service.
func New(cfg Config) *Service {
	if cfg.MakeUpsPerMonth < 0 {
		cfg.MakeUpsPerMonth = DefaultMakeUpsPerMonth
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	clock, loc := cfg.Now, cfg.Location
	// Every day and month below is taken from now()'s location: this one.
	now := func() time.Time { return clock().In(loc) }
	return &Service{db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix, makeUps: cfg.MakeUpsPerMonth, now: now}
}

// key is the bitmap of user's month; the user's months share a hash tag.
func (s *Service) key(user int64, month time.Time) string {
	return fmt.Sprintf("%ssign:{%d}:%s", s.prefix, user, month.Format("200601"))
}

// SignIn signs today in and returns this month's status. Signing in twice
// the same day changes nothing.
func (s *Service) SignIn(ctx context.Context, user int64) (*Status, error) {
	if err := s.record(ctx, user, s.now(), false); err != nil {
		return nil, err
	}
	return s.Status(ctx, user, nil)
}

// MakeUp signs in a missed day (date "YYYY-MM-DD") earlier in the current
// month, stored with is_backup = 1, at most MakeUpsPerMonth times a month,
// and returns this month's status. A day already signed is left as it is
// (and uses up nothing). BAD_USER_INPUT naming date for a malformed date or
// one that is not an earlier day of this month; CONFLICT when no make-up is
// left this month.
func (s *Service) MakeUp(ctx context.Context, user int64, date string) (*Status, error) {
	now := s.now()
	d, err := time.ParseInLocation(time.DateOnly, date, now.Location())
	if err != nil {
		return nil, apperr.BadInput("date", "must be YYYY-MM-DD, e.g. %s", now.AddDate(0, 0, -1).Format(time.DateOnly))
	}
	if d.Year() != now.Year() || d.Month() != now.Month() || d.Day() >= now.Day() {
		return nil, apperr.BadInput("date", "must be an earlier day of this month")
	}
	if err := s.record(ctx, user, d, true); err != nil {
		return nil, err
	}
	return s.Status(ctx, user, nil)
}

// record writes the sign-in of day to tb_sign (a day already there is kept
// as it is), then mirrors it into the month's bitmap. The mirror runs even
// when the row was already there: SETBIT is idempotent, so repeating a
// sign-in repairs a mirror that failed after the commit.
func (s *Service) record(ctx context.Context, user int64, day time.Time, makeUp bool) error {
	var backup bool
	var err error
	// Concurrent make-ups of one user lock the same gap of tb_sign and
	// insert into it, which InnoDB resolves by failing all but one with a
	// deadlock: each round lets at least one through, so retrying (after a
	// random pause that spreads the rounds) ends.
	for attempt := 1; ; attempt++ {
		backup, err = s.insert(ctx, user, day, makeUp)
		if !deadlock(err) || attempt == maxDeadlockRetries {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1+rand.IntN(5*attempt)) * time.Millisecond): //nolint:gosec // jitter, not a secret
		}
	}
	if err != nil {
		return err
	}
	// ARCHITECTURE.md "Commit first, then tell Redis".
	pipe := s.rdb.Pipeline()
	k := s.key(user, day)
	pipe.SetBit(ctx, k, int64(day.Day()-1), 1)
	if backup {
		pipe.SetBit(ctx, k, int64(madeUpBase+day.Day()-1), 1)
	}
	_, err = pipe.Exec(ctx)
	return err
}

// insert writes day's row in one transaction and reports whether the day's
// row (new or already there) is a make-up.
func (s *Service) insert(ctx context.Context, user int64, day time.Time, makeUp bool) (backup bool, err error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, tx.Rollback())
		}
	}()
	q := tx.Sign.Query().Where(entsign.UserID(user), entsign.Year(day.Year()), entsign.Month(int(day.Month())))
	if !makeUp {
		q = q.Where(entsign.DateEQ(dateOf(day)))
	}
	// The month's rows, locked on MySQL: concurrent make-ups of one user
	// count in turn (SQLite transactions take the write lock up front).
	rows, err := q.Where(database.ForUpdate).All(ctx)
	if err != nil {
		return false, err
	}
	used := 0
	for _, r := range rows {
		if dayOf(r) == day.Day() {
			return r.IsBackup == 1, tx.Rollback() // already signed: nothing to change
		}
		if r.IsBackup == 1 {
			used++
		}
	}
	if makeUp && used >= s.makeUps {
		return false, apperr.New(apperr.Conflict, "no make-up sign-ins left this month (%d a month)", s.makeUps)
	}
	isBackup := 0
	if makeUp {
		isBackup = 1
	}
	err = tx.Sign.Create().SetUserID(user).SetYear(day.Year()).SetMonth(int(day.Month())).
		SetDate(dateOf(day)).SetIsBackup(isBackup).Exec(ctx)
	if ent.IsConstraintError(err) {
		// A concurrent sign-in of the same day won (a plain sign-in locks
		// only its own day): the day is signed either way.
		return makeUp, tx.Rollback()
	}
	if err != nil {
		return false, err
	}
	return makeUp, tx.Commit()
}

// deadlock reports MySQL's deadlock error, after which a transaction is retried.
// maxDeadlockRetries bounds the attempts of one sign-in; a user has at most
// a month of days to make up concurrently, so rounds past that mean trouble.
const maxDeadlockRetries = 31

func deadlock(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == 1213
}

// dateOf is day's calendar date as tb_sign stores it (a DATE: midnight UTC).
func dateOf(day time.Time) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
}

// dayOf is the day of the month of a row.
func dayOf(r *ent.Sign) int { return r.Date.UTC().Day() }

// Status returns the status with the days of month ("YYYY-MM", nil = this month).
func (s *Service) Status(ctx context.Context, user int64, month *string) (*Status, error) {
	now := s.now()
	this := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	asked := this
	if month != nil {
		m, err := time.ParseInLocation("2006-01", *month, now.Location())
		if err != nil {
			return nil, apperr.BadInput("month", "must be YYYY-MM, e.g. %s", now.Format("2006-01"))
		}
		asked = m
	}
	prev := this.AddDate(0, -1, 0)
	// One round trip for the asked month, this month and the previous one
	// (a streak usually ends within them).
	maps, err := s.months(ctx, user, asked, this, prev)
	if err != nil {
		return nil, err
	}
	st := &Status{Today: now.Format(time.DateOnly), Days: []int{}, MadeUpDays: []int{}}
	for d := 1; d <= daysIn(asked); d++ {
		if bit(maps[0], d-1) {
			st.Days = append(st.Days, d)
		}
		if bit(maps[0], madeUpBase+d-1) {
			st.MadeUpDays = append(st.MadeUpDays, d)
		}
	}
	used := 0
	for d := 1; d <= daysIn(this); d++ {
		if bit(maps[1], madeUpBase+d-1) {
			used++
		}
	}
	st.MakeUpsLeft = max(s.makeUps-used, 0)
	st.SignedToday = bit(maps[1], now.Day()-1)
	// Count back from today; go to earlier months while the streak goes on.
	bits, m, d := maps[1], this, now.Day()
	older := maps[2]
	for {
		for ; d >= 1 && bit(bits, d-1); d-- {
			st.Streak++
		}
		if d >= 1 || st.Streak == 0 {
			return st, nil
		}
		m = m.AddDate(0, -1, 0)
		d = daysIn(m)
		if older != nil {
			bits, older = older, nil
			continue
		}
		more, err := s.months(ctx, user, m)
		if err != nil {
			return nil, err
		}
		bits = more[0]
	}
}

// months returns the bitmaps of user's months (each a month's first day),
// rebuilding from MySQL, in one statement, those Redis lacks or holds only
// in part.
func (s *Service) months(ctx context.Context, user int64, months ...time.Time) ([][]byte, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(months))
	for i, m := range months {
		cmds[i] = pipe.Get(ctx, s.key(user, m))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([][]byte, len(months))
	var missing []time.Time
	for i, m := range months {
		out[i] = []byte(cmds[i].Val())
		if !bit(out[i], markerBit) {
			missing = append(missing, m)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	rebuilt, err := s.rebuild(ctx, user, missing)
	if err != nil {
		return nil, err
	}
	for i, m := range months {
		if b, ok := rebuilt[m.Format("200601")]; ok {
			out[i] = b
		}
	}
	return out, nil
}

// rebuild reads months of user from tb_sign and merges them into their
// bitmaps, setting each one's marker last, in one transaction per round trip
// (the user's keys share a slot). It returns the bitmaps as MySQL has them.
func (s *Service) rebuild(ctx context.Context, user int64, months []time.Time) (map[string][]byte, error) {
	var preds []predicate.Sign
	for _, m := range months {
		preds = append(preds, entsign.And(entsign.Year(m.Year()), entsign.Month(int(m.Month()))))
	}
	rows, err := s.db.Sign.Query().Where(entsign.UserID(user), entsign.Or(preds...)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(months))
	set := func(m string, i int) {
		b := out[m]
		for len(b) <= i/8 {
			b = append(b, 0)
		}
		b[i/8] |= 0x80 >> (i % 8)
		out[m] = b
	}
	for _, m := range months {
		set(m.Format("200601"), markerBit)
	}
	for _, r := range rows {
		m := fmt.Sprintf("%04d%02d", r.Year, r.Month)
		set(m, dayOf(r)-1)
		if r.IsBackup == 1 {
			set(m, madeUpBase+dayOf(r)-1)
		}
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, m := range months {
			k := s.key(user, m)
			b := out[m.Format("200601")]
			for i := range len(b) * 8 {
				if i != markerBit && bit(b, i) {
					p.SetBit(ctx, k, int64(i), 1)
				}
			}
			p.SetBit(ctx, k, markerBit, 1)
		}
		return nil
	})
	return out, err
}

// bit reads bit i of a Redis bitmap (most significant bit of byte 0 first).
func bit(b []byte, i int) bool {
	return i/8 < len(b) && b[i/8]&(0x80>>(i%8)) != 0
}

func daysIn(month time.Time) int {
	return time.Date(month.Year(), month.Month()+1, 0, 0, 0, 0, 0, month.Location()).Day()
}
