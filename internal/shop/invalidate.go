package shop

import (
	"context"
	"strconv"
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
