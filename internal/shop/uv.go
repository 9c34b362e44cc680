package shop

import (
	"context"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/internal/auth"
)

// uvKeyTTL keeps yesterday's count readable for a day, then lets it go.
const uvKeyTTL = 48 * time.Hour

// uvKey is the HyperLogLog of a shop's visitors on the day of t (server local time).
func (s *Service) uvKey(id int64, t time.Time) string {
	return s.prefix + "uv:shop:" + strconv.FormatInt(id, 10) + ":" + t.Format("20060102")
}

// visitor is the logged-in user, or the client IP for anonymous readers.
func visitor(ctx context.Context) string {
	if v := auth.ViewerFrom(ctx); v != nil && v.UserID != 0 {
		return "u:" + strconv.FormatInt(v.UserID, 10)
	}
	return "ip:" + auth.ClientIP(ctx)
}

func (s *Service) countVisit(ctx context.Context, id int64) error {
	key := s.uvKey(id, s.now())
	p := s.rdb.Pipeline()
	p.PFAdd(ctx, key, visitor(ctx))
	p.Expire(ctx, key, uvKeyTTL)
	_, err := p.Exec(ctx)
	return err
}

// UVToday is the number of distinct visitors of shop id today (HyperLogLog:
// exact for small counts, within about 0.81% for large ones).
func (s *Service) UVToday(ctx context.Context, id int64) (int, error) {
	n, err := s.rdb.PFCount(ctx, s.uvKey(id, s.now())).Result()
	return int(n), err
}
