-- Replaces a blog's like ZSET with the likes read from MySQL, unless a like or
-- unlike was applied since the caller read the version (then the read may be
-- stale and nothing is written). The sentinel member (score +inf) marks the
-- set as complete; a set without it is rebuilt. The set is a copy: it
-- expires, and its next reader rebuilds it.
-- KEYS[1] like ZSET, KEYS[2] version counter (same hash tag)
-- ARGV[1] version read before MySQL ("" when none), ARGV[2] sentinel,
-- ARGV[3] TTL of the set (ms), ARGV[4..] score, member pairs
local v = redis.call('GET', KEYS[2]) or ''
if v ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('ZADD', KEYS[1], '+inf', ARGV[2])
for i = 4, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
