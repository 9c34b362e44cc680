package shop

import (
	"context"
	"strconv"

	"github.com/hmdp/hmdp/ent"
)

// ShopsChanged applies changes made to the shops ids outside this service
// (seen in the binlog): what the shop.changed outbox row does for its own
// writes (Bloom filter, GEO sets, cache entry on every instance).
func (s *Service) ShopsChanged(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if err := s.applyShopChange(ctx, strconv.FormatInt(id, 10)); err != nil {
			return err
		}
	}
	return nil
}

// InvalidateAll drops every shop's cache entry (rewrites the hot ones) and
// the shop types (on every instance): for when changes may have been missed (a binlog gap).
func (s *Service) InvalidateAll(ctx context.Context) error {
	if err := s.InvalidateTypes(ctx); err != nil {
		return err
	}
	return s.allIDs(ctx, func(ids ...string) error {
		for _, id := range ids {
			if err := s.shops.InvalidateID(ctx, id); err != nil {
				return err
			}
			n, err := strconv.ParseInt(id, 10, 64)
			if err != nil {
				return err
			}
			if err := s.refreshHot(ctx, n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Changed records, in tx, that shop id's row is being changed by another
// service (the review service writes score and comments), and returns what
// to run after tx commits: the shop.changed side effects its own writes
// have (cache entry on every instance, hot copy rewritten, Bloom filter, GEO
// set), retried by the outbox if that run fails or never happens.
func (s *Service) Changed(ctx context.Context, tx *ent.Tx, id int64) (after func(context.Context), err error) {
	row, err := s.outbox.Record(ctx, tx, kindShopChanged, strconv.FormatInt(id, 10))
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) {
		if err := s.outbox.Run(ctx, row); err != nil {
			s.log.Warn("shop change side effects failed; the outbox retries them", "shop", id, "err", err)
		}
	}, nil
}
