-- Corrects a flash sale's Redis stock by the difference the reconciliation
-- job (internal/reconcile) found with MySQL twice, only if nothing that moves
-- the stock happened since it looked: same stock, same number of buyers,
-- same stream length, same epoch (no rebuild). An admission, a release, a
-- rejection, an acknowledgement or a rebuild in between changes one of them,
-- and then nothing is written (the next run looks again).
-- KEYS[1] sale state hash, KEYS[2] buyers hash, KEYS[3] order stream,
-- KEYS[4] epoch (same hash tag).
-- ARGV[1] stock seen, ARGV[2] buyers seen (HLEN), ARGV[3] stream length
-- seen, ARGV[4] epoch seen ("" none), ARGV[5] the difference to add.
-- Returns 1 when it corrected the stock, 0 otherwise.
local stock = redis.call('HGET', KEYS[1], 'stock')
if not stock or stock ~= ARGV[1] then
  return 0
end
if redis.call('HLEN', KEYS[2]) ~= tonumber(ARGV[2]) or redis.call('XLEN', KEYS[3]) ~= tonumber(ARGV[3]) then
  return 0
end
if (redis.call('GET', KEYS[4]) or '') ~= ARGV[4] then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'stock', tonumber(ARGV[5]))
return 1
