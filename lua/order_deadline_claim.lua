-- Claims the orders whose payment deadline has passed, by Redis's clock, so
-- every instance agrees when a deadline is due. A claimed order is not removed
-- but pushed LEASE ms into the future: the claimer removes it once handled,
-- and if the claimer dies the order becomes due again, for any instance.
-- KEYS[1] deadline ZSET (member order id, score deadline in unix ms);
-- ARGV[1] max orders, ARGV[2] lease ms. Returns the claimed order ids.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local until_ = now + tonumber(ARGV[2])
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', until_, id)
end
return due
