-- Flash-sale admission (秒杀资格判断): decides one attempt atomically.
-- KEYS[1] sale state hash {stock, begin, end} (ms), KEYS[2] buyers hash
-- user -> order id (with the sentinel field "0", so a lost hash is noticed),
-- KEYS[3] the voucher's order stream. All share the voucher's hash tag.
-- ARGV[1] user id, ARGV[2] order id, ARGV[3] now (ms), ARGV[4] voucher id.
-- Returns 0 accepted, 1 not started, 2 ended, 3 out of stock, 4 already
-- ordered, -1 sale state missing (the caller rebuilds it from MySQL).
local s = redis.call('HMGET', KEYS[1], 'stock', 'begin', 'end')
if not s[1] or redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local now = tonumber(ARGV[3])
if now < tonumber(s[2]) then return 1 end
if now >= tonumber(s[3]) then return 2 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 4 end
if tonumber(s[1]) <= 0 then return 3 end
redis.call('HINCRBY', KEYS[1], 'stock', -1)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('XADD', KEYS[3], '*', 'order', ARGV[2], 'user', ARGV[1], 'voucher', ARGV[4])
return 0
