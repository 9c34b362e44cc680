-- Replaces a SET with the members read from MySQL, unless a change was applied
-- since the caller read the version (then nothing is written). The sentinel
-- member marks the set as complete; a set without it is rebuilt. The set is
-- a copy: it expires, and its next reader rebuilds it.
-- KEYS[1] set, KEYS[2] version counter (same hash tag)
-- ARGV[1] version read before MySQL ("" when none), ARGV[2] sentinel,
-- ARGV[3] TTL of the set (ms), ARGV[4..] members
local v = redis.call('GET', KEYS[2]) or ''
if v ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('SADD', KEYS[1], ARGV[2])
for i = 4, #ARGV, 500 do
  redis.call('SADD', KEYS[1], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
