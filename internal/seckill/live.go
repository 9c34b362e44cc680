package seckill

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/apperr"
)

// LiveStocks are sales' live stock, what each can still admit now (MySQL's
// stock lags it by the orders not yet persisted), in one pipelined round
// trip. A sale whose state Redis does not hold (never written, as for demo
// data, or lost) is rebuilt from MySQL first, as an attempt to buy would
// rebuild it, so the next read finds it in Redis. Ids that name no sale are
// left out.
func (s *Service) LiveStocks(ctx context.Context, ids []int64) (map[int64]int, error) {
	out, missing, err := s.readStocks(ctx, ids)
	if err != nil || len(missing) == 0 {
		return out, err
	}
	for _, id := range missing {
		if err := s.rebuild(ctx, id); err != nil {
			if apperr.CodeOf(err) == apperr.NotFound {
				continue
			}
			return nil, err
		}
	}
	again, _, err := s.readStocks(ctx, missing)
	if err != nil {
		return nil, err
	}
	for id, n := range again {
		out[id] = n
	}
	return out, nil
}

// readStocks reads the stock field of ids' states; missing are those Redis
// does not hold.
func (s *Service) readStocks(ctx context.Context, ids []int64) (map[int64]int, []int64, error) {
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.HGet(ctx, KeysOf(s.prefix, id).State, "stock")
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, nil, err
	}
	out := make(map[int64]int, len(ids))
	var missing []int64
	for i, c := range cmds {
		n, err := c.Int()
		if errors.Is(err, redis.Nil) {
			missing = append(missing, ids[i])
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		out[ids[i]] = n
	}
	return out, missing, nil
}
