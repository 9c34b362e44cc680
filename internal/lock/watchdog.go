package lock

import (
	"context"
	"time"
)

// watchdog renews h's lease every renewEvery until h ends (Redisson's
// "看门狗"). A renewal that finds the key gone or owned by someone else means
// the lock is lost; so does failing to renew for a whole lease, since by then
// the key has expired. A process that was paused (GC, SIGSTOP) longer than the
// lease learns it on its first renewal after waking.
func (l *Locker) watchdog(h *holding, owner string, start time.Time) {
	t := time.NewTicker(l.renewEvery)
	defer t.Stop()
	lastOK := start // the key lives at least a lease past the start of the last successful request
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		at := time.Now()
		// The timeout takes effect only on clients with ContextTimeoutEnabled;
		// otherwise the client's read timeout bounds the call.
		ctx, cancel := context.WithTimeout(context.Background(), l.renewEvery)
		n, err := scriptReentrantRenew.Run(ctx, l.client, []string{h.k.lock}, owner, l.lease.Milliseconds()).Int64()
		cancel()
		switch {
		case err == nil && n == 1:
			lastOK = at
		case err == nil:
			l.lose(h, "key vanished or expired before renewal")
			return
		case time.Since(lastOK) >= l.lease:
			l.lose(h, "renewal failed for a whole lease: "+err.Error())
			return
		default:
			select {
			case <-h.stop: // released meanwhile; the error is moot
				return
			default:
			}
			l.log.Warn("lock: renewal failed, will retry", "lock", h.k.name, "err", err)
		}
	}
}
