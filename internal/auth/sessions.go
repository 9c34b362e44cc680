package auth

import (
	"context"
	"fmt"

	"github.com/hmdp/hmdp/internal/nearcache"
)

// Every authenticated request needs its session, and reading it from Redis
// is a round trip that can cost as much as the work the request came for
// (a flash-sale admission is one EVALSHA). So each instance keeps the
// sessions it read for SessionCacheTTL (5 s by default), and a change to a
// session (logout, new nickname) is announced on a channel every instance
// follows, so it takes effect everywhere at once, not after the TTL.

func (s *Service) sessionsChannel() string { return s.prefix + "login:session:changed" }

// Start follows session changes made on other instances; it returns once
// following. Without a session cache it does nothing.
func (s *Service) Start(ctx context.Context) error {
	if s.recent == nil {
		return nil
	}
	if err := s.recent.Follow(ctx, s.rdb, s.sessionsChannel()); err != nil {
		return fmt.Errorf("auth: %w", err)
	}
	return nil
}

// Close stops following session changes.
func (s *Service) Close() error {
	if s.recent == nil {
		return nil
	}
	return s.recent.Close()
}

// forget drops the session under key here and on every other instance.
func (s *Service) forget(ctx context.Context, key string) error {
	if s.recent == nil {
		return nil
	}
	s.recent.Drop(key)
	if err := nearcache.Announce(ctx, s.rdb, s.sessionsChannel(), key); err != nil {
		return fmt.Errorf("announce session change: %w", err)
	}
	return nil
}
