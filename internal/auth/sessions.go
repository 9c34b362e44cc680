package auth

import (
	"context"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/internal/nearcache"
)

// Every authenticated request needs its session, and reading it from Redis
// is a round trip that can cost as much as the work the request came for
// (a flash-sale admission is one EVALSHA). So each instance keeps the
// sessions it read for SessionCacheTTL (5 s by default), and a change to a
// session (logout, new nickname, new password) is announced on a channel
// every instance follows, so it takes effect everywhere at once, not after
// the TTL. The same announcements end the websockets that hold a session
// that ended (watch.go).

func (s *Service) sessionsChannel() string { return s.prefix + "login:session:changed" }

// sessionFollower is the subscription to session changes.
type sessionFollower struct {
	sub *redis.PubSub
	wg  sync.WaitGroup
}

// Start follows session changes made on any instance, and starts retrying
// the other sessions' ends that failed after a password change; it returns
// once following.
func (s *Service) Start(ctx context.Context) error {
	sub := s.rdb.Subscribe(ctx, s.sessionsChannel())
	if _, err := sub.Receive(ctx); err != nil {
		_ = sub.Close()
		return fmt.Errorf("auth: subscribe %s: %w", s.sessionsChannel(), err)
	}
	s.follower.sub = sub
	ch := sub.Channel()
	//nolint:contextcheck // announcements are handled until Close, not for Start's caller
	s.follower.wg.Go(func() {
		for msg := range ch {
			s.sessionChanged(msg.Payload)
		}
		// The channel closes only at Close; a dropped connection is
		// resubscribed by go-redis (announcements sent meanwhile are lost:
		// the session cache's TTL and the watches' expiry timers bound that).
		if s.recent != nil {
			s.recent.DropAll()
		}
	})
	s.outbox.Start() //nolint:contextcheck // the retries run until Close, not for Start's caller
	return nil
}

// sessionChanged handles one announcement: the session under key changed.
func (s *Service) sessionChanged(key string) {
	if s.recent != nil {
		s.recent.Drop(key)
	}
	s.watches.check(key)
}

// Close stops following session changes and the retries, and ends the watches.
func (s *Service) Close() error {
	s.outbox.Close()
	var err error
	if s.follower.sub != nil {
		err = s.follower.sub.Close()
		s.follower.wg.Wait()
	}
	s.watches.stopAll()
	return err
}

// forget drops the session under key here and on every other instance.
func (s *Service) forget(ctx context.Context, key string) error {
	if s.recent != nil {
		s.recent.Drop(key)
	}
	//nolint:contextcheck // each watch looks with its own timeout, after the caller's request
	s.watches.check(key)
	if err := nearcache.Announce(ctx, s.rdb, s.sessionsChannel(), key); err != nil {
		return fmt.Errorf("announce session change: %w", err)
	}
	return nil
}
