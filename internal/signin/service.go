// Package signin records daily sign-ins in one Redis bitmap per user per
// month (bit d-1 = day d), as the original project does: 31 bits a month.
// Reads fetch the bitmap's bytes with GET and decode them here, so it works
// on servers without BITFIELD (the embedded Redis).
package signin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
)

// Status is a user's sign-in state.
type Status struct {
	SignedToday bool
	// Streak is the number of consecutive signed days ending today (0 when
	// today is not signed), across month boundaries.
	Streak int
	// Days are the signed days of the month asked for.
	Days []int
}

// Service is the sign-in service.
type Service struct {
	rdb    redis.UniversalClient
	prefix string
	// Now gives the current time; days are those of its location.
	Now func() time.Time
}

// New returns the service.
func New(rdb redis.UniversalClient, prefix string) *Service {
	return &Service{rdb: rdb, prefix: prefix, Now: time.Now}
}

// key is the bitmap of user's month; the user's months share a hash tag.
func (s *Service) key(user int64, month time.Time) string {
	return fmt.Sprintf("%ssign:{%d}:%s", s.prefix, user, month.Format("200601"))
}

// SignIn sets today's bit and returns this month's status.
func (s *Service) SignIn(ctx context.Context, user int64) (*Status, error) {
	now := s.Now()
	if err := s.rdb.SetBit(ctx, s.key(user, now), int64(now.Day()-1), 1).Err(); err != nil {
		return nil, err
	}
	return s.Status(ctx, user, nil)
}

// Status returns the status with the days of month ("YYYY-MM", nil = this month).
func (s *Service) Status(ctx context.Context, user int64, month *string) (*Status, error) {
	now := s.Now()
	today := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	asked := today
	if month != nil {
		m, err := time.ParseInLocation("2006-01", *month, now.Location())
		if err != nil {
			return nil, apperr.BadInput("month", "must be YYYY-MM, e.g. %s", now.Format("2006-01"))
		}
		asked = m
	}
	prev := today.AddDate(0, -1, 0)
	// One round trip: the asked month, this month and the previous one (a
	// streak usually ends within them).
	pipe := s.rdb.Pipeline()
	askedCmd := pipe.Get(ctx, s.key(user, asked))
	thisCmd := pipe.Get(ctx, s.key(user, today))
	prevCmd := pipe.Get(ctx, s.key(user, prev))
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	st := &Status{Days: []int{}}
	for d := 1; d <= daysIn(asked); d++ {
		if bit([]byte(askedCmd.Val()), d-1) {
			st.Days = append(st.Days, d)
		}
	}
	this := []byte(thisCmd.Val())
	st.SignedToday = bit(this, now.Day()-1)
	// Count back from today; go to earlier months while the streak goes on.
	bits, m, d := this, today, now.Day()
	older := []byte(prevCmd.Val())
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
		v, err := s.rdb.Get(ctx, s.key(user, m)).Bytes()
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, err
		}
		bits = v
	}
}

// bit reads bit i of a Redis bitmap (most significant bit of byte 0 first).
func bit(b []byte, i int) bool {
	return i/8 < len(b) && b[i/8]&(0x80>>(i%8)) != 0
}

func daysIn(month time.Time) int {
	return time.Date(month.Year(), month.Month()+1, 0, 0, 0, 0, 0, month.Location()).Day()
}
