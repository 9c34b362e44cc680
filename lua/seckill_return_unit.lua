-- Gives a refunded order's unit back to the flash sale while keeping its
-- buyer (one order per buyer per sale: a refunded buyer stays ALREADY_ORDERED,
-- as MySQL's unique key (user_id, voucher_id) holds the refunded row), but
-- only if Redis still holds that very order for the user: a sale state
-- rebuilt from MySQL after the refund already counts the unit.
-- KEYS[1] sale state hash, KEYS[2] buyers hash; ARGV[1] user id, ARGV[2] order id.
-- Returns 1 when it returned the unit, 0 otherwise.
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'stock', 1)
return 1
