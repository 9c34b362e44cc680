-- Adds posts to a feed inbox ZSET, keeps its newest entries, and makes sure
-- it expires: an inbox is a copy rebuilt from MySQL by its next reader, so a
-- push to the inbox of someone who no longer reads must not keep it forever.
-- A push does not extend an inbox's TTL (reads and rebuilds do); one that
-- creates the inbox gives it the TTL.
-- KEYS[1] inbox
-- ARGV[1] entries kept (the newest; rank 0 is kept too: the sentinel at -inf),
-- ARGV[2] TTL (ms), ARGV[3] "1" to set the TTL whatever it is (a rebuild),
-- ARGV[4..] score, member pairs
for i = 4, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 1, -tonumber(ARGV[1]) - 1)
if ARGV[3] == '1' or redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
