-- Take or re-enter a reentrant lock (Redisson's algorithm) and hand out a
-- fencing token on a first acquisition.
-- KEYS[1] the lock: a hash owner -> hold count, plus field 'fence' -> the holder's token
-- KEYS[2] the lock's fencing counter (same hash tag as KEYS[1])
-- ARGV[1] owner id (always contains ':', so it never clashes with 'fence')
-- ARGV[2] lease, ms    ARGV[3] fencing counter TTL, ms
-- Returns {1, token} taken, {2, token} re-entered, {0, pttl ms} held by another owner.
local lease = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 0 then
  if redis.call('EXISTS', KEYS[2]) == 0 then
    -- Seed a missing counter with the server time in microseconds: tokens keep
    -- growing even when Redis lost the counter (eviction, restart, TTL).
    local t = redis.call('TIME')
    redis.call('SET', KEYS[2], t[1] .. string.format('%06d', tonumber(t[2])))
  end
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  -- Kept as the string Redis returns: a Lua number would lose digits.
  local token = redis.call('GET', KEYS[2])
  redis.call('HSET', KEYS[1], ARGV[1], 1, 'fence', token)
  redis.call('PEXPIRE', KEYS[1], lease)
  return {1, token}
end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  if redis.call('PTTL', KEYS[1]) < lease then
    redis.call('PEXPIRE', KEYS[1], lease)
  end
  return {2, redis.call('HGET', KEYS[1], 'fence')}
end
return {0, redis.call('PTTL', KEYS[1])}
