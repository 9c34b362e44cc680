package auth

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// A websocket authenticates once, at connection_init, and may stay open for
// hours; its session must still end when the session does. A Watch follows
// one session for such a connection: the announcements of session changes
// (logout, a new password: on any instance) make it look at once, and a timer
// looks when the session would expire (sliding it instead while the
// connection is in use).

// ErrSessionEnded is why a connection's work ends when its session did.
var ErrSessionEnded = sessionEndedError{}

type sessionEndedError struct{}

func (sessionEndedError) Error() string { return "the session ended (logged out or expired)" }

// watchTimeout bounds each Redis look of a watch.
const watchTimeout = 5 * time.Second

// Watch follows the session of a long-lived connection.
type Watch struct {
	s     *Service
	key   string
	user  int64
	inUse func() bool
	ended func()

	mu    sync.Mutex
	timer *time.Timer
	done  bool
}

// Watch follows v's session for a connection that outlives requests. ended
// runs once, on a goroutine of its own, when the session is gone: ended on
// any instance, or expired. Each time the session would expire, inUse is
// asked: true slides the session's expiry as a request would (a websocket
// holding subscriptions is in use). Stop ends the watch.
func (s *Service) Watch(v *Viewer, inUse func() bool, ended func()) *Watch {
	w := &Watch{s: s, key: s.sessionKey(v.Token), user: v.UserID, inUse: inUse, ended: ended}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !s.watches.add(w) {
		w.done = true
		go ended() // the service is closing
		return w
	}
	w.timer = time.AfterFunc(s.cfg.SessionTTL/3, w.tick)
	return w
}

// Stop ends the watch; ended will not run after Stop returns unless it
// already started.
func (w *Watch) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopLocked()
}

func (w *Watch) stopLocked() {
	if w.done {
		return
	}
	w.done = true
	if w.timer != nil {
		w.timer.Stop()
	}
	w.s.watches.remove(w)
}

// end stops the watch and runs ended, once.
func (w *Watch) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.stopLocked()
	go w.ended()
}

// tick runs when the session may have expired: in use, it slides the
// session; otherwise it reads how long the session has left. Either way it
// comes back when the session would expire next (at most a third of its
// lifetime later, so a connection that comes into use slides in time).
func (w *Watch) tick() {
	ctx, cancel := context.WithTimeout(context.Background(), watchTimeout)
	defer cancel()
	ttl := w.s.cfg.SessionTTL
	next := ttl / 3
	if w.inUse() {
		if err := w.s.batch.RunScript(ctx, touchSession, []string{w.key}, ttl.Milliseconds()).Err(); err != nil {
			if errors.Is(err, redis.Nil) {
				w.end()
				return
			}
			next = watchTimeout // Redis trouble ends nothing: look again soon
		} else {
			w.s.slideIndex(ctx, w.user)
		}
	} else {
		left, err := w.s.rdb.PTTL(ctx, w.key).Result()
		switch {
		case err != nil:
			next = watchTimeout
		case left < 0: // -2: gone (-1, no expiry, is not a state sessions have)
			w.end()
			return
		case left < next:
			next = left + 10*time.Millisecond
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.timer.Reset(next)
	}
}

// verify ends the watch if the session is gone (after an announcement).
func (w *Watch) verify() {
	ctx, cancel := context.WithTimeout(context.Background(), watchTimeout)
	defer cancel()
	n, err := w.s.rdb.Exists(ctx, w.key).Result()
	if err == nil && n == 0 {
		w.end()
	}
}

// watches are the live watches of an instance, by session key.
type watches struct {
	mu      sync.Mutex
	byKey   map[string]map[*Watch]struct{}
	stopped bool
}

func (ws *watches) add(w *Watch) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.stopped {
		return false
	}
	if ws.byKey == nil {
		ws.byKey = map[string]map[*Watch]struct{}{}
	}
	if ws.byKey[w.key] == nil {
		ws.byKey[w.key] = map[*Watch]struct{}{}
	}
	ws.byKey[w.key][w] = struct{}{}
	return true
}

func (ws *watches) remove(w *Watch) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(ws.byKey[w.key], w)
	if len(ws.byKey[w.key]) == 0 {
		delete(ws.byKey, w.key)
	}
}

// check looks again at the session under key of every watch that holds it.
func (ws *watches) check(key string) {
	ws.mu.Lock()
	list := make([]*Watch, 0, len(ws.byKey[key]))
	for w := range ws.byKey[key] {
		list = append(list, w)
	}
	ws.mu.Unlock()
	for _, w := range list {
		go w.verify()
	}
}

// stopAll ends every watch (the service is closing: the connections are
// being closed anyway) and refuses new ones.
func (ws *watches) stopAll() {
	ws.mu.Lock()
	ws.stopped = true
	var list []*Watch
	for _, m := range ws.byKey {
		for w := range m {
			list = append(list, w)
		}
	}
	ws.mu.Unlock()
	for _, w := range list {
		w.Stop()
	}
}
