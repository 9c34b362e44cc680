// Package rediscache is the Redis cache-aside toolkit of the 黑马点评 write-ups,
// generic over the cached type: values live in Redis, shared by every
// instance, and are loaded from MySQL on a miss. Its neighbours are
// internal/nearcache (the short-lived in-process copy this package can put in
// front of Redis), internal/responsecache (whole GraphQL answers kept in
// memory) and internal/outbox (which makes the invalidations after a write
// durable).
//
// It implements:
//
//   - cache-aside read: Redis hit → return; miss → load from MySQL, write with a TTL;
//   - penetration (穿透): a miss in MySQL is cached as a null marker with a short
//     TTL, and an optional Bloom filter over existing ids (a Redis bitmap) rejects
//     ids that cannot exist before Redis or MySQL are asked;
//   - breakdown (击穿): either a mutex rebuild (singleflight in the process, then a
//     lock from internal/lock across instances, the others wait and re-read) or
//     logical expiry (the value carries its expiry; a stale value is served at
//     once while exactly one background rebuild runs);
//   - avalanche (雪崩): random jitter on every TTL (default ±10%);
//   - an optional near cache (in-process, short TTL) invalidated on every
//     instance through Redis Pub/Sub;
//   - writes: the caller updates MySQL and records the invalidation in an outbox
//     row in the same transaction (internal/outbox); after commit the key is
//     deleted (Cache.InvalidateID is the outbox handler), and rows whose delete
//     failed are retried until they succeed.
//
// Keys, for prefix p and cache name n: p+"cache:"+n+":"+id (value or null
// marker), p+"bloom:{"+n+"}" and p+"bloom:{"+n+"}:ready" (Bloom filter), and
// the Pub/Sub channel p+"cache:"+n+":invalidate".
package rediscache
