package auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hmdp/hmdp/ent"
)

// Each user's sessions are listed in a Redis set, login:user:<id>:sessions,
// of the sessions' key hashes, so a password change can end all of them
// (EndOtherSessions). The set is written when a session starts; members
// whose session expired or was logged out are removed then and at a password
// change. It expires too: sessions slide, so the set's expiry slides with
// them, at most once per half session lifetime per user and instance
// (indexSlides), always to twice a session lifetime ahead, so it outlives
// every session it lists.

const sessionKeyInfix = "login:session:"

func (s *Service) userSessionsKey(userID int64) string {
	return s.prefix + "login:user:" + strconv.FormatInt(userID, 10) + ":sessions"
}

// sessionHash is the member of the user's set for a session key.
func (s *Service) sessionHash(key string) string {
	return strings.TrimPrefix(key, s.prefix+sessionKeyInfix)
}

func (s *Service) keyOfHash(hash string) string { return s.prefix + sessionKeyInfix + hash }

func (s *Service) indexTTL() time.Duration { return 2 * s.cfg.SessionTTL }

// indexSession lists the session under key in its user's set, and drops the
// members whose sessions are gone.
func (s *Service) indexSession(ctx context.Context, userID int64, key string) error {
	set := s.userSessionsKey(userID)
	// Not a transaction: in a Redis Cluster the set and the sessions live in
	// different slots.
	if _, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, set, s.sessionHash(key))
		p.PExpire(ctx, set, s.indexTTL())
		return nil
	}); err != nil {
		return fmt.Errorf("index session: %w", err)
	}
	s.slides.done(userID, s.cfg.Now())
	_, err := s.liveSessions(ctx, set)
	return err
}

// liveSessions returns the session key hashes of set whose sessions still
// exist, removing the others from it.
func (s *Service) liveSessions(ctx context.Context, set string) ([]string, error) {
	hashes, err := s.rdb.SMembers(ctx, set).Result()
	if err != nil {
		return nil, fmt.Errorf("read user sessions: %w", err)
	}
	if len(hashes) == 0 {
		return nil, nil
	}
	exists := make([]*redis.IntCmd, len(hashes))
	if _, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, h := range hashes {
			exists[i] = p.Exists(ctx, s.keyOfHash(h))
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read user sessions: %w", err)
	}
	var live []string
	var dead []any
	for i, h := range hashes {
		if exists[i].Val() > 0 {
			live = append(live, h)
		} else {
			dead = append(dead, h)
		}
	}
	if len(dead) > 0 {
		if err := s.rdb.SRem(ctx, set, dead...).Err(); err != nil {
			return nil, fmt.Errorf("prune user sessions: %w", err)
		}
	}
	return live, nil
}

// slideIndex keeps the user's set alive while a session of the user is in
// use. Failing to is logged, not returned: the request itself is fine.
func (s *Service) slideIndex(ctx context.Context, userID int64) {
	now := s.cfg.Now()
	if !s.slides.due(userID, now, s.cfg.SessionTTL/2) {
		return
	}
	// No request waits for it: it rides in the next pipeline of session reads.
	s.batch.Send(ctx, func(err error) {
		if err != nil {
			s.cfg.Log.WarnContext(ctx, "slide the user's session list", "user", userID, "err", err)
			return
		}
		s.slides.done(userID, now)
	}, "pexpire", s.userSessionsKey(userID), s.indexTTL().Milliseconds())
}

// kindEndSessions is the outbox kind that ends a user's other sessions after
// a password change; its argument is "<user id>:<the kept session's hash>".
const kindEndSessions = "auth.end_sessions"

// EndOtherSessions records in tx, the transaction that changes the password
// of v's user, that every session of that user but v's own is to end, on
// every instance (their open websockets close with 4403). Run after, once tx
// has committed: it ends them at once; should that fail, the outbox retries
// it until it succeeds, so a password change never leaves a stolen session
// alive for good.
func (s *Service) EndOtherSessions(ctx context.Context, tx *ent.Tx, v *Viewer) (after func(context.Context), err error) {
	arg := strconv.FormatInt(v.UserID, 10) + ":" + s.sessionHash(s.sessionKey(v.Token))
	row, err := s.outbox.Record(ctx, tx, kindEndSessions, arg)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) {
		if err := s.outbox.Run(ctx, row); err != nil {
			s.cfg.Log.WarnContext(ctx, "ending the other sessions after a password change failed; the outbox retries it",
				"user", v.UserID, "err", err)
		}
	}, nil
}

// endSessions is the kindEndSessions handler (idempotent): it ends every
// session of the user but the one kept.
func (s *Service) endSessions(ctx context.Context, arg string) error {
	id, keep, ok := strings.Cut(arg, ":")
	userID, err := strconv.ParseInt(id, 10, 64)
	if !ok || err != nil {
		return fmt.Errorf("%s: bad argument %q", kindEndSessions, arg)
	}
	_, err = s.endSessionsBut(ctx, userID, keep)
	return err
}

// endSessionsBut ends every session of the user whose hash is not keep, on
// every instance, and returns how many it ended.
func (s *Service) endSessionsBut(ctx context.Context, userID int64, keep string) (int, error) {
	set := s.userSessionsKey(userID)
	live, err := s.liveSessions(ctx, set)
	if err != nil {
		return 0, err
	}
	ended := 0
	for _, h := range live {
		if h == keep {
			continue
		}
		key := s.keyOfHash(h)
		if err := s.rdb.Del(ctx, key).Err(); err != nil {
			return ended, fmt.Errorf("end session: %w", err)
		}
		if err := s.rdb.SRem(ctx, set, h).Err(); err != nil {
			return ended, fmt.Errorf("end session: %w", err)
		}
		if err := s.forget(ctx, key); err != nil {
			return ended, err
		}
		ended++
	}
	return ended, nil
}

// indexSlides remembers when this instance last slid each user's set.
type indexSlides struct {
	mu   sync.Mutex
	last map[int64]time.Time
}

// due reports whether the user's set was not slid here within every.
func (x *indexSlides) due(userID int64, now time.Time, every time.Duration) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	t, ok := x.last[userID]
	return !ok || now.Sub(t) >= every || now.Before(t)
}

func (x *indexSlides) done(userID int64, now time.Time) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.last == nil || len(x.last) >= 100_000 {
		x.last = map[int64]time.Time{} // forgetting only costs extra slides
	}
	x.last[userID] = now
}
