package shop

import "github.com/hmdp/hmdp/internal/rediscache"

// Bloom is the filter of the shop ids that exist, for other caches keyed by
// shop id (a shop's vouchers): an id it rejects has nothing to cache.
func (s *Service) Bloom() *rediscache.Bloom { return s.bloom }
