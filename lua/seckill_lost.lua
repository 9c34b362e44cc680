-- Records an acknowledged flash-sale order that Redis lost before any
-- consumer persisted it (a failover to a replica that never got the
-- admission, or a restart without persistence): the instance that
-- acknowledged it found it neither held by its buyer nor in MySQL
-- (internal/seckill/acked.go). Its unit went with it, so only the rejection
-- is recorded, for order(id) to show it REJECTED with reason "lost".
-- KEYS[1] sale state hash, KEYS[2] buyers hash, KEYS[3] rejections hash
-- (order id -> "user:reason"). All share the voucher's hash tag.
-- ARGV[1] user id, ARGV[2] order id, ARGV[3] minimum lifetime of the record (ms).
-- Returns 1 recorded, 0 the buyer holds the order after all (or the buyers
-- hash is missing, being rebuilt: look again later), 2 already rejected.
if redis.call('HEXISTS', KEYS[2], '0') == 0 or redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then
  return 0
end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then
  return 2
end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[1] .. ':lost')
local want = math.max(tonumber(ARGV[3]), redis.call('PTTL', KEYS[1]))
if redis.call('PTTL', KEYS[3]) < want then
  redis.call('PEXPIRE', KEYS[3], want)
end
return 1
