-- Applies one committed change to a SET mirrored from MySQL and bumps its
-- version, so a rebuild that read MySQL before the change knows it is stale.
-- A set not in Redis is left so (its next reader rebuilds it from MySQL,
-- change included): a change never creates a set, which would have no TTL.
-- The version counter lives as long as a set (refreshed by each change).
-- KEYS[1] set, KEYS[2] version counter (same hash tag)
-- ARGV[1] "1" add / "0" remove, ARGV[2] member, ARGV[3] TTL of the counter (ms)
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[1] == '1' then
  redis.call('SADD', KEYS[1], ARGV[2])
else
  redis.call('SREM', KEYS[1], ARGV[2])
end
return 1
