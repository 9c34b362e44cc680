-- Applies one committed change to a SET mirrored from MySQL and bumps its
-- version, so a rebuild that read MySQL before the change knows it is stale.
-- KEYS[1] set, KEYS[2] version counter (same hash tag)
-- ARGV[1] "1" add / "0" remove, ARGV[2] member
redis.call('INCR', KEYS[2])
if ARGV[1] == '1' then
  redis.call('SADD', KEYS[1], ARGV[2])
else
  redis.call('SREM', KEYS[1], ARGV[2])
end
return 1
