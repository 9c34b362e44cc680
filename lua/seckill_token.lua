-- Anti-bot flash-sale token (秒杀地址隐藏): hands a user a single-use token
-- for one sale, only while the sale is open by Redis's clock (TIME), as
-- seckill_admit.lua decides it. seckill_admit.lua uses the token up.
-- KEYS[1] sale state hash {stock, begin, end} (ms), KEYS[2] buyers hash,
-- KEYS[3] the user's token key (all share the voucher's hash tag).
-- ARGV[1] the token, ARGV[2] its lifetime ms.
-- Returns {0, expiry unix ms} issued (replacing the user's earlier token),
-- 1 not started, 2 ended, 3 out of stock, -1 sale state missing (the caller
-- rebuilds it from MySQL).
local s = redis.call('HMGET', KEYS[1], 'stock', 'begin', 'end')
if not s[1] or redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now < tonumber(s[2]) then return 1 end
if now >= tonumber(s[3]) then return 2 end
if tonumber(s[1]) <= 0 then return 3 end
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[3], ARGV[1], 'PX', ttl)
return {0, now + ttl}
