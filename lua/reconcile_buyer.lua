-- Repairs one buyer of a flash sale found in disagreement with MySQL by the
-- reconciliation job (internal/reconcile), only if Redis still holds what
-- the job saw, so a purchase, a cancellation or a consumer that moved the
-- buyer meanwhile wins and this changes nothing.
-- KEYS[1] sale state hash, KEYS[2] buyers hash, KEYS[3] rejections hash
-- (same hash tag).
-- ARGV[1] user id, ARGV[2] the order id the job saw ("" for no field),
-- ARGV[3] the order id to hold now ("" to forget the buyer), ARGV[4] 1 to
-- return a unit to the stock, ARGV[5] a rejection reason to record for
-- ARGV[2] ("" none), ARGV[6] minimum lifetime of that record (ms).
-- Returns 1 when it repaired, 0 when Redis no longer holds what was seen.
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then
  return 0
end
local held = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if held ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
end
if ARGV[4] == '1' then
  redis.call('HINCRBY', KEYS[1], 'stock', 1)
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[1] .. ':' .. ARGV[5])
  local want = math.max(tonumber(ARGV[6]), redis.call('PTTL', KEYS[1]))
  if redis.call('PTTL', KEYS[3]) < want then
    redis.call('PEXPIRE', KEYS[3], want)
  end
end
return 1
