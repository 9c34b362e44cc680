-- Applies one committed like or unlike to a blog's like ZSET and bumps the
-- set's version, so a rebuild that read MySQL before this change knows it is stale.
-- A set not in Redis is left so (its next reader rebuilds it from MySQL,
-- change included): a change never creates a set, which would have no TTL.
-- The version counter lives as long as a set (refreshed by each change).
-- KEYS[1] like ZSET, KEYS[2] version counter (same hash tag)
-- ARGV[1] "1" like / "0" unlike, ARGV[2] score (ms), ARGV[3] member,
-- ARGV[4] TTL of the counter (ms)
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[1] == '1' then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
else
  redis.call('ZREM', KEYS[1], ARGV[3])
end
return 1
