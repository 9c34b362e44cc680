-- Applies one committed like or unlike to a blog's like ZSET and bumps the
-- set's version, so a rebuild that read MySQL before this change knows it is stale.
-- KEYS[1] like ZSET, KEYS[2] version counter (same hash tag)
-- ARGV[1] "1" like / "0" unlike, ARGV[2] score (ms), ARGV[3] member
redis.call('INCR', KEYS[2])
if ARGV[1] == '1' then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
else
  redis.call('ZREM', KEYS[1], ARGV[3])
end
return 1
