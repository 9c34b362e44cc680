-- Replays a dead-lettered flash-sale order (an operator's action): admits it
-- again as a new order, exactly as seckill_admit.lua admits a purchase (one
-- unit off the Redis stock, the buyer recorded, an entry added to the order
-- stream, the consumers' witness), and removes the dead letter, all at once;
-- so of two replays (or a replay and a discard) of one dead letter only one
-- acts. The sale window is not checked: the buyer was admitted in it.
-- KEYS[1] sale state hash, KEYS[2] buyers hash, KEYS[3] order stream,
-- KEYS[4] dead-letter stream (same hash tag).
-- ARGV[1] dead letter id, ARGV[2] user id, ARGV[3] new order id, ARGV[4] voucher id.
-- Returns {0, stream id} admitted, 1 the dead letter is gone (handled
-- already), 3 no unit left in Redis, 4 the buyer holds another order,
-- -1 the sale state is missing (the caller rebuilds it and retries).
if #redis.call('XRANGE', KEYS[4], ARGV[1], ARGV[1]) == 0 then
  return 1
end
local stock = redis.call('HGET', KEYS[1], 'stock')
if not stock or redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then
  return 4
end
if tonumber(stock) <= 0 then
  return 3
end
redis.call('HINCRBY', KEYS[1], 'stock', -1)
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
local id = redis.call('XADD', KEYS[3], '*', 'order', ARGV[3], 'user', ARGV[2], 'voucher', ARGV[4])
redis.call('XDEL', KEYS[4], ARGV[1])
return {0, id}
