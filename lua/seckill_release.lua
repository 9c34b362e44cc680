-- Gives a cancelled order's unit back to the flash sale and forgets its buyer,
-- but only if Redis still holds that very order for the user: a sale state
-- rebuilt from MySQL after the cancellation already counts the unit.
-- KEYS[1] sale state hash, KEYS[2] buyers hash; ARGV[1] user id, ARGV[2] order id,
-- ARGV[3] 1 to return the unit, 0 to only forget the buyer.
-- Returns 1 when it changed something, 0 otherwise.
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('HDEL', KEYS[2], ARGV[1])
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'stock', 1)
end
return 1
