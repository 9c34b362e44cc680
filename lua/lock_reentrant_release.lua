-- Undo one hold of a reentrant lock; the last one deletes it and wakes waiters.
-- KEYS[1] the lock hash    KEYS[2] its release channel (same hash tag)
-- ARGV[1] owner id
-- Returns -1 when the owner does not hold it, else the holds left (0 = released).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return -1
end
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left > 0 then
  return left
end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', KEYS[2], 'released')
return 0
