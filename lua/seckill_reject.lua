-- Ends an accepted flash-sale order that will never be persisted, atomically
-- with its removal from the order stream, so it is ended exactly once however
-- many consumers saw it: moves the entry to the dead-letter stream, frees its
-- buyer (or points the buyer at the order MySQL kept), returns its unit to the
-- Redis stock when MySQL never took it, and records the rejection so
-- order(id) can show it.
-- KEYS[1] sale state hash, KEYS[2] buyers hash, KEYS[3] order stream,
-- KEYS[4] dead-letter stream, KEYS[5] rejections hash (order id -> "user:reason").
-- All share the voucher's hash tag.
-- ARGV[1] stream entry id, ARGV[2] consumer group, ARGV[3] user id ("" for a
-- malformed entry: only dead-lettered), ARGV[4] order id, ARGV[5] 1 to return
-- the unit, ARGV[6] order id the buyer keeps ("" to forget the buyer),
-- ARGV[7] reason, ARGV[8] consumer name, ARGV[9] minimum lifetime of the
-- rejection record (ms; it also lives as long as the sale's state),
-- ARGV[10..] the entry's fields and values (copied into the dead letter).
-- Returns 1 when it ended the order, 0 when the entry had already left the
-- stream (another consumer ended or persisted it: nothing to do).
redis.call('XACK', KEYS[3], ARGV[2], ARGV[1])
if redis.call('XDEL', KEYS[3], ARGV[1]) == 0 then
  return 0
end
local dead = {'reason', ARGV[7], 'id', ARGV[1], 'consumer', ARGV[8]}
for i = 10, #ARGV, 2 do
  dead[#dead + 1] = 'entry_' .. ARGV[i]
  dead[#dead + 1] = ARGV[i + 1]
end
redis.call('XADD', KEYS[4], '*', unpack(dead))
if ARGV[3] == '' then
  return 1
end
if redis.call('HGET', KEYS[2], ARGV[3]) == ARGV[4] then
  if ARGV[6] ~= '' then
    redis.call('HSET', KEYS[2], ARGV[3], ARGV[6])
  else
    redis.call('HDEL', KEYS[2], ARGV[3])
  end
  if ARGV[5] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('HINCRBY', KEYS[1], 'stock', 1)
  end
end
redis.call('HSET', KEYS[5], ARGV[4], ARGV[3] .. ':' .. ARGV[7])
local want = math.max(tonumber(ARGV[9]), redis.call('PTTL', KEYS[1]))
if redis.call('PTTL', KEYS[5]) < want then
  redis.call('PEXPIRE', KEYS[5], want)
end
return 1
