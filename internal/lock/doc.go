// Package lock provides distributed locks on Redis, re-creating what the
// 黑马点评 write-ups build step by step (SETNX, then owner check, then Lua,
// then Redisson):
//
//   - Simple: SET key value NX PX ttl, released by a Lua compare-and-delete.
//   - Reentrant: Redisson's lock, a hash owner -> hold count with a watchdog
//     (看门狗) renewing a 30 s lease every 10 s, waiters woken by Pub/Sub on
//     release, a fencing token per acquisition, and a Hold whose context is
//     canceled when the lock is lost.
//   - Multi / Redlock: one lock over independent Redis servers, taken on all
//     of them (MultiLock) or a majority within the lease (Redlock).
//
// Reentrancy is per owner, and the owner travels in the context (see
// WithOwner): goroutines have no id to play the part of Java's thread id.
//
// Keys, for a Locker with prefix p and lock name n (every key of one lock
// shares the hash tag {n}, so each script stays in one cluster slot):
//
//	p + "lock:{n}"           the lock (simple: a string; reentrant: a hash)
//	p + "lock:{n}:fence"     the reentrant lock's fencing counter
//	p + "lock:{n}:released"  the Pub/Sub channel a release publishes to
//
// Every script is in lua/lock_*.lua and takes those names through KEYS.
//
// Metrics (on the registry given with WithRegisterer), labelled by kind
// (simple, reentrant, multi, redlock): hmdp_lock_acquisitions_total,
// hmdp_lock_waits_total (acquisitions that found the lock held and waited),
// hmdp_lock_losses_total (locks lost while held).
package lock
