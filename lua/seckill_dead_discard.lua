-- Ends a dead-lettered flash-sale order for good (an operator's action, or a
-- replay that cannot be admitted): removes the dead letter and, only if
-- Redis still holds that very order for the buyer, forgets the buyer and
-- returns the unit (as seckill_release.lua does: seckill_reject.lua has
-- normally done both already, so this changes nothing else); records the
-- rejection so order(id) shows it. Atomic, so one dead letter is acted on once.
-- KEYS[1] sale state hash, KEYS[2] buyers hash, KEYS[3] dead-letter stream,
-- KEYS[4] rejections hash (same hash tag).
-- ARGV[1] dead letter id, ARGV[2] user id ("" for a malformed entry),
-- ARGV[3] order id, ARGV[4] 1 to return the unit, ARGV[5] reason,
-- ARGV[6] minimum lifetime of the rejection record (ms).
-- Returns 1 when it ended the dead letter, 0 when it was gone already.
if redis.call('XDEL', KEYS[3], ARGV[1]) == 0 then
  return 0
end
if ARGV[2] == '' then
  return 1
end
if redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[3] then
  redis.call('HDEL', KEYS[2], ARGV[2])
  if ARGV[4] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('HINCRBY', KEYS[1], 'stock', 1)
  end
end
if redis.call('HEXISTS', KEYS[4], ARGV[3]) == 0 then
  redis.call('HSET', KEYS[4], ARGV[3], ARGV[2] .. ':' .. ARGV[5])
end
local want = math.max(tonumber(ARGV[6]), redis.call('PTTL', KEYS[1]))
if redis.call('PTTL', KEYS[4]) < want then
  redis.call('PEXPIRE', KEYS[4], want)
end
return 1
