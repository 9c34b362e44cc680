// Package outbox is the transactional outbox: it makes the side effects that
// must follow a MySQL write (Redis changes, and removing an uploaded image's
// file) durable.
//
// Why: a write changes MySQL in a transaction and only after the commit tells
// Redis (deletes a cache entry, drops a set, moves a GEO member, removes an
// image file). If the process dies, or Redis fails, between the commit and that
// step, MySQL and Redis diverge, and nothing would ever notice: the commit
// cannot be undone, and the step is lost with the process. So the step is
// written as a row of hmdp_outbox in the write's own transaction (Record):
// either the write and the row both commit, or neither does. After the commit
// the writer runs the step at once (Run) and deletes the row; a poller on every
// instance (Start) retries rows whose run failed, or whose writer died first,
// with backoff, until their handler succeeds. Handlers must therefore be
// idempotent: a row may run more than once, on any instance (ARCHITECTURE.md
// "Commit first, then tell Redis", "Replays are harmless").
//
// Several services keep their own Outbox on the one table (shop: shop.changed;
// like: like.stale; follow: follow.stale; image: image.remove); each registers
// handlers for its own kinds (Handle) and its poller takes only those rows.
// The table's schema is ent/schema/outbox.go.
package outbox
